import { type Kysely } from "kysely";

/**
 * The daily digest (app/services/digest.server.ts): each staff member may switch it off (on by default), and
 * `digests_sent` holds one row per person and Hyderabad day. Its primary key is what makes the digest go out
 * once a day however many app instances run the job: the row is inserted in the same transaction as the
 * outbox row, so a second instance's insert fails on the key and its transaction (and e-mail) rolls back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("dailyDigest", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable("digests_sent")
    .addColumn("userId", "varchar(36)", (c) => c.notNull())
    /** The Hyderabad day (YYYY-MM-DD) the digest is for. */
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    /** The outbox row, or null when there was nothing to tell (no e-mail, still counted as done). */
    .addColumn("outboxId", "varchar(36)")
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addPrimaryKeyConstraint("digests_sent_pk", ["userId", "day"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("digests_sent").execute();
  await db.schema.alterTable("users").dropColumn("dailyDigest").execute();
}
