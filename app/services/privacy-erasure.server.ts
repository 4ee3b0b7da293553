import { inTransaction } from "~db/client.server";
import { deleteAttachments } from "~/infra/uploads.server";
import { unlinkDuplicates } from "~/models/enquiry.server";
import {
  auditSummariesToScrub,
  erasureSummariesSince,
  privacyRecord,
  deleteRateLimitsMentioning,
  eraseRecordRow,
  flushErasedPages,
  recordsOfEmail,
  scrubOutbox,
  timelineTextsToScrub,
  updateAuditSummary,
  updateTimelineTexts,
  type PrivacyRecord,
} from "~/models/people.server";
import { deletePrivacyLinks } from "~/models/privacy-links.server";
import { returnSeat } from "~/models/schedule.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import { closeOffer, deleteWaitlistOfEnquiry, openOfferOfEnquiry } from "~/models/waitlist.server";
import { eraseRequestSchema } from "~/schemas/privacy-requests";
import type { TimelineSubject } from "~/schemas/values";
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
 * - every timeline line of theirs, and any note elsewhere that mentions their e-mail or phone, scrubbed;
 * - audit entries about their records, or mentioning their addresses, scrubbed (the entry stays, the identifier goes);
 * - the outbox: unsent messages about them or to them deleted, sent ones emptied and their address replaced;
 * - rate-limit counts keyed by their address;
 *
 * then, after the commit, their attachment files on disk, and on SQLite the write-ahead log is checkpointed so no
 * old copy of a page survives in it (the file itself zeroes deleted content: secure_delete). Each record is erased
 * once (a conditional UPDATE), however many requests or instances' retention jobs reach it; one audit entry records
 * the erasure with record ids and counts, never the identifiers.
 */

export const ERASED = "[erased]";

type Terms = { emails: string[]; phones: string[]; names: string[] };

/** The identifiers to remove from free text: e-mails, phone numbers as people write them, names and their parts. */
function identifiersOf(records: PrivacyRecord[]): Terms {
  const emails = new Set<string>();
  const phones = new Set<string>();
  const names = new Set<string>();
  for (const { type, record: r } of records) {
    for (const e of [r.email, r.guardianEmail]) if (e) emails.add(e.toLowerCase());
    const digits = (r.phone ?? "").replace(/\D/g, "");
    if (r.phone && r.phone.trim().length >= 6) phones.add(r.phone.trim());
    if (digits.length >= 8) {
      const ten = digits.slice(-10);
      for (const form of [
        digits,
        ten,
        `${ten.slice(0, 5)} ${ten.slice(5)}`,
        `${ten.slice(0, 5)}-${ten.slice(5)}`,
        `+91${ten}`,
        `+91 ${ten.slice(0, 5)} ${ten.slice(5)}`,
      ])
        phones.add(form);
    }
    for (const name of [type === "enquiry" ? r.fullName : r.name, r.guardianName]) {
      if (!name?.trim()) continue;
      names.add(name.trim());
      for (const part of name.trim().split(/[\s.,]+/u)) if ([...part].length >= 3) names.add(part);
    }
  }
  return { emails: [...emails], phones: [...phones], names: [...names].sort((a, b) => b.length - a.length) };
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const ANY_EMAIL = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[^\s@<>()[\]"',;:]+/gu;
// A run of digits with spaces or dashes holding 10 or more digits (a phone number; a date has 8).
const ANY_PHONE = /\+?\d[\d\s-]{8,}\d/g;
const phoneShaped = (run: string) => run.replace(/\D/g, "").length >= 10;

/** Replaces every identifier (and, in the person's own lines, anything shaped like an e-mail or a phone number). */
function scrubberFor(terms: Terms) {
  const exact = [...terms.emails, ...terms.phones].map((t) => new RegExp(escapeRe(t), "giu"));
  const words = terms.names.map((n) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(n)}(?![\\p{L}\\p{N}])`, "giu"));
  return (text: string): string => {
    let out = text;
    for (const re of exact) out = out.replace(re, ERASED);
    out = out.replace(ANY_EMAIL, ERASED).replace(ANY_PHONE, (run) => (phoneShaped(run) ? ERASED : run));
    for (const re of words) out = out.replace(re, ERASED);
    return out;
  };
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

/**
 * Erases `records` inside the caller's transaction (or its own). Returns what this call erased (a record another
 * request or instance erased first is skipped) and the attachment files to delete once it has committed.
 */
async function eraseWithin(
  records: PrivacyRecord[],
  why: string,
  who: { userId: string | null; userName: string },
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
  // Their own lines lose every identifier of theirs. Elsewhere (other records' notes, the outbox's addresses, the
  // audit log, rate-limit keys) only a person with nothing left is searched for: the retention job erases one old
  // enquiry of someone whose newer one is still being followed up, and that one's mail and notes stay.
  const own = scrubberFor(identifiersOf(erased));
  const gone: PrivacyRecord[] = [];
  for (const r of erased) if (gone.includes(r) || !(await recordsOfEmail(r.record.email, { asGuardian: true })).length) gone.push(r);
  const goneTerms = identifiersOf(gone);
  const contactTerms = [...goneTerms.emails, ...goneTerms.phones];
  for (const type of ["enquiry", "contact_query"] as TimelineSubject[]) {
    const ids = erased.filter((r) => r.type === type).map((r) => r.record.id);
    if (!ids.length) continue;
    for (const line of await timelineTextsToScrub(type, ids, contactTerms)) {
      // From and to values are statuses, staff names and batch names, unless a change recorded the person's own.
      const next = {
        text: line.text === null ? null : own(line.text),
        fromValue: line.fromValue === null ? null : own(line.fromValue),
        toValue: line.toValue === null ? null : own(line.toValue),
      };
      if (next.text !== line.text || next.fromValue !== line.fromValue || next.toValue !== line.toValue) await updateTimelineTexts(line.id, next);
    }
    for (const entry of await auditSummariesToScrub(type, ids, contactTerms)) {
      const summary = own(entry.text);
      if (summary !== entry.text) await updateAuditSummary(entry.id, summary);
    }
    await scrubOutbox(type, ids, goneTerms.emails, own);
    for (const id of ids)
      await insertTimelineEntry(type, id, { ...who, kind: "privacy", fromValue: null, toValue: "erased", text: `Personal data erased: ${why}` });
  }
  if (goneTerms.emails.length) await deleteRateLimitsMentioning(goneTerms.emails);
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
 * Erases records and audits it: one transaction, then the files. `audit`: false when the caller writes its own
 * summary line (the retention job writes one per run). Returns what was erased.
 */
export async function eraseRecords(
  actor: Actor,
  records: PrivacyRecord[],
  why: string,
  opts: { who?: { userId: string | null; userName: string }; audit?: boolean } = {},
): Promise<ErasureResult> {
  const who = opts.who ?? { userId: actor.user?.id ?? null, userName: actor.user?.name ?? "" };
  const { result, files } = await inTransaction(async () => {
    const done = await eraseWithin(records, why, who);
    if (opts.audit !== false && (done.result.enquiries.length || done.result.contactQueries.length))
      await record(actor, "erase", "person", null, erasureSummary(done.result, why), who);
    return done;
  });
  if (files.length) await deleteAttachments(files).catch((error) => console.error("Removing an erased enquiry's files failed:", error));
  if (result.enquiries.length || result.contactQueries.length)
    await flushErasedPages().catch((error) => console.error("Checkpoint after an erasure failed:", error));
  return result;
}

/**
 * Staff erase a person on their request (the screen /admin/privacy and POST /api/people/erase): every record
 * with this e-mail, as the sender or as the guardian named for a minor.
 */
export async function erasePerson(actor: StaffActor, input: unknown): Promise<ErasureResult> {
  const { email } = parseInput(eraseRequestSchema, input);
  const records = await recordsOfEmail(email, { asGuardian: true });
  if (!records.length) return { enquiries: [], contactQueries: [], files: 0 };
  return eraseRecords(actor, records, `on the person's request, by ${actor.user.name}`);
}

/** What staff see before erasing: how many records the address has (sender or guardian). */
export async function findPerson(email: string): Promise<PrivacyRecord[]> {
  const parsed = eraseRequestSchema.safeParse({ email });
  return parsed.success ? recordsOfEmail(parsed.data.email, { asGuardian: true }) : [];
}

const IDS_AFTER = (word: RegExp) => new RegExp(`\\d+ ${word.source} \\(([^)]*)\\)`, "g");
const ENQUIRY_IDS = IDS_AFTER(/enquir(?:y|ies)/);
const QUERY_IDS = IDS_AFTER(/contact quer(?:y|ies)/);

export type ErasedIds = { enquiries: string[]; contactQueries: string[] };

/**
 * Restoring a backup brings back what was erased after it was taken, and the audit entries that recorded those
 * erasures too. So, before restoring, list the records erased since the backup (the erasure entries on request
 * name their record ids; the retention job erases its own again at its next run) ...
 */
export async function erasedSince(since: string): Promise<ErasedIds> {
  const enquiries = new Set<string>();
  const queries = new Set<string>();
  for (const summary of await erasureSummariesSince(since)) {
    for (const m of summary.matchAll(ENQUIRY_IDS)) m[1].split(",").forEach((id) => enquiries.add(id.trim()));
    for (const m of summary.matchAll(QUERY_IDS)) m[1].split(",").forEach((id) => queries.add(id.trim()));
  }
  return { enquiries: [...enquiries], contactQueries: [...queries] };
}

/** ... and after restoring, erase them again (audited like any erasure). Returns what it erased this time. */
export async function eraseAgain(ids: ErasedIds): Promise<ErasureResult> {
  const records = (
    await Promise.all([...ids.enquiries.map((id) => privacyRecord("enquiry", id)), ...ids.contactQueries.map((id) => privacyRecord("contact_query", id))])
  ).filter((r): r is PrivacyRecord => r !== null);
  if (!records.length) return { enquiries: [], contactQueries: [], files: 0 };
  return eraseRecords({ user: null, ip: "", requestId: "reapply" }, records, "erased again after a backup was restored", {
    who: { userId: null, userName: "Erasure re-applied after a restore" },
  });
}
