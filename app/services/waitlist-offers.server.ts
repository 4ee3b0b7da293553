import { inTransaction } from "~db/client.server";
import { getEnquiry } from "~/models/enquiry.server";
import { getSchedule, type Schedule } from "~/models/schedule.server";
import { closeOffer, findOfferByTokenHash, getOffer, type WaitlistOffer } from "~/models/waitlist.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import type { Actor } from "./actor";
import { enrolWithHeldSeat } from "./enquiries.server";
import { hashOfferToken } from "~/infra/waitlist-token.server";
import { batchCalendar, type CalendarFile } from "~/infra/batch-calendar-file.server";
import { enquiryReference } from "~/util/enquiry-reference";
import { batchFeeLine } from "~/util/fee";
import { batchTitle, releaseOfferFor, WAITLIST_ACTOR } from "./waitlist.server";

/**
 * The enquirer's side of a waitlist offer: the link's page shows it, a POST accepts or declines it. Accepting
 * closes the open offer with one conditional UPDATE (open and not past its time) before anything else, so of two
 * acceptances (two tabs, two app instances) exactly one goes on; the winner is enrolled through the staff's own
 * status path (seat, timeline, audit, webhook, confirmation e-mail), using the seat the offer held.
 */

export type OfferState = "open" | "accepted" | "expired" | "declined" | "withdrawn" | "unknown";

/** `acceptedNow`: this very request accepted it (a repeated click, or a second tab, finds it already accepted). */
export type OfferView = {
  state: OfferState;
  acceptedNow?: boolean;
  fullName?: string;
  batch?: Pick<Schedule, "id" | "courseName" | "startDate" | "endDate" | "time" | "days" | "mode" | "location">;
  expiresAt?: string;
  /** The enquiry's reference ("ENQ-3F9A12BC"), which staff can search for. */
  reference?: string;
  /** The batch's fee line ("Fee: ₹45,000 (incl. GST)" or "Fee on request"). */
  fee?: string;
};

async function describe(offer: WaitlistOffer | null, now = new Date()): Promise<OfferView> {
  if (!offer) return { state: "unknown" };
  const [enquiry, batch] = await Promise.all([getEnquiry(offer.enquiryId), getSchedule(offer.scheduleId)]);
  if (!enquiry || !batch) return { state: "unknown" };
  // Past its time but not yet closed by the periodic job: already expired for the enquirer.
  const state: OfferState = offer.status === "open" && Date.parse(offer.expiresAt) <= now.getTime() ? "expired" : offer.status;
  return { state, fullName: enquiry.fullName, batch, expiresAt: offer.expiresAt, reference: enquiryReference(enquiry.id), fee: batchFeeLine(batch) };
}

const find = (token: string) => (token && token.length <= 100 ? findOfferByTokenHash(hashOfferToken(token)) : Promise.resolve(null));

export async function viewOffer(token: string): Promise<OfferView> {
  return describe(await find(token));
}

/** The batch of an accepted offer as a calendar file (the accepted page's "Add to calendar"); null for any other link. */
export async function acceptedOfferCalendar(token: string): Promise<CalendarFile | null> {
  const offer = await find(token);
  if (offer?.status !== "accepted") return null;
  const batch = await getSchedule(offer.scheduleId);
  return batch ? batchCalendar(batch) : null;
}

/** Accepts the offer if it is still open and within its time; answers what the offer is now either way. */
export async function acceptOffer(actor: Pick<Actor, "ip" | "requestId">, token: string): Promise<OfferView> {
  const offer = await find(token);
  if (!offer) return { state: "unknown" };
  const now = new Date();
  const acceptedNow = await inTransaction(async () => {
    if (!(await closeOffer(offer.id, "accepted", { notExpiredAt: now.toISOString() }))) return false;
    const batch = await getSchedule(offer.scheduleId);
    await insertTimelineEntry("enquiry", offer.enquiryId, {
      userId: null,
      userName: "",
      kind: "waitlist",
      fromValue: null,
      toValue: "accepted",
      text: `Accepted the waitlist offer for ${batch ? batchTitle(batch) : "the batch"}`,
    });
    await enrolWithHeldSeat({ ...WAITLIST_ACTOR, ip: actor.ip, requestId: actor.requestId }, offer.enquiryId, offer.scheduleId);
    return true;
  });
  return { ...(await describe(await getOffer(offer.id), now)), acceptedNow };
}

/** Declines an open offer: the enquirer leaves the list and the seat goes to the next one waiting. */
export async function declineOffer(token: string): Promise<OfferView> {
  const offer = await find(token);
  if (!offer) return { state: "unknown" };
  await inTransaction(async () => {
    if (!(await closeOffer(offer.id, "declined"))) return;
    await releaseOfferFor(offer, "declined", "Declined the waitlist offer: the seat goes to the next one waiting");
  });
  return describe(await getOffer(offer.id));
}
