import { db } from "~db/client.server";
import { isUniqueViolation } from "~db/errors";

/**
 * Ends one browser session or API token by its id. The entry is kept until `expiresAt` (when the session or
 * token would have stopped working anyway); older entries are removed here, so the table stays small.
 * Signing out twice at once (two tabs, a retried request) is fine: the second finds the entry made.
 */
export async function revokeSession(id: string, expiresAt: Date): Promise<void> {
  const now = new Date().toISOString();
  await db().deleteFrom("revoked_sessions").where("expiresAt", "<", now).execute();
  try {
    await db().insertInto("revoked_sessions").values({ id, expiresAt: expiresAt.toISOString() }).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

export async function isSessionRevoked(id: string): Promise<boolean> {
  const row = await db().selectFrom("revoked_sessions").select("id").where("id", "=", id).executeTakeFirst();
  return Boolean(row);
}
