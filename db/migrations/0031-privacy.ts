import { type Kysely } from "kysely";

/**
 * What India's DPDP Act asks of the records that hold visitors' personal data (app/services/privacy-*.server.ts):
 *
 * - on enquiries and contact queries: `privacyState` ("" an ordinary record; "held" a minor's, kept from staff until
 *   a parent or guardian consents; "erased" its personal data removed, the row kept only for the dashboard's counts)
 *   with `erasedAt`; the "I am under 18" answer and the guardian's name, e-mail and consent time; the marketing
 *   choice as it stands now; the version of the privacy notice shown with the form.
 * - `consents`: one row per consent given or withdrawn (purpose, time, channel, notice version), by record id only.
 * - `privacy_links`: the links mailed to a visitor (their own records at /me) or a guardian (the consent page),
 *   each kept as the SHA-256 of its token, with an expiry.
 */
const RECORD_COLUMNS: [string, string, string | number | null][] = [
  ["privacyState", "varchar(10)", ""],
  ["erasedAt", "varchar(24)", null],
  ["under18", "integer", 0],
  ["guardianName", "varchar(100)", null],
  ["guardianEmail", "varchar(254)", null],
  ["guardianConsentAt", "varchar(24)", null],
  ["marketingConsent", "integer", 0],
  ["noticeVersion", "varchar(20)", ""],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["enquiries", "contact_queries"]) {
    for (const [name, type, fallback] of RECORD_COLUMNS) {
      await db.schema
        .alterTable(table)
        .addColumn(name, type as "integer", (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
        .execute();
    }
    // The retention job: records of each state by their last change.
    await db.schema.createIndex(`${table}_privacy_updated`).on(table).columns(["privacyState", "updatedAt"]).execute();
  }

  await db.schema
    .createTable("consents")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    /** enquiry | contact_query */
    .addColumn("subjectType", "varchar(20)", (c) => c.notNull())
    .addColumn("subjectId", "varchar(36)", (c) => c.notNull())
    /** notice (the notice shown with the form) | marketing | guardian */
    .addColumn("purpose", "varchar(20)", (c) => c.notNull())
    /** given | withdrawn */
    .addColumn("action", "varchar(12)", (c) => c.notNull())
    /** home | enquiry-page | contact-page | api | me | guardian-link | staff */
    .addColumn("channel", "varchar(20)", (c) => c.notNull())
    .addColumn("noticeVersion", "varchar(20)", (c) => c.notNull())
    .addColumn("at", "varchar(24)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("consents_subject_at").on("consents").columns(["subjectType", "subjectId", "at"]).execute();

  await db.schema
    .createTable("privacy_links")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    /** me | guardian */
    .addColumn("kind", "varchar(12)", (c) => c.notNull())
    /** SHA-256 (hex) of the link's token; the token itself is only in the e-mail. */
    .addColumn("tokenHash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("subjectType", "varchar(20)", (c) => c.notNull())
    .addColumn("subjectId", "varchar(36)", (c) => c.notNull())
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("expiresAt", "varchar(24)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("privacy_links_subject").on("privacy_links").columns(["subjectType", "subjectId"]).execute();
  await db.schema.createIndex("privacy_links_expires").on("privacy_links").column("expiresAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("privacy_links").execute();
  await db.schema.dropTable("consents").execute();
  for (const table of ["enquiries", "contact_queries"]) {
    await db.schema.dropIndex(`${table}_privacy_updated`).on(table).execute();
    for (const [name] of [...RECORD_COLUMNS].reverse()) await db.schema.alterTable(table).dropColumn(name).execute();
  }
}
