import { db, dialect } from "~db/client.server";
import { nowIso } from "~/util/ids";

/**
 * The keys of staff form posts already applied. Each form drawn on a staff screen carries a fresh key; the
 * service claims it in the transaction of the change, so a second post of the same form (a double click, a
 * refresh, a resubmit from history) finds it taken and changes nothing, and a change rolled back frees it.
 * True when this post is the first with the key.
 */
export async function claimFormKey(key: string): Promise<boolean> {
  const values = { key, createdAt: nowIso() };
  const insert = db().insertInto("form_submissions").values(values);
  const r = await (dialect() === "mysql" ? insert.ignore() : insert.onConflict((oc) => oc.column("key").doNothing())).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Keys older than `before` cannot be posted again by any open page that matters: the forms have been drawn anew. */
export async function forgetFormKeys(before: string): Promise<number> {
  const r = await db().deleteFrom("form_submissions").where("createdAt", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
