import type { Selectable } from "kysely";
import { db } from "~db/client.server";
import type { ConsentsTable } from "~db/schema";
import { newTimeOrderedId, nowIso } from "~/util/ids";
import type { ConsentAction, ConsentChannel, ConsentPurpose, TimelineSubject } from "~/schemas/values";

/**
 * The consents table (migration 0031): every consent given or withdrawn, with when, where (channel) and the
 * privacy notice version, by record id only. Rows outlive an erasure: they hold nothing that names the person.
 */
export type Consent = {
  id: string;
  purpose: ConsentPurpose;
  action: ConsentAction;
  channel: ConsentChannel;
  noticeVersion: string;
  at: string;
};

export type ConsentInput = Omit<Consent, "id" | "at"> & { at?: string };

const toConsent = ({ subjectType: _t, subjectId: _s, ...row }: Selectable<ConsentsTable>): Consent => ({
  ...row,
  purpose: row.purpose as ConsentPurpose,
  action: row.action as ConsentAction,
  channel: row.channel as ConsentChannel,
});

export async function insertConsents(subjectType: TimelineSubject, subjectId: string, inputs: ConsentInput[]): Promise<Consent[]> {
  if (!inputs.length) return [];
  const rows = inputs.map((c) => ({
    id: newTimeOrderedId(),
    subjectType,
    subjectId,
    purpose: c.purpose,
    action: c.action,
    channel: c.channel,
    noticeVersion: c.noticeVersion,
    at: c.at ?? nowIso(),
  }));
  await db().insertInto("consents").values(rows).execute();
  return rows.map(toConsent);
}

/** Each record's consents, oldest first. */
export async function consentsOf(subjectType: TimelineSubject, ids: string[]): Promise<Map<string, Consent[]>> {
  const out = new Map<string, Consent[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await db()
    .selectFrom("consents")
    .selectAll()
    .where("subjectType", "=", subjectType)
    .where("subjectId", "in", ids)
    .orderBy("at")
    .orderBy("id")
    .execute();
  for (const row of rows) out.get(row.subjectId)?.push(toConsent(row));
  return out;
}

/** A deleted record's consents go with it (an erased one keeps them: they name nobody). */
export async function deleteConsentsOf(subjectType: TimelineSubject, id: string): Promise<void> {
  await db().deleteFrom("consents").where("subjectType", "=", subjectType).where("subjectId", "=", id).execute();
}
