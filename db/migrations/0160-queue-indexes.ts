import { MysqlAdapter, type Kysely } from "kysely";

/**
 * Issue 39, second pass: the counsellor's queue counted from indexes alone (app/models/enquiry.server.ts, listIndex).
 * - Its first part (their overdue follow-ups on open leads) walked the (assigneeId, privacyState, followUpAt, …)
 *   index and looked up each row to read its status; the index now holds the status, and the other filters a list of
 *   one owner's follow-ups combines with it (mode, course, source), after the order columns.
 * - Its second part (New ones nobody's with no follow-up due later, and the counsellor's own with none) was counted
 *   by reading every New entry of the status index (a quarter of the table) to test owner and follow-up: the new
 *   index reaches exactly those three ranges. Its pages still walk the status index in the list's order.
 */
const replaced = {
  old: "enquiries_shown_assignee_follow_up",
  oldColumns: ["assigneeId", "privacyState", "followUpAt", "createdAt", "id"],
  name: "enquiries_shown_assignee_cover",
  columns: ["assigneeId", "privacyState", "followUpAt", "createdAt", "id", "status", "preferredMode", "preferredCourse", "sourceLabel"],
};
const queueNew = { name: "enquiries_queue_new", columns: ["status", "privacyState", "assigneeId", "followUpAt"] };
/**
 * The two filter pairs the desk and the API are asked for most (a course's campaign, a status by mode) each from an
 * index that starts with both: counted from their own range instead of testing every entry of the first filter's
 * (20,000 of a course to find its 5,000 from Google, 25,000 Contacted to find 8,000 offline, at 100,000).
 */
const pairs = [
  {
    name: "enquiries_shown_course_source",
    columns: ["preferredCourse", "sourceLabel", "privacyState", "createdAt", "id", "status", "preferredMode", "assigneeId", "sourceForm"],
  },
  {
    name: "enquiries_shown_status_mode",
    columns: ["status", "preferredMode", "privacyState", "createdAt", "id", "preferredCourse", "assigneeId", "sourceLabel", "sourceForm"],
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex(replaced.name).on("enquiries").columns(replaced.columns).execute();
  await dropIndex(db, replaced.old);
  for (const index of [queueNew, ...pairs]) await db.schema.createIndex(index.name).on("enquiries").columns(index.columns).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [queueNew, ...pairs]) await dropIndex(db, index.name);
  await db.schema.createIndex(replaced.old).on("enquiries").columns(replaced.oldColumns).execute();
  await dropIndex(db, replaced.name);
}

async function dropIndex(db: Kysely<unknown>, name: string): Promise<void> {
  const drop = db.schema.dropIndex(name);
  await (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on("enquiries") : drop).execute();
}
