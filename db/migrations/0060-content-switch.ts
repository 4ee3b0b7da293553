import { type Kysely } from "kysely";

/**
 * The content version's newest change that must reach the public pages at once (an unpublish, a delete, anything
 * removing personal data): each instance's page cache (server/page-cache.ts) keeps serving the previous version's
 * pages while it renders the new ones, unless this moved past the version those pages were built under.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("content_version")
    .addColumn("atOnceVersion", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("content_version").dropColumn("atOnceVersion").execute();
}
