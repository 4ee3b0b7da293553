import { MysqlAdapter, sql, type Kysely } from "kysely";

/**
 * The enquiry desk (issue 26):
 * - `version` on enquiries and contact queries: every change adds one with a conditional UPDATE, and a form or an
 *   API call drawn from an older version is refused instead of writing over a newer change. `updatedBy` names who
 *   made the stored version, for the refusal's message.
 * - `touchedAt`: the last time staff did anything to an enquiry (a note, a status, a follow-up, an owner they
 *   chose); `escalatedAt`: when an untouched New enquiry past the promised hours was escalated to the admins (once).
 * - Owners on arrival: `users.takesEnquiries` (who the round-robin gives new enquiries to) and `users.assignTurn`
 *   (the rotation's turn at which each last got one: the next is the one whose turn is oldest), with one
 *   `assignment_rotation` row whose UPDATE serialises concurrent arrivals on every instance.
 * - `form_submissions`: one row per staff form drawn (its key): a repeated post of the same form (a double click,
 *   a refresh, a resubmit) finds its key taken and changes nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["enquiries", "contact_queries"]) {
    await db.schema
      .alterTable(table)
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable(table).addColumn("updatedBy", "varchar(254)").execute();
  }
  await db.schema.alterTable("enquiries").addColumn("touchedAt", "varchar(24)").execute();
  await db.schema.alterTable("enquiries").addColumn("escalatedAt", "varchar(24)").execute();
  // Enquiries staff have already answered count as touched.
  await sql`update enquiries set ${sql.ref("touchedAt")} = ${sql.ref("firstStatusChangeAt")} where ${sql.ref("firstStatusChangeAt")} is not null`.execute(db);
  // The escalation job's question: New, untouched, not escalated, older than the promise.
  await db.schema.createIndex("enquiries_escalation").on("enquiries").columns(["status", "escalatedAt", "touchedAt", "createdAt"]).execute();

  await db.schema
    .alterTable("users")
    .addColumn("takesEnquiries", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("assignTurn", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("assignment_rotation")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("turn", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .insertInto("assignment_rotation" as never)
    .values({ id: "enquiries", turn: 0 } as never)
    .execute();

  await db.schema
    .createTable("form_submissions")
    .addColumn("key", "varchar(64)", (c) => c.primaryKey())
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("form_submissions_created").on("form_submissions").column("createdAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("form_submissions").execute();
  await db.schema.dropTable("assignment_rotation").execute();
  await db.schema.alterTable("users").dropColumn("assignTurn").execute();
  await db.schema.alterTable("users").dropColumn("takesEnquiries").execute();
  const drop = db.schema.dropIndex("enquiries_escalation");
  // MySQL names the table in DROP INDEX; SQLite rejects the ON clause.
  await (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on("enquiries") : drop).execute();
  for (const column of ["escalatedAt", "touchedAt"]) await db.schema.alterTable("enquiries").dropColumn(column).execute();
  for (const table of ["enquiries", "contact_queries"]) {
    await db.schema.alterTable(table).dropColumn("updatedBy").execute();
    await db.schema.alterTable(table).dropColumn("version").execute();
  }
}
