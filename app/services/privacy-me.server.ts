import { inTransaction } from "~db/client.server";
import { env } from "~/env.server";
import { batchCalendar, type CalendarFile } from "~/infra/batch-calendar-file.server";
import { hashLinkAddress, hashPrivacyToken, plausibleToken } from "~/infra/privacy-tokens.server";
import { consumePrivacyAttempt, RATE_LIMIT_MESSAGE } from "~/infra/rate-limit.server";
import { attachmentDisplayName, attachmentKey } from "~/infra/uploads.server";
import { fileStore } from "~/infra/file-store.server";
import { consentsOf } from "~/models/consents.server";
import {
  correctPersonDetails,
  outboxAbout,
  privacyRecord,
  recordsOfEmail,
  setWhatsappNotifications,
  waitlistRowsOf,
  type PrivacyRecord,
} from "~/models/people.server";
import { enquiryReference } from "~/util/enquiry-reference";
import { findPrivacyLink, privacyLinkById, type PrivacyLink } from "~/models/privacy-links.server";
import { getSchedule, type Schedule } from "~/models/schedule.server";
import { insertTimelineEntry, listTimeline } from "~/models/timeline.server";
import { activeEntryOfEnquiry, latestEntryOfEnquiry, openOfferOfEnquiry, positionOf, type WaitlistEntry, type WaitlistOffer } from "~/models/waitlist.server";
import { offerPath, offerToken } from "~/infra/waitlist-token.server";
import { PRIVACY_NOTICE_VERSION } from "~/config/privacy-notice";
import { indianPhoneDigits, PHONE_MESSAGE } from "~/schemas/enquiry";
import { meCorrectionSchema, meLinkRequestSchema } from "~/schemas/privacy-requests";
import { ERASE_CONFIRM_MESSAGE, ME_LINK_EXPIRED, ME_LINK_INVALID } from "~/schemas/privacy-messages";
import { isTrueFlag } from "~/schemas/fields";
import type { TimelineSubject } from "~/schemas/values";
import type { Actor } from "./actor";
import { record } from "./audit.server";
import { queuePrivacyMail } from "./notifications.server";
import { recordConsents, setMarketing } from "./privacy-consents.server";
import { guardianWaitText } from "./guardian-consent.server";
import { eraseOwnRecords, type ErasureResult } from "./privacy-erasure.server";
import { invalid, tooMany } from "./service-error";
import { parseInput } from "./validation";
import { parseMailbox } from "~/util/email-address";
import { siteIsoTime } from "~/util/dates";

/**
 * A visitor's own page (/me, DPDP Act: access, correction, erasure, withdrawal). A link mailed to them (every e-mail
 * to a visitor has one; "Where is my enquiry?" sends a fresh one) opens it: the token names one record, and the page
 * shows every record with that record's e-mail address, held ones included (a minor sees theirs wait for consent),
 * never anyone else's. Tokens are checked by hash, expire after ME_LINK_DAYS, and pages opened with one are counted
 * per IP address, so nobody can try tokens at speed.
 */

/** Who the audit log and timelines name for what a person does on their own page. */
const PERSON = { userId: null, userName: "The person (own page)" };

/**
 * How a request names the person: the token of the link in their e-mail (opened once, then exchanged for a cookie
 * by the web layer: app/web/me-access.server.ts), or the id of that link, which the cookie carries.
 */
export type MeAccess = { token: string } | { linkId: string };

type Resolved = { state: "ok"; linkId: string; email: string; records: PrivacyRecord[]; expiresAt: string } | { state: "invalid" | "expired" };

async function countView(actor: Pick<Actor, "ip">): Promise<void> {
  const decision = await consumePrivacyAttempt("me-view", actor.ip);
  if (!decision.ok) throw tooMany(RATE_LIMIT_MESSAGE, decision.retryAfter);
}

/**
 * The person a token opens: the e-mail of the record it names, and every record (not erased) with that e-mail, only
 * while that e-mail is still the address the link was mailed to (a link never follows an address staff put on the
 * record later).
 */
async function resolve(access: MeAccess): Promise<Resolved> {
  let link: PrivacyLink | null;
  if ("token" in access) {
    if (!plausibleToken(access.token)) return { state: "invalid" };
    link = await findPrivacyLink(hashPrivacyToken(access.token));
  } else {
    link = await privacyLinkById(access.linkId);
  }
  if (!link || link.kind !== "me") return { state: "invalid" };
  if (Date.parse(link.expiresAt) <= Date.now()) return { state: "expired" };
  const anchor = await privacyRecord(link.subjectType, link.subjectId);
  if (!anchor || !anchor.record.email || !link.addressHash || hashLinkAddress(anchor.record.email) !== link.addressHash) return { state: "invalid" };
  return { state: "ok", linkId: link.id, email: anchor.record.email, records: await recordsOfEmail(anchor.record.email), expiresAt: link.expiresAt };
}

// ---------------------------------------------------------------- "Where is my enquiry?"

/**
 * Mails a fresh link to the address on file, when there is one. The answer is the same whatever the address (no
 * telling a stranger who enquired); each IP may ask FORM_RATE_LIMIT times per FORM_RATE_WINDOW (429 beyond), and
 * each address gets at most 3 links an hour (beyond, nothing more is sent, and the answer is still the same). Only
 * held records (a minor's, waiting for a guardian) send nothing either.
 */
export async function requestMeLink(actor: Actor, input: unknown): Promise<void> {
  const { email } = parseInput(meLinkRequestSchema, input);
  const ip = await consumePrivacyAttempt("me-link-ip", actor.ip);
  if (!ip.ok) throw tooMany(RATE_LIMIT_MESSAGE, ip.retryAfter);
  if (!(await consumePrivacyAttempt("me-link-address", email)).ok) return;
  // A minor's held record gets no e-mail until a guardian consents (we promised the guardian so).
  const anchor = (await recordsOfEmail(email)).filter((r) => r.state !== "held").at(-1);
  if (!anchor) return;
  await inTransaction(() => queuePrivacyMail("me-link", { type: anchor.type, id: anchor.record.id }, anchor.record.email));
}

// ---------------------------------------------------------------- the page

export type MeBatch = Pick<Schedule, "courseName" | "startDate" | "endDate" | "time" | "days" | "mode" | "location">;
export type MeEnquiry = {
  id: string;
  createdAt: string;
  course: string;
  mode: string;
  status: string;
  held: boolean;
  batch: MeBatch | null;
  waitlist: { position: number; offeredUntil: string | null } | null;
  /** Where the person stands for the batch (none when the enquiry names no batch); only "enrolled" gets a calendar. */
  seat: MeSeat | null;
  /** A minor's held enquiry: what it waits for and when it is deleted without it, in the words the form answered. */
  heldText: string | null;
  attachments: string[];
  whatsappNotifications: boolean;
};

export type MeSeat =
  | { state: "enrolled" }
  | { state: "waiting"; position: number }
  | { state: "offered"; until: string; link: string }
  | { state: "declined" | "expired" | "withdrawn" }
  | { state: "requested" };
export type MeMessage = { id: string; createdAt: string; subject: string | null; status: string; held: boolean };
export type MeView =
  | {
      state: "ok";
      name: string;
      email: string;
      phone: string;
      marketing: boolean;
      /** WhatsApp updates are on for at least one of the person's enquiries. */
      whatsapp: boolean;
      expiresAt: string;
      enquiries: MeEnquiry[];
      messages: MeMessage[];
    }
  | { state: "invalid" | "expired" };

/** Where the person stands for their enquiry's batch, in the states /me words. */
async function seatOf(
  e: Extract<PrivacyRecord, { type: "enquiry" }>["record"],
  scheduleId: string,
  entry: WaitlistEntry | null,
  offer: WaitlistOffer | null,
): Promise<MeSeat> {
  if (e.status === "enrolled") return { state: "enrolled" };
  if (entry && offer) {
    // Past its time but not yet closed by the periodic job: already gone for the person.
    if (Date.parse(offer.expiresAt) <= Date.now()) return { state: "expired" };
    return { state: "offered", until: offer.expiresAt, link: offerPath(offerToken(offer.id)) };
  }
  if (entry) return { state: "waiting", position: await positionOf(entry) };
  const last = await latestEntryOfEnquiry(e.id, scheduleId);
  if (last && (last.status === "declined" || last.status === "expired" || last.status === "withdrawn")) return { state: last.status };
  return { state: "requested" };
}

async function describeEnquiry(r: Extract<PrivacyRecord, { type: "enquiry" }>): Promise<MeEnquiry> {
  const e = r.record;
  const [schedule, entry] = await Promise.all([e.scheduleId ? getSchedule(e.scheduleId) : null, activeEntryOfEnquiry(e.id)]);
  const offer = entry?.status === "offered" ? await openOfferOfEnquiry(e.id) : null;
  const held = r.state === "held";
  const seat = schedule ? await seatOf(e, schedule.id, entry, offer) : null;
  return {
    id: e.id,
    createdAt: e.createdAt,
    course: e.preferredCourse,
    mode: e.preferredMode,
    status: e.status,
    held,
    seat,
    heldText: held ? guardianWaitText(e.guardianName ?? "", e.createdAt) : null,
    batch: schedule
      ? {
          courseName: schedule.courseName,
          startDate: schedule.startDate,
          endDate: schedule.endDate,
          time: schedule.time,
          days: schedule.days,
          mode: schedule.mode,
          location: schedule.location,
        }
      : null,
    waitlist: entry ? { position: await positionOf(entry), offeredUntil: offer?.expiresAt ?? null } : null,
    attachments: e.filePaths.map(attachmentDisplayName),
    whatsappNotifications: e.whatsappNotifications,
  };
}

/** The page a token opens: the person's records with their status, batch dates, waitlist places; or why not. */
export async function viewMe(actor: Pick<Actor, "ip">, access: MeAccess): Promise<MeView> {
  await countView(actor);
  const found = await resolve(access);
  if (found.state !== "ok") return found;
  const newest = found.records.at(-1)!;
  const enquiries = await Promise.all(found.records.filter((r) => r.type === "enquiry").map(describeEnquiry));
  const messages = found.records
    .filter((r) => r.type === "contact_query")
    .map((r) => ({ id: r.record.id, createdAt: r.record.createdAt, subject: r.record.subject, status: r.record.status, held: r.state === "held" }));
  return {
    state: "ok",
    name: newest.type === "enquiry" ? newest.record.fullName : newest.record.name,
    email: found.email,
    phone: [...found.records].reverse().find((r) => r.record.phone)?.record.phone ?? "",
    marketing: found.records.some((r) => r.record.marketingConsent),
    whatsapp: enquiries.some((e) => e.whatsappNotifications),
    expiresAt: found.expiresAt,
    enquiries: enquiries.reverse(),
    messages: messages.reverse(),
  };
}

// ---------------------------------------------------------------- what the person can do there

/**
 * The e-mail's link opened: the link it is (for the web layer to remember by id), or why it opens nothing. Counted
 * like a page view (no trying tokens at speed).
 */
export async function openMeLink(actor: Pick<Actor, "ip">, token: string): Promise<{ state: "ok"; linkId: string } | { state: "invalid" | "expired" }> {
  await countView(actor);
  const found = await resolve({ token });
  return found.state === "ok" ? { state: "ok", linkId: found.linkId } : found;
}

async function mine(actor: Pick<Actor, "ip">, access: MeAccess): Promise<Extract<Resolved, { state: "ok" }>> {
  await countView(actor);
  const found = await resolve(access);
  if (found.state !== "ok") throw invalid({ token: found.state === "expired" ? ME_LINK_EXPIRED : ME_LINK_INVALID });
  return found;
}

/** Withdraw (or give) marketing consent, for every record of the person: one consent row and timeline line each. */
export async function setMyMarketing(actor: Actor, access: MeAccess, on: boolean): Promise<number> {
  const { records } = await mine(actor, access);
  return inTransaction(() =>
    setMarketing(
      records.map((r) => ({ type: r.type, id: r.record.id, marketingConsent: r.record.marketingConsent })),
      on,
      "me",
    ),
  );
}

/**
 * WhatsApp updates off (or on again) for every enquiry of the person, as easily as marketing: the flag staff see, a
 * consent row (given or withdrawn, channel "me") and a timeline line each, in one transaction. Returns how many changed.
 */
export async function setMyWhatsapp(actor: Actor, access: MeAccess, on: boolean): Promise<number> {
  const { records } = await mine(actor, access);
  return inTransaction(async () => {
    let changed = 0;
    for (const r of records) {
      if (r.type !== "enquiry" || r.record.whatsappNotifications === on) continue;
      await setWhatsappNotifications(r.record.id, on);
      await recordConsents("enquiry", r.record.id, [
        { purpose: "whatsapp", action: on ? "given" : "withdrawn", channel: "me", noticeVersion: PRIVACY_NOTICE_VERSION },
      ]);
      await record(actor, "update", "enquiry", r.record.id, `WhatsApp updates turned ${on ? "on" : "off"} by the person on their own page`, PERSON);
      changed++;
    }
    return changed;
  });
}

/** Correct one's name and/or phone on every record (the phone as the enquiry form reads it: 10 digits). */
export async function correctMyDetails(actor: Actor, access: MeAccess, input: unknown): Promise<void> {
  const { name, phone } = parseInput(meCorrectionSchema, input);
  const digits = phone === undefined ? undefined : indianPhoneDigits(phone);
  if (phone !== undefined && !digits) throw invalid({ phone: PHONE_MESSAGE });
  const { records } = await mine(actor, access);
  await inTransaction(async () => {
    for (const r of records) {
      await correctPersonDetails(r.type, r.record.id, { name, phone: digits ?? undefined, digits: digits ?? undefined });
      const what = [name !== undefined ? "name" : null, phone !== undefined ? "phone" : null].filter(Boolean).join(" and ");
      await insertTimelineEntry(r.type, r.record.id, {
        ...PERSON,
        kind: "privacy",
        fromValue: null,
        toValue: "corrected",
        text: `The person corrected their ${what} on their own page`,
      });
      await record(actor, "update", r.type, r.record.id, `Corrected by the person on their own page: ${what}`, PERSON);
    }
  });
}

/** Erase everything about the person (every record with their e-mail), confirmed by a ticked box. */
export async function eraseMe(actor: Actor, access: MeAccess, input: Record<string, unknown>): Promise<ErasureResult> {
  if (!isTrueFlag(input.confirm)) throw invalid({ confirm: ERASE_CONFIRM_MESSAGE });
  const { email, records } = await mine(actor, access);
  return eraseOwnRecords(actor, records, email);
}

// ---------------------------------------------------------------- downloads

/**
 * The ids of the person's enquiries (not held ones): what their fees, invoices and receipts on /me may show
 * (app/services/fee-me.server.ts). Throws like every other action when the link is invalid or expired.
 */
export async function myEnquiryIds(actor: Pick<Actor, "ip">, access: MeAccess): Promise<string[]> {
  const { records } = await mine(actor, access);
  return records.filter((r) => r.type === "enquiry" && r.state !== "held").map((r) => r.record.id);
}

/** One batch's calendar file, for a batch of one of the person's enquiries. */
export async function myBatchCalendar(actor: Pick<Actor, "ip">, access: MeAccess, enquiryId: string): Promise<CalendarFile | null> {
  const { records } = await mine(actor, access);
  const enquiry = records.find((r) => r.type === "enquiry" && r.record.id === enquiryId);
  // Only a batch the person is enrolled in goes in their calendar (not one they wait for or declined).
  const scheduleId = enquiry?.type === "enquiry" && enquiry.record.status === "enrolled" ? enquiry.record.scheduleId : null;
  const batch = scheduleId ? await getSchedule(scheduleId) : null;
  return batch ? batchCalendar(batch) : null;
}

async function rowsAbout(type: TimelineSubject, ids: string[]) {
  const [timeline, outbox, waitlist] = await Promise.all([
    Promise.all(ids.map(async (id) => ({ recordId: id, lines: (await listTimeline(type, id)).reverse() }))),
    outboxAbout(type, ids),
    type === "enquiry" ? waitlistRowsOf(ids) : { entries: [], offers: [] },
  ]);
  return { timeline, outbox, waitlist: waitlist.entries, offers: waitlist.offers };
}

/**
 * Everything about the person, as JSON: every row of theirs (enquiries, contact messages, consents, timeline lines
 * and notes, waitlist places and offers, the e-mails sent about them) and their attachments listed with sizes.
 * Staff's addresses on staff alerts are left out: they are not the person's data.
 */
export async function exportMyData(actor: Pick<Actor, "ip">, access: MeAccess): Promise<Record<string, unknown>> {
  const { email, records } = await mine(actor, access);
  const enquiryRecords = records.filter((r) => r.type === "enquiry");
  const messageRecords = records.filter((r) => r.type === "contact_query");
  const enquiryIds = enquiryRecords.map((r) => r.record.id);
  const messageIds = messageRecords.map((r) => r.record.id);
  const [enquiryConsents, messageConsents, aboutEnquiries, aboutMessages] = await Promise.all([
    consentsOf("enquiry", enquiryIds),
    consentsOf("contact_query", messageIds),
    rowsAbout("enquiry", enquiryIds),
    rowsAbout("contact_query", messageIds),
  ]);
  const attachment = async (stored: string) => {
    const key = attachmentKey(stored);
    const file = key ? await fileStore().get(key) : null;
    file?.body.destroy();
    return { name: attachmentDisplayName(stored), bytes: file?.size ?? null };
  };
  // A recipient list's entries parsed and compared whole: "min@x.in" is not in "admin@x.in" (a staff alert about their enquiry).
  const toThem = (recipient: string) =>
    recipient.split(",").some((entry) => (parseMailbox(entry.trim())?.address ?? entry.trim()).toLowerCase() === email.toLowerCase());
  const mineOnly = <T extends { recipient: string; kind: string }>(rows: T[]) =>
    rows.map((row) => ({
      ...row,
      recipient: row.kind === "email" && toThem(row.recipient) ? row.recipient : "(the institute's staff or systems)",
    }));
  return personalCopy({
    exportedAt: new Date().toISOString(),
    email,
    enquiries: await Promise.all(
      enquiryRecords.map(async (r) => ({
        // The reference they were given (and staff find it by), in place of the database's id.
        reference: enquiryReference(r.record.id),
        ...r.record,
        state: r.state || "active",
        attachments: await Promise.all((r.type === "enquiry" ? r.record.filePaths : []).map(attachment)),
        consents: enquiryConsents.get(r.record.id) ?? [],
        timeline: aboutEnquiries.timeline.find((t) => t.recordId === r.record.id)?.lines ?? [],
      })),
    ),
    contactMessages: messageRecords.map((r) => ({
      ...r.record,
      state: r.state || "active",
      consents: messageConsents.get(r.record.id) ?? [],
      timeline: aboutMessages.timeline.find((t) => t.recordId === r.record.id)?.lines ?? [],
    })),
    waitlistPlaces: aboutEnquiries.waitlist,
    waitlistOffers: aboutEnquiries.offers,
    emails: mineOnly([...aboutEnquiries.outbox, ...aboutMessages.outbox]),
    linkExpiry: `Links to this page work for ${env().ME_LINK_DAYS} days from the e-mail that carried them.`,
  }) as Record<string, unknown>;
}

/** Keys that are the database's bookkeeping, not the person's data: row ids, links between rows, edit counters. */
const BOOKKEEPING = /^(id|version|rowVersion|.*Id|.*Ids|filePaths|.*Hash|token.*)$/;
/** A time as the database keeps it (UTC, "…T…Z" or with an offset). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The person's copy as they read it (issue 37.10): times in Hyderabad (ISO 8601 with +05:30), and none of the
 * database's ids, references between rows or version counters, which mean nothing to them.
 */
export function personalCopy(value: unknown): unknown {
  if (value instanceof Date) return siteIsoTime(value);
  if (typeof value === "string") return INSTANT.test(value) ? (siteIsoTime(value) ?? value) : value;
  if (Array.isArray(value)) return value.map(personalCopy);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !BOOKKEEPING.test(key))
        .map(([key, v]) => [key, personalCopy(v)]),
    );
  return value;
}
