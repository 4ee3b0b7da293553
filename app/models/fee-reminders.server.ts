import { db } from "~db/client.server";
import { nowIso } from "~/util/ids";

/** One row per reminder (or overdue notice) of a due and stage (migration 0130): the key makes each happen once. */

/** Inside the reminder's transaction: false when the row exists (another instance, or an earlier run, sent it). */
export async function claimReminder(dueId: string, stage: string): Promise<boolean> {
  const key = `${dueId}:${stage}`;
  const seen = await db().selectFrom("fee_reminders").select("key").where("key", "=", key).executeTakeFirst();
  if (seen) return false;
  await db().insertInto("fee_reminders").values({ key, dueId, stage, createdAt: nowIso() }).execute();
  return true;
}

export async function remindersOfDue(dueId: string): Promise<string[]> {
  const rows = await db().selectFrom("fee_reminders").select("stage").where("dueId", "=", dueId).orderBy("createdAt").execute();
  return rows.map((r) => r.stage);
}
