import { db } from "~db/client.server";
import { newId, nowIso } from "~/util/ids";
import type { TimelineSubject } from "~/schemas/values";

/**
 * The privacy_links table (migration 0031): a link mailed to a visitor (kind "me": their own page) or a guardian
 * (kind "guardian": the consent page). Only the SHA-256 of a link's token is kept; the token is an HMAC of the
 * row's id (app/infra/privacy-tokens.server.ts), printed only in the e-mail, which is rendered when it is sent.
 */
export type PrivacyLinkKind = "me" | "guardian";
export type PrivacyLink = {
  id: string;
  kind: PrivacyLinkKind;
  subjectType: TimelineSubject;
  subjectId: string;
  createdAt: string;
  expiresAt: string;
  /** A /me link: the SHA-256 of the address it was mailed to (it opens that address's records only). */
  addressHash: string | null;
};

export async function insertPrivacyLink(
  link: Omit<PrivacyLink, "id" | "createdAt" | "addressHash"> & { id?: string; tokenHash: (id: string) => string; addressHash?: string },
): Promise<PrivacyLink> {
  const id = link.id ?? newId();
  const row = {
    id,
    kind: link.kind,
    tokenHash: link.tokenHash(id),
    subjectType: link.subjectType,
    subjectId: link.subjectId,
    createdAt: nowIso(),
    expiresAt: link.expiresAt,
    addressHash: link.addressHash ?? null,
  };
  await db().insertInto("privacy_links").values(row).execute();
  const { tokenHash: _hash, ...out } = row;
  return out;
}

export async function findPrivacyLink(tokenHash: string): Promise<PrivacyLink | null> {
  const row = await db()
    .selectFrom("privacy_links")
    .select(["id", "kind", "subjectType", "subjectId", "createdAt", "expiresAt", "addressHash"])
    .where("tokenHash", "=", tokenHash)
    .executeTakeFirst();
  return row ? { ...row, kind: row.kind as PrivacyLinkKind, subjectType: row.subjectType as TimelineSubject } : null;
}

export async function privacyLinkById(id: string): Promise<PrivacyLink | null> {
  const row = await db()
    .selectFrom("privacy_links")
    .select(["id", "kind", "subjectType", "subjectId", "createdAt", "expiresAt", "addressHash"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { ...row, kind: row.kind as PrivacyLinkKind, subjectType: row.subjectType as TimelineSubject } : null;
}

/** The newest link of a kind for a record (the guardian e-mail prints the one made with the submission). */
export async function latestPrivacyLink(kind: PrivacyLinkKind, subjectType: TimelineSubject, subjectId: string): Promise<PrivacyLink | null> {
  const row = await db()
    .selectFrom("privacy_links")
    .select(["id", "kind", "subjectType", "subjectId", "createdAt", "expiresAt", "addressHash"])
    .where("kind", "=", kind)
    .where("subjectType", "=", subjectType)
    .where("subjectId", "=", subjectId)
    .orderBy("createdAt", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, kind: row.kind as PrivacyLinkKind, subjectType: row.subjectType as TimelineSubject } : null;
}

/** Every link to these records stops working (an erasure; a guardian's answer ends the guardian link; a changed e-mail ends /me links). */
export async function deletePrivacyLinks(subjectType: TimelineSubject, ids: string[], kind?: PrivacyLinkKind): Promise<void> {
  if (!ids.length) return;
  let q = db().deleteFrom("privacy_links").where("subjectType", "=", subjectType).where("subjectId", "in", ids);
  if (kind) q = q.where("kind", "=", kind);
  await q.execute();
}

export async function deleteExpiredPrivacyLinks(now: string): Promise<number> {
  const r = await db().deleteFrom("privacy_links").where("expiresAt", "<", now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
