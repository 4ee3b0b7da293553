import { db } from "~db/client.server";

/**
 * Ends one browser session or API token by its id. The entry is kept until `expiresAt` (when the session or
 * token would have stopped working anyway); older entries are removed here, so the table stays small.
 */
export async function revokeSession(id: string, expiresAt: Date): Promise<void> {
  const now = new Date().toISOString();
  await db().transaction().execute(async (trx) => {
    await trx.deleteFrom("revoked_sessions").where("expiresAt", "<", now).execute();
    const known = await trx.selectFrom("revoked_sessions").select("id").where("id", "=", id).executeTakeFirst();
    if (!known) await trx.insertInto("revoked_sessions").values({ id, expiresAt: expiresAt.toISOString() }).execute();
  });
}

export async function isSessionRevoked(id: string): Promise<boolean> {
  const row = await db().selectFrom("revoked_sessions").select("id").where("id", "=", id).executeTakeFirst();
  return Boolean(row);
}
