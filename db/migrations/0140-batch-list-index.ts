import { MysqlAdapter, type Kysely } from "kysely";

/**
 * Issue 37: the enquiry list filters by batch (?batch=<schedule id>). Like the other list indexes (migration 0100)
 * this one holds the privacy state after its filter's column and the list's order after that, so a batch's list is
 * counted from the index alone and its pages walk it in order. It replaces the single-column index on scheduleId,
 * whose other readers (a deleted batch's enquiries, the enquiries holding a batch's seats) it serves as well.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("enquiries_shown_schedule").on("enquiries").columns(["scheduleId", "privacyState", "createdAt", "id"]).execute();
  await dropIndex(db, "enquiries_schedule");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("enquiries_schedule").on("enquiries").columns(["scheduleId"]).execute();
  await dropIndex(db, "enquiries_shown_schedule");
}

async function dropIndex(db: Kysely<unknown>, name: string): Promise<void> {
  const drop = db.schema.dropIndex(name);
  await (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on("enquiries") : drop).execute();
}
