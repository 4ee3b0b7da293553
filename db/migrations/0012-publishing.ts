import { type Kysely } from "kysely";

/**
 * Drafts and scheduled publishing: courses, batches and reviews get a publication state (draft, scheduled,
 * published; see PUBLICATION_STATES) and, when scheduled, the UTC instant to publish at. Every existing row is
 * published, so nothing visible today disappears.
 */
const TABLES = ["courses", "schedules", "reviews"] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn("state", "varchar(10)", (c) => c.notNull().defaultTo("published"))
      .execute();
    await db.schema.alterTable(table).addColumn("publishAt", "varchar(24)").execute();
  }
  // The public reads filter on state and keep their order behind it; the publishing job looks up due rows by (state, publishAt).
  await db.schema.createIndex("courses_state_created_id").on("courses").columns(["state", "createdAt", "id"]).execute();
  await db.schema.createIndex("schedules_state_end").on("schedules").columns(["state", "endDate"]).execute();
  await db.schema.createIndex("reviews_state_approved_created_id").on("reviews").columns(["state", "approved", "createdAt", "id"]).execute();
  for (const table of TABLES) await db.schema.createIndex(`${table}_state_publish_at`).on(table).columns(["state", "publishAt"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("courses_state_created_id").on("courses").execute();
  await db.schema.dropIndex("schedules_state_end").on("schedules").execute();
  await db.schema.dropIndex("reviews_state_approved_created_id").on("reviews").execute();
  for (const table of TABLES) {
    await db.schema.dropIndex(`${table}_state_publish_at`).on(table).execute();
    await db.schema.alterTable(table).dropColumn("publishAt").execute();
    await db.schema.alterTable(table).dropColumn("state").execute();
  }
}
