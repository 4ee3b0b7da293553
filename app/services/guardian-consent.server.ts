import { inTransaction } from "~db/client.server";
import { PRIVACY_NOTICE_VERSION } from "~/config/privacy-notice";
import { hashPrivacyToken, plausibleToken } from "~/infra/privacy-tokens.server";
import { consumePrivacyAttempt, RATE_LIMIT_MESSAGE } from "~/infra/rate-limit.server";
import { getContactQuery } from "~/models/contact-query.server";
import { getEnquiry } from "~/models/enquiry.server";
import { privacyRecord, releaseHeldRecord, type PrivacyRecord } from "~/models/people.server";
import { findPrivacyLink } from "~/models/privacy-links.server";
import type { Actor } from "./actor";
import { record } from "./audit.server";
import { withDuplicates } from "./enquiry-lists.server";
import { queueContactQueryNotifications, queueEnquiryNotifications } from "./notifications.server";
import { guardianDeadline, recordConsents } from "./privacy-consents.server";
import { formatDateTime } from "~/util/dates";
import { eraseRecords } from "./privacy-erasure.server";
import { enquiryWaitlistStatus } from "./waitlist.server";
import { tooMany } from "./service-error";

/**
 * A minor's enquiry or message waits, held from staff lists, alerts and webhooks, until the parent or guardian they
 * named follows the link mailed to them (app/services/privacy-consents.server.ts made it) and consents. Consenting
 * releases it with one conditional UPDATE (so two clicks or two instances release it once) and sends then what was
 * held back: the staff alert, the acknowledgement and the `*.created` webhooks. Refusing erases it at once; no
 * answer within GUARDIAN_CONSENT_DAYS, and the retention job erases it.
 */

export const GUARDIAN_WAIT_TITLE = "We have asked your parent or guardian";

/** What a minor is told their enquiry waits for (the form's answer and /me, in the same words), and when it is deleted without it. */
export function guardianWaitText(guardianName: string, createdAt: string): string {
  return `We have e-mailed ${guardianName || "your parent or guardian"} to ask for consent. We cannot contact you until they agree; if they do not by ${formatDateTime(guardianDeadline(createdAt))} (Hyderabad time), we delete your enquiry.`;
}

export type GuardianView = {
  state: "open" | "consented" | "refused" | "expired" | "invalid";
  /** This very request gave the answer (a repeated click finds it given). */
  answeredNow?: boolean;
  childName?: string;
  guardianName?: string;
  expiresAt?: string;
  sent?: { kind: "enquiry" | "message"; createdAt: string; course?: string; mode?: string; subject?: string | null; message: string };
};

const GUARDIAN = { userId: null, userName: "Parent or guardian" };

type Found = { link: { id: string; expiresAt: string }; found: PrivacyRecord | null } | null;

async function find(actor: Pick<Actor, "ip">, token: string): Promise<Found> {
  const decision = await consumePrivacyAttempt("me-view", actor.ip);
  if (!decision.ok) throw tooMany(RATE_LIMIT_MESSAGE, decision.retryAfter);
  if (!plausibleToken(token)) return null;
  const link = await findPrivacyLink(hashPrivacyToken(token));
  if (!link || link.kind !== "guardian") return null;
  return { link, found: await privacyRecord(link.subjectType, link.subjectId) };
}

function describe(f: Found): GuardianView {
  if (!f || !f.found) return { state: "invalid" };
  const { found, link } = f;
  const r = found.record;
  const base = {
    childName: found.type === "enquiry" ? found.record.fullName : found.record.name,
    guardianName: r.guardianName ?? "",
    expiresAt: link.expiresAt,
    sent:
      found.type === "enquiry"
        ? { kind: "enquiry" as const, createdAt: r.createdAt, course: found.record.preferredCourse, mode: found.record.preferredMode, message: r.message }
        : { kind: "message" as const, createdAt: r.createdAt, subject: found.record.subject, message: r.message },
  };
  if (found.state !== "held") return { state: "consented", ...base };
  if (Date.parse(link.expiresAt) <= Date.now()) return { state: "expired", ...base };
  return { state: "open", ...base };
}

export async function viewGuardianRequest(actor: Pick<Actor, "ip">, token: string): Promise<GuardianView> {
  return describe(await find(actor, token));
}

/** The guardian's answer: consent releases the record (and what it held back); refusal erases it. */
export async function answerGuardian(actor: Actor, token: string, consent: boolean): Promise<GuardianView> {
  const f = await find(actor, token);
  const view = describe(f);
  if (view.state !== "open" || !f?.found) return view;
  const { type, record: held } = f.found;
  if (!consent) {
    // Nobody showed this record's address or number to be the sender's: only the rows it created are erased.
    await eraseRecords(actor, [f.found], "a parent or guardian refused consent", { reach: "own-rows", who: GUARDIAN });
    return { ...view, state: "refused", answeredNow: true };
  }
  const released = await inTransaction(async () => {
    const at = new Date().toISOString();
    if (!(await releaseHeldRecord(type, held.id, at))) return false;
    await recordConsents(type, held.id, [{ purpose: "guardian", action: "given", channel: "guardian-link", noticeVersion: PRIVACY_NOTICE_VERSION, at }]);
    await record(actor, "update", type, held.id, "A parent or guardian consented: released to staff", GUARDIAN);
    if (type === "enquiry") {
      const enquiry = await getEnquiry(held.id);
      // A minor who joined a full batch's waitlist gets the waitlist's words (and staff the "Waitlist:" subject) now.
      const place = enquiry ? await enquiryWaitlistStatus(enquiry.id) : null;
      const waiting = place?.status === "waiting" ? { position: place.position, courseName: place.courseName, startDate: place.startDate } : null;
      if (enquiry) await queueEnquiryNotifications((await withDuplicates([enquiry]))[0], waiting);
    } else {
      const query = await getContactQuery(held.id);
      if (query) await queueContactQueryNotifications(query);
    }
    return true;
  });
  return { ...view, state: "consented", answeredNow: released };
}
