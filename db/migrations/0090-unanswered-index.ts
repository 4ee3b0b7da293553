import { MysqlAdapter, type Kysely } from "kysely";

/**
 * Issue 30: the dashboard's "unanswered for over 24 hours" (New, never moved on, not held or erased, received
 * before a time) counted from one index alone instead of looking up each of the New enquiries' rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("enquiries_unanswered").on("enquiries").columns(["status", "firstStatusChangeAt", "privacyState", "createdAt"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const drop = db.schema.dropIndex("enquiries_unanswered");
  await (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on("enquiries") : drop).execute();
}
