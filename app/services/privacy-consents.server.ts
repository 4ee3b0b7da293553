import { GUARDIAN_CONSENT_DAYS, PRIVACY_NOTICE_VERSION } from "~/config/privacy-notice";
import { hashPrivacyToken, privacyToken } from "~/infra/privacy-tokens.server";
import { insertConsents, type Consent, type ConsentInput } from "~/models/consents.server";
import { setMarketingConsent } from "~/models/people.server";
import { insertPrivacyLink } from "~/models/privacy-links.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import { noticeVersionShown } from "~/schemas/privacy";
import type { ConsentChannel, TimelineSubject } from "~/schemas/values";
import { queuePrivacyMail } from "./notifications.server";

/**
 * Consent as the DPDP Act asks for it: each submission records the privacy notice version shown and when; marketing
 * (newsletters, offers of other courses, WhatsApp promotions) is a separate, unticked choice, recorded only when
 * given; each consent and each withdrawal is a row with time, channel and notice version (app/models/consents.server.ts)
 * and a line on the record's timeline. A minor's submission is held from staff until a guardian consents.
 */

/** What the privacy fields of a submission (app/schemas/privacy.ts) store on the record. */
export type PrivacyAnswers = {
  marketingConsent: boolean;
  under18: boolean;
  guardianName?: string;
  guardianEmail?: string;
  noticeVersion?: string;
};

/**
 * The columns a new enquiry or contact query gets from its privacy answers: the notice version shown (one we
 * published, else the current one), the marketing choice, and for a minor the guardian and the held state.
 */
export function privacyColumns(values: PrivacyAnswers) {
  return {
    noticeVersion: noticeVersionShown(values.noticeVersion),
    marketingConsent: values.marketingConsent,
    under18: values.under18,
    guardianName: values.under18 ? (values.guardianName ?? null) : null,
    guardianEmail: values.under18 ? (values.guardianEmail ?? null) : null,
    privacyState: values.under18 ? ("held" as const) : ("" as const),
  };
}

/**
 * When a minor's record, still without a guardian's consent, is deleted: the guardian's link expires then, and the
 * retention job (app/services/privacy-retention.server.ts) erases held records older than GUARDIAN_CONSENT_DAYS.
 */
export function guardianDeadline(createdAt: string): string {
  return new Date(Date.parse(createdAt) + GUARDIAN_CONSENT_DAYS * 86_400_000).toISOString();
}

/**
 * Consent rows, inside the caller's transaction. They show on the record's timeline as lines of kind "consent"
 * (merged in when it is read: app/services/privacy-records.server.ts).
 */
export async function recordConsents(subjectType: TimelineSubject, subjectId: string, inputs: ConsentInput[]): Promise<Consent[]> {
  return insertConsents(subjectType, subjectId, inputs);
}

type Submitted = {
  id: string;
  email: string;
  under18: boolean;
  noticeVersion: string;
  marketingConsent: boolean;
  guardianEmail: string | null;
  createdAt: string;
};

/**
 * Inside the submission's transaction, after the record is stored: the notice shown (and marketing, when ticked) as
 * consent rows; for a minor, the guardian's consent link (valid GUARDIAN_CONSENT_DAYS) and its e-mail. Returns true
 * when the record is held: the caller then sends no staff alert, acknowledgement or webhook (they go when the
 * guardian consents, app/services/guardian-consent.server.ts).
 */
export async function recordSubmissionPrivacy(subjectType: TimelineSubject, record: Submitted, channel: ConsentChannel, subjectName: string): Promise<boolean> {
  const version = record.noticeVersion || PRIVACY_NOTICE_VERSION;
  await recordConsents(subjectType, record.id, [
    { purpose: "notice", action: "given", channel, noticeVersion: version, at: record.createdAt },
    ...(record.marketingConsent ? [{ purpose: "marketing" as const, action: "given" as const, channel, noticeVersion: version, at: record.createdAt }] : []),
  ]);
  if (!record.under18 || !record.guardianEmail) return false;
  const expiresAt = guardianDeadline(record.createdAt);
  await insertPrivacyLink({
    kind: "guardian",
    subjectType,
    subjectId: record.id,
    expiresAt,
    tokenHash: (id) => hashPrivacyToken(privacyToken("guardian", id)),
  });
  await insertTimelineEntry(subjectType, record.id, {
    userId: null,
    userName: "",
    kind: "privacy",
    fromValue: null,
    toValue: "held",
    text: `Sent by someone under 18: held until a parent or guardian consents (asked by e-mail; erased after ${GUARDIAN_CONSENT_DAYS} days without consent)`,
  });
  await queuePrivacyMail("guardian", { type: subjectType, id: record.id }, record.guardianEmail, subjectName);
  return true;
}

/** Marketing given or withdrawn for each record (the person's own page acts on all their records at once). */
export async function setMarketing(
  records: { type: TimelineSubject; id: string; marketingConsent: boolean }[],
  on: boolean,
  channel: ConsentChannel,
): Promise<number> {
  let changed = 0;
  for (const r of records) {
    if (r.marketingConsent === on) continue;
    await setMarketingConsent(r.type, r.id, on);
    await recordConsents(r.type, r.id, [{ purpose: "marketing", action: on ? "given" : "withdrawn", channel, noticeVersion: PRIVACY_NOTICE_VERSION }]);
    changed++;
  }
  return changed;
}
