import { MysqlAdapter, sql, type Kysely } from "kysely";
import { SEARCH_TABLE } from "./0050-indexed-search";

/**
 * Erasure (DPDP Act) reaches the search index at once: by default FTS5 only marks a deleted row's terms as gone and
 * keeps their bytes in its segments until a later merge; with its secure-delete option a delete (the erasure's
 * update of name, e-mail and phone is a delete and an insert) removes them from the index there and then, as
 * `PRAGMA secure_delete` does for the tables (db/client.server.ts). SQLite only: MySQL's indexes are its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof MysqlAdapter) return;
  await sql.raw(`insert into ${SEARCH_TABLE}(${SEARCH_TABLE}, rank) values ('secure-delete', 1)`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof MysqlAdapter) return;
  await sql.raw(`insert into ${SEARCH_TABLE}(${SEARCH_TABLE}, rank) values ('secure-delete', 0)`).execute(db);
}
