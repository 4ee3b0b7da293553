import type { Database as SqliteDatabase } from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import type { Pool, PoolConnection } from "mysql2";
import { db, dialect, rawDriver } from "~db/client.server";
import { DAY_FIGURES_TABLE } from "~db/migrations/0170-enquiry-day-figures";
import { NAME_WORDS_TABLE } from "~db/migrations/0180-name-words";

/**
 * The database side of backups, the only SQL they run: a consistent copy of the live database (SQLite through
 * its online backup API from a pinned read transaction; MySQL/MariaDB as rows streamed from one consistent-snapshot
 * transaction), reading the tables of an SQLite file in an archive, and loading rows into an empty database on
 * restore. Rows are plain objects; turning them into files is app/infra/backup-archive.server.ts's work.
 */
export type Row = Record<string, unknown>;
export type TableShape = { name: string; columns: string[] };
/** The snapshot's moment lies between `from` and `to`: every write acknowledged before `from` is in it. */
export type SnapshotWindow = { from: string; to: string };

/** Kysely's own lock row: not data, and every database has its own. */
const SKIPPED_TABLES = new Set(["kysely_migration_lock"]);
export const MIGRATIONS_TABLE = "kysely_migration";

const userTable = (name: string) => !name.startsWith("sqlite_") && !SKIPPED_TABLES.has(name);

/**
 * SQLite's search index (migration 0050: an FTS5 virtual table and the shadow tables that hold it) is not data:
 * it is made from the enquiries, so backups leave it out and a restore rebuilds it (rebuildSearchIndex).
 */
const DERIVED_SQLITE_TABLES = "select name, type from pragma_table_list where schema = 'main' and type in ('virtual', 'shadow')";

/**
 * Tables the triggers make from the enquiries: the dashboard's running totals (migration 0170) and MySQL/MariaDB's
 * name word table (migration 0180). Never dumped: the restored enquiries fill them again as they are loaded, on
 * either engine. Loaded from an archive they would count every enquiry twice, and the engines do not agree on which
 * values are one (MariaDB's key takes "Python" and "python" for one course, SQLite for two), so an archive moved
 * between them could not even be loaded.
 */
const TRIGGER_KEPT_TABLES = new Set<string>([DAY_FIGURES_TABLE, NAME_WORDS_TABLE]);

/** MySQL/MariaDB generated columns (migration 0050) are computed from others: never dumped, never loaded. */
const STORED_COLUMNS = "(extra is null or extra not regexp '(VIRTUAL|STORED|PERSISTENT) GENERATED')";

async function openSqlite(file: string, options: { readonly?: boolean } = {}): Promise<SqliteDatabase> {
  const { default: SQLite } = await import("better-sqlite3");
  const database = new SQLite(file, { fileMustExist: true, readonly: options.readonly ?? false });
  database.pragma("busy_timeout = 5000");
  if (options.readonly) {
    // An archive's file is read only for its rows: its views and triggers may call no function with side
    // effects, and a malformed page is an error, not a crash.
    database.pragma("trusted_schema = OFF");
    database.pragma("cell_size_check = ON");
  }
  return database;
}

/**
 * Copies the live SQLite database into `toFile` with SQLite's online backup API, on a connection of its own
 * that first pins a read transaction: the copy is the database as of that moment, whatever the site writes
 * meanwhile (in WAL mode writers go on; the copy is taken in small steps, so the event loop is never held for
 * long). The copy is left in rollback-journal mode, one self-contained file.
 */
export async function copySqliteSnapshot(toFile: string): Promise<SnapshotWindow> {
  const driver = rawDriver();
  if (driver.dialect !== "sqlite") throw new Error("copySqliteSnapshot needs an SQLite database");
  if (driver.database.memory) throw new Error("An in-memory database cannot be backed up");
  const source = await openSqlite(driver.database.name);
  let window: SnapshotWindow;
  try {
    const from = new Date().toISOString();
    source.exec("BEGIN");
    // The first read starts the transaction's snapshot; the backup then reads through it.
    source.prepare("SELECT count(*) FROM sqlite_master").get();
    window = { from, to: new Date().toISOString() };
    await source.backup(toFile, { progress: () => 256 });
    source.exec("COMMIT");
  } finally {
    if (source.inTransaction) source.exec("ROLLBACK");
    source.close();
  }
  const copy = await openSqlite(toFile);
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
  return window;
}

/** The tables of an SQLite file (an archive's copy) with their columns and row counts; throws when the file is damaged. */
export async function sqliteFileTables(file: string): Promise<(TableShape & { rows: number })[]> {
  const database = await openSqlite(file, { readonly: true });
  try {
    const check = database.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new Error(`SQLite's quick_check failed: ${String(check)}`);
    const derived = new Set((database.prepare(DERIVED_SQLITE_TABLES).all() as { name: string }[]).map((r) => r.name));
    const names = (database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[])
      .map((r) => r.name)
      .filter((name) => userTable(name) && !derived.has(name) && !TRIGGER_KEPT_TABLES.has(name));
    return names.map((name) => {
      const columns = (database.pragma(`table_info(${quoteSqlite(name)})`) as { name: string }[]).map((c) => c.name);
      const { n } = database.prepare(`SELECT count(*) AS n FROM ${quoteSqlite(name)}`).get() as { n: number };
      return { name, columns, rows: n };
    });
  } finally {
    database.close();
  }
}

/** Every row of one table of an SQLite file, in primary-key order. */
export async function* sqliteFileRows(file: string, table: string): AsyncGenerator<Row> {
  const database = await openSqlite(file, { readonly: true });
  try {
    for (const row of database.prepare(`SELECT * FROM ${quoteSqlite(table)}`).iterate()) yield row as Row;
  } finally {
    database.close();
  }
}

const quoteSqlite = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteMysql = (name: string) => `\`${name.replace(/`/g, "``")}\``;

function query<T>(conn: PoolConnection, text: string, values: unknown[] = []): Promise<T> {
  return new Promise((resolve, reject) =>
    conn.query({ sql: text, values }, (error: Error | null, rows: unknown) => (error ? reject(error) : resolve(rows as T))),
  );
}

/**
 * MySQL/MariaDB: one connection of the app's pool opens a REPEATABLE READ transaction WITH CONSISTENT SNAPSHOT
 * (what mariadb-dump --single-transaction does) and streams every table's rows, in primary-key order, to
 * `visit`. InnoDB serves them as of the snapshot while the site goes on writing.
 */
export async function streamMysqlSnapshot(visit: (table: TableShape, rows: AsyncIterable<Row>) => Promise<void>): Promise<SnapshotWindow> {
  const driver = rawDriver();
  if (driver.dialect !== "mysql") throw new Error("streamMysqlSnapshot needs a MySQL/MariaDB database");
  const pool: Pool = driver.pool;
  const conn = await new Promise<PoolConnection>((resolve, reject) => pool.getConnection((error, c) => (error ? reject(error) : resolve(c))));
  let broken = true;
  try {
    await query(conn, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    const from = new Date().toISOString();
    await query(conn, "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
    const window = { from, to: new Date().toISOString() };
    try {
      const tables = await query<{ name: string }[]>(
        conn,
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY table_name",
      );
      for (const { name } of tables.filter((t) => userTable(t.name) && !TRIGGER_KEPT_TABLES.has(t.name))) {
        const columns = await query<{ name: string; key: string }[]>(
          conn,
          `SELECT column_name AS name, column_key AS \`key\` FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND ${STORED_COLUMNS} ORDER BY ordinal_position`,
          [name],
        );
        const order = columns.filter((c) => c.key === "PRI").map((c) => quoteMysql(c.name));
        const list = columns.map((c) => quoteMysql(c.name)).join(", ");
        const stream = conn
          .query(`SELECT ${list} FROM ${quoteMysql(name)}${order.length ? ` ORDER BY ${order.join(", ")}` : ""}`)
          .stream({ highWaterMark: 256 });
        await visit({ name, columns: columns.map((c) => c.name) }, stream as AsyncIterable<Row>);
      }
    } finally {
      await query(conn, "COMMIT");
    }
    broken = false;
    return window;
  } finally {
    // A stream left half read keeps the connection busy: one that failed is closed, not handed back.
    if (broken) conn.destroy();
    else conn.release();
  }
}

/**
 * The tables of the open database (db()), Kysely's migration list included, its lock table not; SQLite's search
 * index not (it is no data), unless `withDerived` (to drop everything a failed restore made: the index's virtual
 * table comes first, which drops its shadow tables with it). MySQL's generated columns are left out.
 */
export async function databaseTables({ withDerived = false }: { withDerived?: boolean } = {}): Promise<TableShape[]> {
  const tables = await db().introspection.getTables({ withInternalKyselyTables: true });
  const derived = new Map<string, string>();
  const generated = new Set<string>();
  if (dialect() === "sqlite") {
    for (const r of (await sql.raw<{ name: string; type: string }>(DERIVED_SQLITE_TABLES).execute(db())).rows) derived.set(r.name, r.type);
  } else {
    const r = await sql
      .raw<{ t: string; c: string }>(
        `select table_name as t, column_name as c from information_schema.columns where table_schema = database() and not ${STORED_COLUMNS}`,
      )
      .execute(db());
    for (const row of r.rows) generated.add(`${row.t}.${row.c}`);
  }
  for (const name of TRIGGER_KEPT_TABLES) derived.set(name, "table");
  const shapes = tables
    .filter((t) => !t.isView && userTable(t.name) && (withDerived ? derived.get(t.name) !== "shadow" : !derived.has(t.name)))
    .map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name).filter((c) => !generated.has(`${t.name}.${c}`)) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  // Virtual tables first: dropping one drops its shadow tables (and the triggers go with their table).
  return withDerived ? [...shapes.filter((t) => derived.has(t.name)), ...shapes.filter((t) => !derived.has(t.name))] : shapes;
}

/** SQLite: the search index made again from the enquiries (after a restore loaded them); MySQL keeps its indexes itself. */
export async function rebuildSearchIndexes(): Promise<void> {
  if (dialect() !== "sqlite") return;
  for (const r of (await sql.raw<{ name: string; type: string }>(DERIVED_SQLITE_TABLES).execute(db())).rows) {
    if (r.type === "virtual") await sql.raw(`insert into ${quoteSqlite(r.name)}(${quoteSqlite(r.name)}) values ('rebuild')`).execute(db());
  }
}

/** The migrations the open database lists as applied. */
export async function migrationNames(): Promise<string[]> {
  const r = await sql<{ name: string }>`select name from ${sql.table(MIGRATIONS_TABLE)}`.execute(db());
  return r.rows.map((row) => row.name);
}

export async function countRows(table: string): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db());
  return Number(r.rows[0]?.n ?? 0);
}

/** Drops these tables of the open database (a restore that failed leaves the database as empty as it found it). */
export async function dropTables(tables: string[]): Promise<void> {
  if (dialect() === "mysql") {
    await db()
      .connection()
      .execute(async (conn) => {
        await sql`set foreign_key_checks = 0`.execute(conn);
        for (const t of tables) await sql`drop table if exists ${sql.table(t)}`.execute(conn);
        await sql`set foreign_key_checks = 1`.execute(conn);
      });
  } else {
    for (const t of tables) await sql`drop table if exists ${sql.table(t)}`.execute(db());
  }
}

type Executor = Kysely<Record<string, Row>>;

/**
 * Loads rows into the open database's (empty, migrated) tables, foreign-key checks off while they go in (an
 * archive's rows are consistent as a whole, not table by table); rows the migrations made (the migration
 * list among them) are replaced with the archive's. SQLite: one transaction. Returns the rows loaded per table.
 */
export async function loadRows(tables: { name: string; columns: string[]; rows: () => AsyncIterable<Row> }[]): Promise<Record<string, number>> {
  const loaded: Record<string, number> = {};
  const sqlite = dialect() === "sqlite";
  const loadAll = async (executor: Executor) => {
    for (const table of tables) {
      // Migrations put rows of their own into a new database (the migration list, the content version's row):
      // the archive's rows replace them.
      await executor.deleteFrom(table.name).execute();
      // Bound parameters per statement stay well under SQLite's 32,766 and MySQL's 65,535.
      const batchSize = Math.max(1, Math.min(500, Math.floor(20_000 / Math.max(1, table.columns.length))));
      let batch: Row[] = [];
      let count = 0;
      const flush = async () => {
        if (batch.length) await executor.insertInto(table.name).values(batch).execute();
        count += batch.length;
        batch = [];
      };
      for await (const row of table.rows()) {
        const out: Row = {};
        for (const c of table.columns) out[c] = toParameter(row[c], sqlite);
        batch.push(out);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
      loaded[table.name] = count;
    }
  };
  if (sqlite) {
    const driver = rawDriver();
    if (driver.dialect !== "sqlite") throw new Error("unreachable");
    driver.database.pragma("foreign_keys = OFF");
    try {
      await db()
        .transaction()
        .execute((trx) => loadAll(trx as unknown as Executor));
    } finally {
      driver.database.pragma("foreign_keys = ON");
    }
  } else {
    await db()
      .connection()
      .execute(async (conn) => {
        await sql`set foreign_key_checks = 0`.execute(conn);
        try {
          await loadAll(conn as unknown as Executor);
        } finally {
          await sql`set foreign_key_checks = 1`.execute(conn);
        }
      });
  }
  return loaded;
}

/** better-sqlite3 binds no Date or boolean; MySQL takes both. */
function toParameter(value: unknown, sqlite: boolean): unknown {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return sqlite ? value.toISOString() : value;
  return value;
}
