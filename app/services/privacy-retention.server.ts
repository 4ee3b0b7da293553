import { GUARDIAN_CONSENT_DAYS } from "~/config/privacy-notice";
import { env } from "~/env.server";
import { heldSince, idleContactQueries, idleEnquiries, privacyRecord, type PrivacyRecord } from "~/models/people.server";
import { deleteExpiredPrivacyLinks } from "~/models/privacy-links.server";
import type { TimelineSubject } from "~/schemas/values";
import type { Actor } from "./actor";
import { record } from "./audit.server";
import { eraseRecords } from "./privacy-erasure.server";

/**
 * Retention (DPDP Act: erase once the purpose is served). Every instance runs this job hourly (server/app.ts): it
 * erases, as an erasure on request does (app/services/privacy-erasure.server.ts),
 * - enquiries and contact messages RETENTION_MONTHS after their last activity (their last change or timeline line),
 *   enrolled students' enquiries after RETENTION_ENROLLED_MONTHS;
 * - minors' records whose guardian has not consented within GUARDIAN_CONSENT_DAYS;
 * and removes expired privacy links. Each record is erased once whichever instance gets there (a conditional
 * UPDATE): a record another instance erased first is skipped and not counted. A run that erased something writes
 * one audit line with its counts; a run with nothing to do writes none.
 */

export const PRIVACY_JOB_EVERY_MS = 60 * 60_000;
const BATCH = 50;
/** At most this many records per run, so one run never holds the database for long; the next run goes on. */
const MAX_PER_RUN = 5000;

export const RETENTION_ACTOR: Actor = { user: null, ip: "", requestId: "retention" };
const SYSTEM = { userId: null, userName: "Retention job" };

export type RetentionCounts = { enquiries: number; enrolledEnquiries: number; contactQueries: number; heldWithoutConsent: number; links: number };

/** Months before `now`, as an ISO instant (the same day of an earlier month; the 31st falls back to the month's end). */
export function monthsBefore(now: Date, months: number): string {
  const d = new Date(now.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.toISOString();
}

async function eraseAll(type: TimelineSubject, pick: (limit: number) => Promise<string[]>, why: string, budget: { left: number }): Promise<number> {
  let erased = 0;
  const tried = new Set<string>();
  while (budget.left > 0) {
    const ids = (await pick(Math.min(BATCH, budget.left) + tried.size)).filter((id) => !tried.has(id)).slice(0, BATCH);
    if (!ids.length) break;
    ids.forEach((id) => tried.add(id));
    const records = (await Promise.all(ids.map((id) => privacyRecord(type, id)))).filter((r): r is PrivacyRecord => r !== null);
    // Old records and unconsented minors' ones: the rows they created (other records keep their own timelines).
    const done = await eraseRecords(RETENTION_ACTOR, records, why, { reach: "own-rows", who: SYSTEM, audit: false });
    const n = done.enquiries.length + done.contactQueries.length;
    erased += n;
    budget.left -= ids.length;
  }
  return erased;
}

export async function runPrivacyJob(now = new Date()): Promise<RetentionCounts> {
  const e = env();
  const idle = monthsBefore(now, e.RETENTION_MONTHS);
  const idleEnrolled = monthsBefore(now, e.RETENTION_ENROLLED_MONTHS);
  const heldCutoff = new Date(now.getTime() - GUARDIAN_CONSENT_DAYS * 86_400_000).toISOString();
  const budget = { left: MAX_PER_RUN };
  const counts: RetentionCounts = {
    heldWithoutConsent:
      (await eraseAll("enquiry", (limit) => heldSince("enquiry", { cutoff: heldCutoff, limit }), "no parent or guardian consent in time", budget)) +
      (await eraseAll("contact_query", (limit) => heldSince("contact_query", { cutoff: heldCutoff, limit }), "no parent or guardian consent in time", budget)),
    enquiries: await eraseAll(
      "enquiry",
      (limit) => idleEnquiries({ cutoff: idle, limit }, false),
      `retention: no activity for ${e.RETENTION_MONTHS} months`,
      budget,
    ),
    enrolledEnquiries: await eraseAll(
      "enquiry",
      (limit) => idleEnquiries({ cutoff: idleEnrolled, limit }, true),
      `retention: enrolled, no activity for ${e.RETENTION_ENROLLED_MONTHS} months`,
      budget,
    ),
    contactQueries: await eraseAll(
      "contact_query",
      (limit) => idleContactQueries({ cutoff: idle, limit }),
      `retention: no activity for ${e.RETENTION_MONTHS} months`,
      budget,
    ),
    links: await deleteExpiredPrivacyLinks(now.toISOString()),
  };
  const total = counts.enquiries + counts.enrolledEnquiries + counts.contactQueries + counts.heldWithoutConsent;
  if (total > 0) await record(RETENTION_ACTOR, "erase", "person", null, retentionSummary(counts), SYSTEM);
  return counts;
}

export function retentionSummary(c: RetentionCounts): string {
  const e = env();
  return [
    `Retention run erased ${c.enquiries + c.enrolledEnquiries + c.contactQueries + c.heldWithoutConsent} record(s):`,
    `${c.enquiries} enquiries idle for ${e.RETENTION_MONTHS} months,`,
    `${c.enrolledEnquiries} enrolled enquiries idle for ${e.RETENTION_ENROLLED_MONTHS} months,`,
    `${c.contactQueries} contact queries idle for ${e.RETENTION_MONTHS} months,`,
    `${c.heldWithoutConsent} records of under-18s without a guardian's consent in ${GUARDIAN_CONSENT_DAYS} days`,
  ].join(" ");
}
