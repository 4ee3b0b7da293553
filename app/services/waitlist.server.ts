import { inTransaction } from "~db/client.server";
import { env } from "~/env.server";
import { newTimeOrderedId } from "~/util/ids";
import { hashOfferToken, offerToken } from "~/infra/waitlist-token.server";
import type { Enquiry } from "~/models/enquiry.server";
import { getEnquiry } from "~/models/enquiry.server";
import { findScheduleByCourseAndStart, getSchedule, returnSeat, takeSeat, type Schedule } from "~/models/schedule.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import {
  activeEntryOfEnquiry,
  closeOffer,
  deleteWaitlistOfEnquiry,
  deleteWaitlistOfSchedules,
  firstWaiting,
  insertOffer,
  insertWaitlistEntry,
  enquiryStateNow,
  listOffersExpiredBy,
  listWaitlist,
  moveEntry,
  openOfferOfEnquiry,
  positionOf,
  schedulesWithSeatsAndWaiting,
  seatsLeftLocked,
  type WaitlistEntry,
  type WaitlistLine,
  type WaitlistOffer,
} from "~/models/waitlist.server";
import { DELIVERY_MODE_LABELS, type DeliveryMode, type WaitlistStep } from "~/schemas/values";
import { formatDate, formatDateTime } from "~/util/dates";
import type { StaffActor } from "./actor";
import { queueWaitlistOffer } from "./notifications.server";
import { conflict } from "./service-error";

/**
 * The waitlist of a full batch. An enquiry naming a full batch (the schedule's Join waitlist, or the API's
 * batchDate) joins its list, in order of joining. When a seat frees (an enrolment leaves Enrolled or its batch, an
 * enrolled enquiry is deleted, staff raise the seats, an offer expires or is declined) the first one waiting is
 * offered it by e-mail: the offer takes the seat from the batch's counter and holds it for WAITLIST_OFFER_HOURS.
 * Accepting (app/services/waitlist-offers.server.ts) enrols through the same status change staff use.
 * Everything here runs inside the caller's transaction; every step is a line on the enquiry's timeline.
 */

export const ALREADY_ENROLLED = "This enquiry has just been enrolled in this batch (its waitlist offer was accepted): reload to see it.";

/** Who the timeline and audit log name for what the waitlist does by itself (offers, expiry, an enquirer's acceptance). */
export const WAITLIST_ACTOR: StaffActor = { user: { id: "waitlist", name: "Waitlist", email: "", role: "editor" }, ip: "" };

/** "SOC Analyst Training Program, starts Jan 5, 2027 (Online)": a batch as staff screens, timelines and the audit log name it. */
export function batchTitle(s: Pick<Schedule, "courseName" | "startDate" | "mode">): string {
  return `${s.courseName}, starts ${formatDate(s.startDate)} (${DELIVERY_MODE_LABELS[s.mode as DeliveryMode] ?? s.mode})`;
}

// ---------------------------------------------------------------- offers

export function offerHours(): number {
  return env().WAITLIST_OFFER_HOURS;
}

// ---------------------------------------------------------------- timeline

async function line(
  enquiryId: string,
  step: WaitlistStep,
  text: string,
  who: { userId: string | null; userName: string } = { userId: null, userName: WAITLIST_ACTOR.user.name },
) {
  await insertTimelineEntry("enquiry", enquiryId, { ...who, kind: "waitlist", fromValue: null, toValue: step, text });
}

// ---------------------------------------------------------------- joining

/**
 * Inside the submission's transaction: puts the new enquiry on the batch's waitlist when the batch has no seat
 * left (read current and locked, so a seat freeing at the same moment either is seen here or sees this entry).
 * Returns the place on the list, or null when a seat is free after all (an ordinary enquiry for the batch).
 */
export async function joinWaitlistIfFull(enquiry: Pick<Enquiry, "id">, batch: Schedule): Promise<number | null> {
  const seats = await seatsLeftLocked(batch.id);
  if (seats === null || seats > 0) return null;
  const entry = await insertWaitlistEntry(batch.id, enquiry.id);
  const position = await positionOf(entry);
  await line(enquiry.id, "joined", `Joined the waitlist for ${batchTitle(batch)}: position ${position}`, { userId: null, userName: "" });
  return position;
}

// ---------------------------------------------------------------- offering freed seats

/** Who was offered a freed seat and their place on the batch's waitlist then: "Keerthi Rao (waitlist 1)". */
export type SeatOffer = { name: string; position: number };

export const seatOfferText = (o: SeatOffer) => `${o.name} (waitlist ${o.position})`;

/**
 * While the batch has a seat left and someone waits: take the seat for the first one waiting, open an offer
 * holding it and queue its e-mail. Called inside every transaction that frees a seat. Returns the names of those
 * offered a seat, in order; `offers`, when given, also gets each one's place on the list (for a message that says so).
 */
export async function offerFreedSeats(scheduleId: string, offers: SeatOffer[] = []): Promise<string[]> {
  const batch = await getSchedule(scheduleId);
  if (!batch) return [];
  const offered: string[] = [];
  for (;;) {
    const entry = await firstWaiting(scheduleId);
    if (!entry) break;
    if (!(await takeSeat(scheduleId, WAITLIST_ACTOR.user.name))) break;
    if (!(await moveEntry(entry.id, ["waiting"], "offered"))) {
      await returnSeat(scheduleId, WAITLIST_ACTOR.user.name);
      continue;
    }
    const position = await positionOf(entry);
    offered.push(await openOffer(entry, batch));
    offers.push({ name: offered[offered.length - 1], position });
  }
  return offered;
}

/** Opens the offer of a freed seat to `entry` and queues its e-mail; returns who was offered it. */
async function openOffer(entry: WaitlistEntry, batch: Schedule): Promise<string> {
  const id = newTimeOrderedId();
  const expiresAt = new Date(Date.now() + offerHours() * 3_600_000).toISOString();
  await insertOffer({ ...entry, status: "offered" }, { id, tokenHash: hashOfferToken(offerToken(id)), expiresAt });
  const enquiry = await getEnquiry(entry.enquiryId);
  await line(entry.enquiryId, "offered", `Offered a seat in ${batchTitle(batch)}, held until ${formatDateTime(expiresAt)} IST`);
  if (enquiry) await queueWaitlistOffer(enquiry, batch);
  return enquiry?.fullName ?? "(deleted enquiry)";
}

/** After an open offer was closed (expired, declined, withdrawn): its entry leaves the list and the held seat goes to the next one waiting. */
export async function releaseOfferFor(offer: WaitlistOffer, step: "expired" | "declined" | "withdrawn", text: string, offers: SeatOffer[] = []): Promise<void> {
  await moveEntry(offer.entryId, ["offered"], step);
  await returnSeat(offer.scheduleId, WAITLIST_ACTOR.user.name);
  await line(offer.enquiryId, step, text);
  await offerFreedSeats(offer.scheduleId, offers);
}

// ---------------------------------------------------------------- the enquiry's status path (applyChange)

/**
 * applyChange's seat step, before it would take a seat of `scheduleId` for an enquiry becoming Enrolled: when
 * the enquiry holds an open offer for that batch, the offer's seat is theirs (the offer is accepted, no second
 * seat is taken). Loses cleanly to a concurrent acceptance of the same offer (refused, so nothing is taken twice).
 */
export async function claimOfferedSeat(enquiryId: string, scheduleId: string): Promise<boolean> {
  const offer = await openOfferOfEnquiry(enquiryId);
  if (offer && offer.scheduleId === scheduleId && (await closeOffer(offer.id, "accepted"))) {
    await moveEntry(offer.entryId, ["offered"], "enrolled");
    await line(enquiryId, "accepted", "Enrolled by staff with the seat the waitlist offer held");
    return true;
  }
  // A change read the enquiry before a concurrent acceptance committed: it is enrolled already, take no second seat.
  const now = await enquiryStateNow(enquiryId);
  if (now?.status === "enrolled" && now.scheduleId === scheduleId) throw conflict(ALREADY_ENROLLED, { status: ALREADY_ENROLLED }, "already_enrolled");
  return false;
}

/**
 * After applyChange saved an enquiry: a seat its enrolment gave back goes to the batch's waitlist, and an
 * enquiry that is no longer waiting for its batch (closed, enrolled, moved to another batch) leaves the list,
 * its open offer withdrawn and the held seat offered to the next one. Returns who was offered the seat it gave
 * up (an enrolment's or an offer's), with their batch, so staff are told.
 */
export async function waitlistAfterChange(before: Enquiry, saved: Enquiry): Promise<{ scheduleId: string; offers: SeatOffer[] }[]> {
  const given: { scheduleId: string; offers: SeatOffer[] }[] = [];
  const wasHolding = before.status === "enrolled" && before.scheduleId !== null;
  const stillHolds = saved.status === "enrolled" && saved.scheduleId === before.scheduleId;
  if (wasHolding && !stillHolds) {
    const offers: SeatOffer[] = [];
    await offerFreedSeats(before.scheduleId!, offers);
    given.push({ scheduleId: before.scheduleId!, offers });
  }

  const entry = await activeEntryOfEnquiry(saved.id);
  if (!entry) return given;
  if (saved.status === "enrolled" && saved.scheduleId === entry.scheduleId) {
    await moveEntry(entry.id, ["waiting", "offered"], "enrolled");
    return given;
  }
  if (saved.scheduleId === entry.scheduleId && saved.status !== "closed" && saved.status !== "enrolled") return given;
  const why = saved.scheduleId !== entry.scheduleId ? "moved to another batch" : `status ${saved.status}`;
  const offer = entry.status === "offered" ? await openOfferOfEnquiry(saved.id) : null;
  if (offer && (await closeOffer(offer.id, "withdrawn"))) {
    const offers: SeatOffer[] = [];
    await releaseOfferFor(offer, "withdrawn", `Left the waitlist (${why}): the offered seat goes to the next one waiting`, offers);
    given.push({ scheduleId: offer.scheduleId, offers });
  } else if (await moveEntry(entry.id, ["waiting"], "withdrawn")) {
    await line(saved.id, "withdrawn", `Left the waitlist (${why})`);
  }
  return given;
}

/** Inside deleteEnquiry's transaction, after an enrolment's seat went back: the enquiry's waitlist rows go, held seats are offered on. */
export async function waitlistEnquiryDeleted(enquiry: Enquiry): Promise<void> {
  const freed = new Set<string>();
  if (enquiry.status === "enrolled" && enquiry.scheduleId) freed.add(enquiry.scheduleId);
  const offer = await openOfferOfEnquiry(enquiry.id);
  if (offer && (await closeOffer(offer.id, "withdrawn"))) {
    await returnSeat(offer.scheduleId, WAITLIST_ACTOR.user.name);
    freed.add(offer.scheduleId);
  }
  await deleteWaitlistOfEnquiry(enquiry.id);
  for (const id of freed) await offerFreedSeats(id);
}

/** A batch deleted: its waitlist goes with it. */
export const waitlistBatchesDeleted = (scheduleIds: string[]) => deleteWaitlistOfSchedules(scheduleIds);

// ---------------------------------------------------------------- expiry (periodic job)

export const WAITLIST_JOB_EVERY_MS = 60_000;

/**
 * Expires open offers past their time and offers each seat to the next one waiting; then offers any batch's free
 * seats to its waiting list (a safety net). Safe in several instances: an offer is closed by a conditional
 * UPDATE, so each expiry happens once. Returns how many offers expired.
 */
export async function runWaitlistJob(now = new Date()): Promise<number> {
  let expired = 0;
  for (const offer of await listOffersExpiredBy(now.toISOString())) {
    const done = await inTransaction(async () => {
      if (!(await closeOffer(offer.id, "expired", { expiredAt: now.toISOString() }))) return false;
      await releaseOfferFor(offer, "expired", "The waitlist offer expired unanswered: the seat goes to the next one waiting");
      return true;
    });
    if (done) expired++;
  }
  for (const id of await schedulesWithSeatsAndWaiting()) await inTransaction(() => offerFreedSeats(id));
  return expired;
}

// ---------------------------------------------------------------- what staff see

export async function batchWaitlist(scheduleId: string): Promise<WaitlistLine[]> {
  return listWaitlist(scheduleId);
}

/** "Waitlist: position 2 for <batch>" (or offered, until when) for the enquiry's details; null when not on a list. */
export async function enquiryWaitlistStatus(enquiryId: string): Promise<{
  position: number;
  status: WaitlistEntry["status"];
  batch: string;
  courseName: string;
  startDate: string;
  scheduleId: string;
  offerExpiresAt: string | null;
} | null> {
  const entry = await activeEntryOfEnquiry(enquiryId);
  if (!entry) return null;
  const batch = await getSchedule(entry.scheduleId);
  const offer = entry.status === "offered" ? await openOfferOfEnquiry(enquiryId) : null;
  return {
    position: await positionOf(entry),
    status: entry.status,
    batch: batch ? batchTitle(batch) : "(deleted batch)",
    courseName: batch?.courseName ?? "",
    startDate: batch?.startDate ?? "",
    scheduleId: entry.scheduleId,
    offerExpiresAt: offer?.expiresAt ?? null,
  };
}

/** The batch a Join waitlist link names, when it is full (the /enquiry page then says the visitor joins its waitlist). */
export async function fullBatchFor(
  courseTitle: string,
  startDate: string,
  mode: DeliveryMode,
): Promise<Pick<Schedule, "courseName" | "startDate" | "mode"> | null> {
  const batch = await findScheduleByCourseAndStart(courseTitle, startDate, mode);
  return batch && batch.seats <= 0 ? { courseName: batch.courseName, startDate: batch.startDate, mode: batch.mode } : null;
}
