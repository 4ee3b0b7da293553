import { MysqlAdapter, sql, type Kysely } from "kysely";

/**
 * What a small team needs to turn enquiries into enrolments: an owner and a next follow-up per enquiry, where
 * it came from, the batch it is for, possible duplicates, the first answer (the 24-hour promise), and one
 * timeline of notes and changes for enquiries and contact queries. Ids are app-made; no foreign keys are added
 * (SQLite cannot add them to an existing table): the services clear an assignee or batch that is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  const columns: [string, string, boolean?][] = [
    ["assigneeId", "varchar(36)"],
    ["followUpAt", "varchar(24)"],
    ["scheduleId", "varchar(36)"],
    ["utmSource", "varchar(100)"],
    ["utmMedium", "varchar(100)"],
    ["utmCampaign", "varchar(100)"],
    ["referrer", "varchar(500)"],
    ["firstStatusChangeAt", "varchar(24)"],
  ];
  for (const [name, type] of columns) await db.schema.alterTable("enquiries").addColumn(name, sql.raw(type)).execute();
  // Which form it came from ("" for rows from before), and the one word a list filters and groups by.
  await db.schema
    .alterTable("enquiries")
    .addColumn("sourceForm", "varchar(20)", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("enquiries")
    .addColumn("sourceLabel", "varchar(100)", (c) => c.notNull().defaultTo("direct"))
    .execute();

  // Rows answered before this change: their last update is the best guess of the first answer.
  await sql`update enquiries set ${sql.ref("firstStatusChangeAt")} = ${sql.ref("updatedAt")} where status <> 'new'`.execute(db);
  // Phones stored with +91 or a leading 0 before the phone rule: compare on the 10-digit number.
  const len = mysql ? sql.raw("char_length") : sql.raw("length");
  await sql`update enquiries set ${sql.ref("phoneDigits")} = substr(${sql.ref("phoneDigits")}, 3) where ${len}(${sql.ref("phoneDigits")}) = 12 and substr(${sql.ref("phoneDigits")}, 1, 2) = '91'`.execute(
    db,
  );
  await sql`update enquiries set ${sql.ref("phoneDigits")} = substr(${sql.ref("phoneDigits")}, 2) where ${len}(${sql.ref("phoneDigits")}) = 11 and substr(${sql.ref("phoneDigits")}, 1, 1) = '0'`.execute(
    db,
  );

  // The list's filters, each with the list's order (newest first, id as tie-breaker) behind it.
  for (const column of ["assigneeId", "preferredCourse", "preferredMode", "sourceLabel", "sourceForm"]) {
    await db.schema.createIndex(`enquiries_${column}_created_id`).on("enquiries").columns([column, "createdAt", "id"]).execute();
  }
  // Follow-up filters: a range of followUpAt (due today, overdue) or none, listed in that index's order.
  await db.schema.createIndex("enquiries_follow_up_created_id").on("enquiries").columns(["followUpAt", "createdAt", "id"]).execute();
  // Overdue: a past follow-up of a lead still open (New or Contacted): a range per status.
  await db.schema.createIndex("enquiries_status_follow_up").on("enquiries").columns(["status", "followUpAt"]).execute();
  await db.schema.createIndex("enquiries_schedule").on("enquiries").columns(["scheduleId"]).execute();
  // Duplicate look-ups on create: the same phone or e-mail in the last 90 days.
  await db.schema.createIndex("enquiries_phone_digits_created").on("enquiries").columns(["phoneDigits", "createdAt"]).execute();
  await db.schema.createIndex("enquiries_email_created").on("enquiries").columns(["email", "createdAt"]).execute();
  // "New for more than 24 hours" and the funnel.
  await db.schema.createIndex("enquiries_status_first_change_created").on("enquiries").columns(["status", "firstStatusChangeAt", "createdAt"]).execute();

  await db.schema
    .createTable("enquiry_duplicates")
    .addColumn("enquiryId", "varchar(36)", (c) => c.notNull())
    .addColumn("otherId", "varchar(36)", (c) => c.notNull())
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addPrimaryKeyConstraint("enquiry_duplicates_pk", ["enquiryId", "otherId"])
    .execute();
  await db.schema.createIndex("enquiry_duplicates_other").on("enquiry_duplicates").column("otherId").execute();

  await db.schema
    .createTable("timeline_entries")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("subjectType", "varchar(20)", (c) => c.notNull())
    .addColumn("subjectId", "varchar(36)", (c) => c.notNull())
    .addColumn("at", "varchar(24)", (c) => c.notNull())
    .addColumn("userId", "varchar(36)")
    .addColumn("userName", "varchar(254)", (c) => c.notNull().defaultTo(""))
    .addColumn("kind", "varchar(20)", (c) => c.notNull())
    .addColumn("fromValue", "varchar(255)")
    .addColumn("toValue", "varchar(255)")
    .addColumn("text", "text")
    .execute();
  await db.schema.createIndex("timeline_subject_at").on("timeline_entries").columns(["subjectType", "subjectId", "at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("timeline_entries").execute();
  await db.schema.dropTable("enquiry_duplicates").execute();
}
