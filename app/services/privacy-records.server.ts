import { consentsOf, deleteConsentsOf, type Consent } from "~/models/consents.server";
import { deletePrivacyLinks } from "~/models/privacy-links.server";
import type { TimelineSubject } from "~/schemas/values";

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
