import { consentsOf, deleteConsentsOf, type Consent } from "~/models/consents.server";
import { deletePrivacyLinks } from "~/models/privacy-links.server";
import type { TimelineEntry } from "~/models/timeline.server";
import { CONSENT_CHANNEL_LABELS, CONSENT_PURPOSE_LABELS, type TimelineSubject } from "~/schemas/values";

/** Privacy rows that belong to a record: its consents (the API's `consents`) and the links mailed about it. */

/** Each record with its consent rows, oldest first. */
export async function withConsents<T extends { id: string }>(subjectType: TimelineSubject, rows: T[]): Promise<(T & { consents: Consent[] })[]> {
  const consents = await consentsOf(
    subjectType,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, consents: consents.get(r.id) ?? [] }));
}

/** A record deleted by staff: its consents and links go with it (inside the deleting transaction). */
export async function forgetPrivacyOf(subjectType: TimelineSubject, id: string): Promise<void> {
  await deleteConsentsOf(subjectType, id);
  await deletePrivacyLinks(subjectType, [id]);
}

function consentLine(c: Consent): string {
  const where = CONSENT_CHANNEL_LABELS[c.channel];
  if (c.purpose === "notice") return `Privacy notice version ${c.noticeVersion} shown with the ${where}`;
  return `${CONSENT_PURPOSE_LABELS[c.purpose]}: ${c.action === "given" ? "consent given" : "consent withdrawn"} (${where}, notice ${c.noticeVersion})`;
}

/**
 * A record's timeline with its consent rows as lines of kind "consent" (DPDP Act: each consent and withdrawal shows
 * on the timeline), newest first. A consent made with the submission is as old as the record, so it sits below
 * the line that says it was received.
 */
export async function timelineWithConsents(subjectType: TimelineSubject, id: string, entries: TimelineEntry[]): Promise<TimelineEntry[]> {
  const consents = (await consentsOf(subjectType, [id])).get(id) ?? [];
  const lines: TimelineEntry[] = consents.map((c) => ({
    id: c.id,
    at: c.at,
    userId: null,
    userName: c.channel === "guardian-link" ? "Parent or guardian" : c.channel === "me" ? "The person (own page)" : "",
    kind: "consent",
    fromValue: c.purpose,
    toValue: c.action,
    text: consentLine(c),
  }));
  // Stable: a stored line and a consent at the same instant keep the stored one first (newer).
  return [...entries, ...lines]
    .map((line, order) => ({ line, order }))
    .sort((a, b) => (a.line.at === b.line.at ? a.order - b.order : a.line.at < b.line.at ? 1 : -1))
    .map((x) => x.line);
}
