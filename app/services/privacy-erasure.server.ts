import { eraseFeeDataOf } from "./fee-privacy.server";
import { inTransaction } from "~db/client.server";
import { byArrival } from "~/util/arrival-order";
import { rateLimitKeysOfAddress } from "~/infra/rate-limit.server";
import { deleteAttachments } from "~/infra/uploads.server";
import { unlinkDuplicates } from "~/models/enquiry.server";
import {
  auditEntriesAbout,
  deleteOutboxRows,
  deleteRateLimitKeys,
  emptySentOutboxRow,
  erasureSummariesSince,
  eraseRecordRow,
  flushErasedPages,
  outboxRowsAbout,
  outboxRowsTo,
  phoneSharedWithOthers,
  privacyRecord,
  recordsOfEmail,
  updateAuditSummary,
  type OutboxPersonRow,
  type PrivacyRecord,
} from "~/models/people.server";
import { deletePrivacyLinks } from "~/models/privacy-links.server";
import { returnSeat } from "~/models/schedule.server";
import { insertTimelineEntry, rewriteTimelineLine, timelineLinesMentioning, timelineLinesOf, type TimelineLine } from "~/models/timeline.server";
import { closeOffer, deleteWaitlistOfEnquiry, openOfferOfEnquiry } from "~/models/waitlist.server";
import { indianPhoneDigits } from "~/schemas/enquiry";
import { eraseRequestSchema } from "~/schemas/privacy-requests";
import type { TimelineSubject } from "~/schemas/values";
import { emailMention, phoneMention, replaceAnyContact, replaceMentions } from "~/util/contact-mentions";
import { parseMailbox } from "~/util/email-address";
import { nowIso } from "~/util/ids";
import type { Actor, StaffActor } from "./actor";
import { record } from "./audit.server";
import { parseInput } from "./validation";
import { offerFreedSeats, WAITLIST_ACTOR } from "./waitlist.server";

/**
 * Erasure (DPDP Act): a person's records keep only what the dashboard counts (status, course, mode, batch, dates,
 * campaign tags and source label) and lose everything that identifies them, in one transaction:
 *
 * - the enquiry or contact query row itself (name, e-mail, phone, messages, attachments' names, guardian);
 * - their place on a waitlist (an open offer is withdrawn and its seat offered on; an enrolment keeps its seat);
 * - possible-duplicate links, the links mailed to them (/me, guardian consent);
 * - every timeline line of their records, every audit entry about their records or their messages, and their
 *   outbox messages (unsent ones deleted, sent ones emptied, their address taken out of the recipients, the rest
 *   of the recipients kept): all of these are found by the records' ids and scrubbed whole;
 * - with a verified address (ErasureReach), in anyone else's rows only the exact whole-token occurrences of that
 *   address and of the person's own phone number (found by key: app/util/contact-mentions.ts), and the rate-limit
 *   counts keyed by the address;
 *
 * then, after the commit, their attachment files on disk, and on SQLite the write-ahead log is checkpointed so no
 * old copy of a page survives in it (the file itself zeroes deleted content: secure_delete). Each record is erased
 * once (a conditional UPDATE), however many requests or instances' retention jobs reach it; one audit entry records
 * the erasure with record ids and counts, never the identifiers.
 *
 * Nothing is ever found by searching for a piece of text: a review found that a minor's record whose e-mail was a
 * piece of the admin's address, whose phone was another lead's and whose name was common words, refused by its
 * "guardian", rewrote the audit line "Sign-in with admin@… failed" and another lead's note.
 */

export const ERASED = "[erased]";

/**
 * How far an erasure reaches beyond the rows the person's records created:
 * - "own-rows": nowhere. A minor's record a guardian refused (or never answered), the retention job's old records:
 *   nobody showed the address or number on them to be the sender's, so other people's rows are not touched.
 * - { verifiedEmail }: the person showed this address is theirs (they opened a link mailed to it, or staff checked
 *   who asked), so its exact occurrences go from other people's rows too. `phones`: their phone numbers as well (when
 *   no other person's record has the same number), only where staff checked the number is the person's (they call
 *   it back before erasing on request): a number typed on an enquiry proves nothing, and anyone could type one that
 *   appears only in a note on someone else's enquiry, open their own link and erase it from that note.
 */
export type ErasureReach = "own-rows" | { verifiedEmail: string; phones: boolean };

type Terms = { emails: string[]; names: string[] };

/** The identifiers to remove from the person's own lines: e-mails, names and their parts (anything phone-shaped goes anyway). */
function identifiersOf(records: PrivacyRecord[]): Terms {
  const emails = new Set<string>();
  const names = new Set<string>();
  for (const { type, record: r } of records) {
    for (const e of [r.email, r.guardianEmail]) if (e) emails.add(e.toLowerCase());
    for (const name of [type === "enquiry" ? r.fullName : r.name, r.guardianName]) {
      if (!name?.trim()) continue;
      names.add(name.trim());
      for (const part of name.trim().split(/[\s.,]+/u)) if ([...part].length >= 3) names.add(part);
    }
  }
  return { emails: [...emails], names: [...names].sort((a, b) => b.length - a.length) };
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** For the person's own lines only: every identifier of theirs, and anything shaped like an e-mail or a phone number. */
function ownLineScrubber(terms: Terms) {
  const words = terms.names.map((n) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(n)}(?![\\p{L}\\p{N}])`, "giu"));
  return (text: string): string => {
    let out = replaceAnyContact(text, ERASED);
    for (const re of words) out = out.replace(re, ERASED);
    return out;
  };
}

/** A recipient list with these addresses taken out (each entry parsed, compared whole); the others stay as they were. */
function withoutAddresses(recipient: string, addresses: Set<string>): string {
  const entries = recipient.split(",").map((entry) => entry.trim());
  const kept = entries.map((entry) => (addresses.has((parseMailbox(entry)?.address ?? entry).toLowerCase()) ? "(erased)" : entry));
  return kept.join(", ");
}

/** An enquiry leaving every waitlist: an open offer is withdrawn (its seat goes to the next one); an enrolment keeps its seat. */
async function leaveWaitlist(enquiryId: string): Promise<void> {
  const offer = await openOfferOfEnquiry(enquiryId);
  let freed: string | null = null;
  if (offer && (await closeOffer(offer.id, "withdrawn"))) {
    // Switches the public pages at once (contentChanged "at-once"): no page from before the erasure is served again.
    await returnSeat(offer.scheduleId, WAITLIST_ACTOR.user.name);
    freed = offer.scheduleId;
  }
  await deleteWaitlistOfEnquiry(enquiryId);
  if (freed) await offerFreedSeats(freed);
}

export type ErasureResult = { enquiries: string[]; contactQueries: string[]; files: number };

/** Unsent messages go; sent ones stay on the Outbox screen emptied, with `subject` as given and these addresses out of the recipients. */
async function scrubMessages(rows: OutboxPersonRow[], addresses: Set<string>, subject: (text: string) => string): Promise<void> {
  await deleteOutboxRows(rows.filter((r) => r.status !== "sent").map((r) => r.id));
  for (const row of rows.filter((r) => r.status === "sent")) {
    await emptySentOutboxRow(row.id, { subject: subject(row.subject), recipient: withoutAddresses(row.recipient, addresses) });
  }
}

async function rewriteLine(line: TimelineLine, scrub: (text: string) => string): Promise<void> {
  const next = {
    text: line.text === null ? null : scrub(line.text),
    fromValue: line.fromValue === null ? null : scrub(line.fromValue),
    toValue: line.toValue === null ? null : scrub(line.toValue),
  };
  if (next.text !== line.text || next.fromValue !== line.fromValue || next.toValue !== line.toValue) await rewriteTimelineLine(line.id, next);
}

/**
 * Beyond the person's records, for a verified address: exact whole-token occurrences of the address (and of their
 * phone numbers no one else's record has) in other records' lines, messages sent to exactly that address, and the
 * counts keyed by it. Audit entries about other records are never rewritten.
 */
async function eraseMentionsElsewhere(reach: Exclude<ErasureReach, "own-rows">, erased: PrivacyRecord[], handledMessages: Set<string>): Promise<void> {
  const email = reach.verifiedEmail.trim().toLowerCase();
  const phones: string[] = [];
  for (const r of reach.phones ? erased : []) {
    if (r.record.email.toLowerCase() !== email) continue;
    const digits = r.record.phone ? indianPhoneDigits(r.record.phone) : null;
    if (digits && !phones.includes(digits) && !(await phoneSharedWithOthers(digits, [email]))) phones.push(digits);
  }
  const own = new Set(erased.map((r) => `${r.type}:${r.record.id}`));
  const who = { emails: [email], phones };
  for (const line of await timelineLinesMentioning([emailMention(email), ...phones.map(phoneMention)])) {
    if (own.has(`${line.subjectType}:${line.subjectId}`)) continue;
    await rewriteLine(line, (text) => replaceMentions(text, who, ERASED));
  }
  const toThem = (await outboxRowsTo([email])).filter((row) => !handledMessages.has(row.id));
  await scrubMessages(toThem, new Set([email]), (subject) => replaceMentions(subject, who, ERASED));
  const keys = rateLimitKeysOfAddress(email);
  await deleteRateLimitKeys(keys.exact, keys.prefixes);
}

/**
 * Erases `records` inside the caller's transaction (or its own). Returns what this call erased (a record another
 * request or instance erased first is skipped) and the attachment files to delete once it has committed.
 */
async function eraseWithin(
  records: PrivacyRecord[],
  why: string,
  who: { userId: string | null; userName: string },
  reach: ErasureReach,
): Promise<{ result: ErasureResult; files: string[] }> {
  const at = nowIso();
  const erased: PrivacyRecord[] = [];
  const files: string[] = [];
  for (const r of records) {
    if (!(await eraseRecordRow(r.type, r.record.id, at))) continue;
    erased.push(r);
    if (r.type === "enquiry") {
      files.push(...r.record.filePaths);
      await leaveWaitlist(r.record.id);
      await unlinkDuplicates(r.record.id);
    }
    await deletePrivacyLinks(r.type, [r.record.id]);
  }
  // Fees (issue 38): invoices and payments keep what tax law asks; the rest goes (app/services/fee-privacy.server.ts).
  await eraseFeeDataOf(erased.filter((r) => r.type === "enquiry").map((r) => r.record.id));
  // The rows their records created, found by the records' ids, lose every identifier of theirs.
  const terms = identifiersOf(erased);
  const own = ownLineScrubber(terms);
  const addresses = new Set(terms.emails);
  const handledMessages = new Set<string>();
  for (const type of ["enquiry", "contact_query"] as TimelineSubject[]) {
    const ids = erased.filter((r) => r.type === type).map((r) => r.record.id);
    if (!ids.length) continue;
    for (const line of await timelineLinesOf(type, ids)) await rewriteLine(line, own);
    const messages = await outboxRowsAbout(type, ids);
    for (const entry of await auditEntriesAbout(
      type,
      ids,
      messages.map((m) => m.id),
    )) {
      const summary = own(entry.text);
      if (summary !== entry.text) await updateAuditSummary(entry.id, summary);
    }
    await scrubMessages(messages, addresses, own);
    messages.forEach((m) => handledMessages.add(m.id));
    for (const id of ids)
      await insertTimelineEntry(type, id, { ...who, kind: "privacy", fromValue: null, toValue: "erased", text: `Personal data erased: ${why}` });
  }
  if (reach !== "own-rows" && erased.length) await eraseMentionsElsewhere(reach, erased, handledMessages);
  const result: ErasureResult = {
    enquiries: erased.filter((r) => r.type === "enquiry").map((r) => r.record.id),
    contactQueries: erased.filter((r) => r.type === "contact_query").map((r) => r.record.id),
    files: files.length,
  };
  return { result, files };
}

export function erasureSummary(result: ErasureResult, why: string): string {
  const list = (ids: string[], one: string, many: string) => (ids.length ? `${ids.length} ${ids.length === 1 ? one : many} (${ids.join(", ")})` : "");
  const parts = [list(result.enquiries, "enquiry", "enquiries"), list(result.contactQueries, "contact query", "contact queries")].filter(Boolean);
  return `Erased ${parts.join(" and ") || "nothing"}${result.files ? `, ${result.files} file(s)` : ""}: ${why}`;
}

/**
 * Erases records and audits it: one transaction, then the files. `reach`: how far beyond the records' own rows
 * (ErasureReach). `audit`: false when the caller writes its own summary line (the retention job writes one per
 * run). Returns what was erased.
 */
export async function eraseRecords(
  actor: Actor,
  records: PrivacyRecord[],
  why: string,
  opts: { reach: ErasureReach; who?: { userId: string | null; userName: string }; audit?: boolean },
): Promise<ErasureResult> {
  const who = opts.who ?? { userId: actor.user?.id ?? null, userName: actor.user?.name ?? "" };
  // Oldest first: every writer of several enquiries takes the dashboard's running totals (migration 0170, one row per
  // day) in the order of their days, so two of them never wait for each other's rows in opposite orders (a deadlock).
  const ordered = [...records].sort((a, b) => byArrival(a.record, b.record));
  const { result, files } = await inTransaction(async () => {
    const done = await eraseWithin(ordered, why, who, opts.reach);
    if (opts.audit !== false && (done.result.enquiries.length || done.result.contactQueries.length))
      await record(actor, "erase", "person", null, erasureSummary(done.result, why), who);
    return done;
  });
  if (files.length) await deleteAttachments(files).catch((error) => console.error("Removing an erased enquiry's files failed:", error));
  if (result.enquiries.length || result.contactQueries.length)
    await flushErasedPages().catch((error) => console.error("Checkpoint after an erasure failed:", error));
  return result;
}

/** The words every erasure on the person's own request carries in its audit entry (a re-applied one reads them). */
const ON_REQUEST = "on the person's request";

/**
 * Staff erase a person on their request (the screen /admin/privacy and POST /api/people/erase): every record
 * with this e-mail, as the sender or as the guardian named for a minor. Staff check who is asking before they
 * erase (docs/privacy.md), so the address counts as verified.
 */
export async function erasePerson(actor: StaffActor, input: unknown): Promise<ErasureResult> {
  const { email } = parseInput(eraseRequestSchema, input);
  const records = await recordsOfEmail(email, { asGuardian: true });
  if (!records.length) return { enquiries: [], contactQueries: [], files: 0 };
  return eraseRecords(actor, records, `${ON_REQUEST}, by ${actor.user.name}`, { reach: { verifiedEmail: email, phones: true } });
}

/** The person's own page erases what its link's address holds: that address is verified by the link itself. */
export async function eraseOwnRecords(actor: Actor, records: PrivacyRecord[], verifiedEmail: string): Promise<ErasureResult> {
  return eraseRecords(actor, records, `${ON_REQUEST} from their own page`, {
    reach: { verifiedEmail, phones: false },
    who: { userId: null, userName: "The person (own page)" },
  });
}

/** What a held record shows editors before a guardian consents (they see no held record anywhere else). */
export const HELD_NAME = "Someone under 18";
export const HELD_WHAT = "hidden until a parent or guardian consents";

/**
 * What staff see before erasing: the records the address has (sender or guardian). A minor's record waiting for a
 * guardian shows an editor neither the name nor the course or subject: only admins see them before consent.
 */
export async function findPerson(email: string, actor: StaffActor): Promise<PrivacyRecord[]> {
  const parsed = eraseRequestSchema.safeParse({ email });
  const records = parsed.success ? await recordsOfEmail(parsed.data.email, { asGuardian: true }) : [];
  if (actor.user.role === "admin") return records;
  return records.map((r): PrivacyRecord => {
    if (r.state !== "held") return r;
    return r.type === "enquiry"
      ? { ...r, record: { ...r.record, fullName: HELD_NAME, preferredCourse: HELD_WHAT, message: "" } }
      : { ...r, record: { ...r.record, name: HELD_NAME, subject: HELD_WHAT, message: "" } };
  });
}

const IDS_AFTER = (word: RegExp) => new RegExp(`\\d+ ${word.source} \\(([^)]*)\\)`, "g");
const ENQUIRY_IDS = IDS_AFTER(/enquir(?:y|ies)/);
const QUERY_IDS = IDS_AFTER(/contact quer(?:y|ies)/);

/** Records erased since a moment; `onRequest`: those erased on the person's own request (their address was verified). */
export type ErasedIds = { enquiries: string[]; contactQueries: string[]; onRequest: string[] };

/**
 * Restoring a backup brings back what was erased after it was taken, and the audit entries that recorded those
 * erasures too. So, before restoring, list the records erased since the backup (the erasure entries on request
 * name their record ids; the retention job erases its own again at its next run) ...
 */
export async function erasedSince(since: string): Promise<ErasedIds> {
  const enquiries = new Set<string>();
  const queries = new Set<string>();
  const onRequest = new Set<string>();
  for (const summary of await erasureSummariesSince(since)) {
    const requested = summary.includes(ON_REQUEST);
    const note = (set: Set<string>, list: string) =>
      list.split(",").forEach((raw) => {
        const id = raw.trim();
        set.add(id);
        if (requested) onRequest.add(id);
      });
    for (const m of summary.matchAll(ENQUIRY_IDS)) note(enquiries, m[1]);
    for (const m of summary.matchAll(QUERY_IDS)) note(queries, m[1]);
  }
  return { enquiries: [...enquiries], contactQueries: [...queries], onRequest: [...onRequest] };
}

/**
 * ... and after restoring, erase them again (audited like any erasure), each as far as the first time reached: a
 * record erased on request with its own address as verified. Returns what it erased this time.
 */
export async function eraseAgain(ids: ErasedIds): Promise<ErasureResult> {
  const records = (
    await Promise.all([...ids.enquiries.map((id) => privacyRecord("enquiry", id)), ...ids.contactQueries.map((id) => privacyRecord("contact_query", id))])
  ).filter((r): r is PrivacyRecord => r !== null);
  const total: ErasureResult = { enquiries: [], contactQueries: [], files: 0 };
  const groups = new Map<string, PrivacyRecord[]>();
  for (const r of records) {
    const key = ids.onRequest.includes(r.record.id) && r.record.email ? r.record.email.toLowerCase() : "";
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const [email, group] of groups) {
    const done = await eraseRecords({ user: null, ip: "", requestId: "reapply" }, group, "erased again after a backup was restored", {
      reach: email ? { verifiedEmail: email, phones: false } : "own-rows",
      who: { userId: null, userName: "Erasure re-applied after a restore" },
    });
    total.enquiries.push(...done.enquiries);
    total.contactQueries.push(...done.contactQueries);
    total.files += done.files;
  }
  return total;
}
