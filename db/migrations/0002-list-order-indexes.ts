import { MysqlAdapter, type Kysely } from "kysely";

// MySQL names the table in DROP INDEX; SQLite's index names are global and it rejects the ON clause.
function dropIndex(db: Kysely<unknown>, name: string, table: string) {
  const drop = db.schema.dropIndex(name);
  return (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on(table) : drop).execute();
}

/**
 * The back-office inboxes sort newest first with the id as tie-breaker (createdAt desc, id desc). Indexes on
 * createdAt alone made SQLite sort every row again for the id, so a late page of 100,000 enquiries took
 * hundreds of milliseconds; with the id in the index the page is read straight from it (scripts/bench-enquiries.ts).
 * The new indexes start with the old ones' columns, so those are dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["enquiries", "contact_queries"] as const) {
    await db.schema.createIndex(`${table}_created_id`).on(table).columns(["createdAt", "id"]).execute();
    await db.schema.createIndex(`${table}_status_created_id`).on(table).columns(["status", "createdAt", "id"]).execute();
    await dropIndex(db, `${table}_created`, table);
    await dropIndex(db, `${table}_status_created`, table);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["enquiries", "contact_queries"] as const) {
    await db.schema.createIndex(`${table}_created`).on(table).column("createdAt").execute();
    await db.schema.createIndex(`${table}_status_created`).on(table).columns(["status", "createdAt"]).execute();
    await dropIndex(db, `${table}_created_id`, table);
    await dropIndex(db, `${table}_status_created_id`, table);
  }
}
