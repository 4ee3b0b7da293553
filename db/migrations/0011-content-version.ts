import { sql, type Kysely } from "kysely";

/**
 * One counter that moves on every write changing what the public pages show (courses, batches and their seats,
 * reviews). Each app instance's page cache (server/page-cache.ts) keeps only pages built under the current
 * value, so an edit on one instance retires the cached pages of all of them.
 * (0009 was set aside for this and never used.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("content_version")
    .addColumn("id", "integer", (c) => c.notNull().primaryKey())
    .addColumn("version", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`INSERT INTO content_version (id, version) VALUES (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("content_version").execute();
}
