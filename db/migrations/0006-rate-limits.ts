import { MysqlAdapter, sql, type Kysely } from "kysely";

/**
 * Rate-limit counts (app/infra/rate-limit.server.ts) move from process memory into this table, so a restart
 * does not hand out fresh sign-in tries and several app processes on one database share one count.
 * rate-limiter-flexible's SQLite and MySQL stores read and write it; every limiter keeps its rows apart by
 * its key prefix. The table is made here, not by the stores (they run with tableCreated: true): instances
 * starting together never race to create it, and the app needs no CREATE DATABASE privilege.
 *
 * The columns are the ones the stores create themselves, in their order: the MySQL store inserts
 * `VALUES (?, ?, ?)` without naming columns. `expire` is a Unix time in milliseconds (NULL: never).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  await db.schema
    .createTable("rate_limits")
    // Binary on MySQL: under the database's accent- and case-insensitive collation two different keys
    // (ádmin@… and admin@…) would be one row.
    .addColumn("key", mysql ? sql`varchar(255) character set utf8mb4 collate utf8mb4_bin` : "text", (c) => c.notNull().primaryKey())
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expire", mysql ? sql`bigint unsigned` : "integer")
    .execute();
  // The periodic clean-up deletes by expiry; without the index MySQL would lock every row it scans.
  await db.schema.createIndex("rate_limits_expire").on("rate_limits").column("expire").execute();

  // Sign-in finds a user by e-mail. Under MySQL's default accent-insensitive collation ádmin@localhost found
  // admin@localhost, so a look-alike address reached the same account; binary makes two different addresses
  // always different. E-mails are stored lower-cased, so nothing that matched before stops matching.
  // SQLite compares with BINARY already. MODIFY keeps the unique index; NOT NULL must be said again.
  if (mysql) {
    await db.schema
      .alterTable("users")
      .modifyColumn("email", sql`varchar(254) character set utf8mb4 collate utf8mb4_bin`, (c) => c.notNull())
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof MysqlAdapter) {
    // Back to the table's default collation (the database's, as 0001 created it).
    await db.schema
      .alterTable("users")
      .modifyColumn("email", "varchar(254)", (c) => c.notNull())
      .execute();
  }
  await db.schema.dropTable("rate_limits").execute();
}
