import { db } from "~db/client.server";
import { USER_ROLES } from "~/schemas/values";

/**
 * The daily digest's own data (migration 0014): each staff member's switch (users.dailyDigest) and the
 * digests_sent rows, one per person and Hyderabad day. The rules are in app/services/digest.server.ts.
 */

export type DigestRecipient = { id: string; name: string; email: string; role: string };

/** Staff (admins and editors) who get the digest and have none recorded for `day`, oldest account first. */
export async function listDigestRecipientsWithout(day: string): Promise<DigestRecipient[]> {
  return db()
    .selectFrom("users")
    .select(["id", "name", "email", "role"])
    .where("role", "in", [...USER_ROLES])
    .where("dailyDigest", "=", 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom("digests_sent").select("digests_sent.userId").whereRef("digests_sent.userId", "=", "users.id").where("digests_sent.day", "=", day)),
      ),
    )
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
}

/** Records `day`'s digest of a person as done; throws a unique violation (db/errors.ts) when it already is. */
export async function insertDigestSent(row: { userId: string; day: string; outboxId: string | null; createdAt: string }): Promise<void> {
  await db().insertInto("digests_sent").values(row).execute();
}

/** Whether a person's digest for `day` is done (sent, or found empty). */
export async function digestSentOn(userId: string, day: string): Promise<boolean> {
  return Boolean(await db().selectFrom("digests_sent").select("userId").where("userId", "=", userId).where("day", "=", day).executeTakeFirst());
}

/** null for an unknown user. */
export async function getDigestPreference(userId: string): Promise<boolean | null> {
  const row = await db().selectFrom("users").select("dailyDigest").where("id", "=", userId).executeTakeFirst();
  return row ? Boolean(row.dailyDigest) : null;
}

/** False when the user does not exist. */
export async function setDigestPreference(userId: string, on: boolean): Promise<boolean> {
  const r = await db()
    .updateTable("users")
    .set({ dailyDigest: on ? 1 : 0 })
    .where("id", "=", userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
