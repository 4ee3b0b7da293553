import type { Kysely } from "kysely";

/**
 * Signing out ends that one browser session or API token, not every session of the user. Sessions and tokens
 * are signed and carry an id; a revoked id is kept here until the session or token would have expired anyway.
 * (Before this, sign-out bumped the user's sessionVersion: signing out of one device signed them out everywhere.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("revoked_sessions")
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("expiresAt", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("revoked_sessions_expires").on("revoked_sessions").column("expiresAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("revoked_sessions").execute();
}
