import { MysqlAdapter, type Kysely } from "kysely";

/**
 * Issue 39: a list's count and its pages cost what its matches cost, not what the table holds. Three list indexes
 * (migrations 0100) gain the other filters' columns after the list's order, so a filter combination is tested in the
 * index as it is walked, in order, and counted from the index alone: "Contacted + offline" looked up each of 25,000
 * Contacted rows to read its mode (50 ms at 100,000 enquiries on SQLite), the queue's New part each New row to read
 * its owner and follow-up, an overdue list each row with a past follow-up to read its status, and "course + source"
 * each of the course's 20,000 rows to read its source (40 ms). The order columns
 * stay where they were, so every page still walks the index in the list's order.
 */
const indexes = [
  {
    old: "enquiries_shown_status",
    oldColumns: ["status", "privacyState", "createdAt", "id"],
    name: "enquiries_shown_status_cover",
    columns: [
      "status",
      "privacyState",
      "createdAt",
      "id",
      "assigneeId",
      "followUpAt",
      "preferredMode",
      "preferredCourse",
      "sourceLabel",
      "sourceForm",
      "scheduleId",
    ],
  },
  {
    old: "enquiries_shown_preferredCourse",
    oldColumns: ["preferredCourse", "privacyState", "createdAt", "id"],
    name: "enquiries_shown_course_cover",
    columns: ["preferredCourse", "privacyState", "createdAt", "id", "status", "preferredMode", "sourceLabel", "sourceForm", "assigneeId", "scheduleId"],
  },
  {
    old: "enquiries_shown_follow_up",
    oldColumns: ["privacyState", "followUpAt", "createdAt", "id"],
    name: "enquiries_shown_follow_up_cover",
    columns: ["privacyState", "followUpAt", "createdAt", "id", "status", "assigneeId", "preferredMode", "preferredCourse", "sourceLabel"],
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of indexes) {
    await db.schema.createIndex(index.name).on("enquiries").columns(index.columns).execute();
    await dropIndex(db, index.old);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of indexes) {
    await db.schema.createIndex(index.old).on("enquiries").columns(index.oldColumns).execute();
    await dropIndex(db, index.name);
  }
}

async function dropIndex(db: Kysely<unknown>, name: string): Promise<void> {
  const drop = db.schema.dropIndex(name);
  await (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on("enquiries") : drop).execute();
}
