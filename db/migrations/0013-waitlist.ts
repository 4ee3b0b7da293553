import { type Kysely } from "kysely";

/**
 * The waitlist of a full batch (app/services/waitlist.server.ts). `waitlist_entries`: one row per enquiry that
 * joined a batch's waitlist, in order of joining (joinedAt, then the time-ordered id). `waitlist_offers`: the seat
 * offered to the first waiting enquirer when one frees; it holds that seat (taken from the batch's counter) until it
 * is accepted, expires, is declined or withdrawn. Only a hash of the offer's link token is kept. One offer per
 * entry at most (unique entryId): an expired or declined offer takes its entry off the list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("waitlist_entries")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("scheduleId", "varchar(36)", (c) => c.notNull())
    .addColumn("enquiryId", "varchar(36)", (c) => c.notNull())
    /** waiting | offered | enrolled | expired | declined | withdrawn */
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("joinedAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    .execute();
  // The batch's list in order, and "the first one waiting".
  await db.schema.createIndex("waitlist_entries_schedule_status_joined").on("waitlist_entries").columns(["scheduleId", "status", "joinedAt", "id"]).execute();
  await db.schema.createIndex("waitlist_entries_enquiry").on("waitlist_entries").columns(["enquiryId", "status"]).execute();

  await db.schema
    .createTable("waitlist_offers")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("entryId", "varchar(36)", (c) => c.notNull().unique())
    .addColumn("scheduleId", "varchar(36)", (c) => c.notNull())
    .addColumn("enquiryId", "varchar(36)", (c) => c.notNull())
    /** SHA-256 (hex) of the link's token. */
    .addColumn("tokenHash", "varchar(64)", (c) => c.notNull().unique())
    /** open | accepted | expired | declined | withdrawn */
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("expiresAt", "varchar(24)", (c) => c.notNull())
    .addColumn("closedAt", "varchar(24)")
    .execute();
  // The expiry job and the digest: open offers by expiry time.
  await db.schema.createIndex("waitlist_offers_status_expires").on("waitlist_offers").columns(["status", "expiresAt"]).execute();
  await db.schema.createIndex("waitlist_offers_enquiry").on("waitlist_offers").columns(["enquiryId", "status"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("waitlist_offers").execute();
  await db.schema.dropTable("waitlist_entries").execute();
}
