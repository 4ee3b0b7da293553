import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { Kysely, Migrator, MysqlDialect, SqliteDialect, sql, type Migration, type Transaction } from "kysely";
import type { Database as SqliteDatabase } from "better-sqlite3";
import type { Pool as MysqlPool } from "mysql2";
import { createOwnerOnlyFileSync, mkdirOwnerOnlySync } from "~/util/owner-only-files.server";
import type { Database } from "./schema";
import * as m0001 from "./migrations/0001-initial";
import * as m0002 from "./migrations/0002-list-order-indexes";
import * as m0003 from "./migrations/0003-phone-digits";
import * as m0004 from "./migrations/0004-revoked-sessions";
import * as m0005 from "./migrations/0005-audit-log";
import * as m0006 from "./migrations/0006-rate-limits";
import * as m0007 from "./migrations/0007-outbox";
import * as m0008 from "./migrations/0008-clean-text";
import * as m0010 from "./migrations/0010-enquiry-pipeline";
import * as m0011 from "./migrations/0011-content-version";
import * as m0012 from "./migrations/0012-publishing";
import * as m0013 from "./migrations/0013-waitlist";
import * as m0014 from "./migrations/0014-digest";
import * as m0015 from "./migrations/0015-enquiry-desk";
import * as m0040 from "./migrations/0040-backups";
import * as m0020 from "./migrations/0020-bidi-controls";
import * as m0030 from "./migrations/0030-site-settings";
import * as m0031 from "./migrations/0031-privacy";
import * as m0050 from "./migrations/0050-indexed-search";
import * as m0060 from "./migrations/0060-content-switch";
import * as m0070 from "./migrations/0070-fees";
import * as m0080 from "./migrations/0080-search-secure-delete";
import * as m0090 from "./migrations/0090-unanswered-index";
import * as m0100 from "./migrations/0100-list-and-figure-indexes";
import * as m0110 from "./migrations/0110-privacy-exact-keys";
import * as m0120 from "./migrations/0120-versions-and-seats";
import * as m0130 from "./migrations/0130-fees-ledger";
import * as m0140 from "./migrations/0140-batch-list-index";
import * as m0150 from "./migrations/0150-covering-list-indexes";
import * as m0160 from "./migrations/0160-queue-indexes";
import * as m0170 from "./migrations/0170-enquiry-day-figures";
import * as m0180 from "./migrations/0180-name-words";
import * as m0190 from "./migrations/0190-search-shown-only";
import * as m0200 from "./migrations/0200-list-count-figures";

// Migrations are listed here rather than read from a folder so they survive bundling into the server build.
const migrations: Record<string, Migration> = {
  "0001-initial": m0001,
  "0002-list-order-indexes": m0002,
  "0003-phone-digits": m0003,
  "0004-revoked-sessions": m0004,
  "0005-audit-log": m0005,
  "0006-rate-limits": m0006,
  "0007-outbox": m0007,
  "0008-clean-text": m0008,
  "0010-enquiry-pipeline": m0010,
  "0011-content-version": m0011,
  "0012-publishing": m0012,
  "0013-waitlist": m0013,
  "0014-digest": m0014,
  "0015-enquiry-desk": m0015,
  "0040-backups": m0040,
  "0020-bidi-controls": m0020,
  "0030-site-settings": m0030,
  "0031-privacy": m0031,
  "0050-indexed-search": m0050,
  "0060-content-switch": m0060,
  "0070-fees": m0070,
  "0080-search-secure-delete": m0080,
  "0090-unanswered-index": m0090,
  "0100-list-and-figure-indexes": m0100,
  "0110-privacy-exact-keys": m0110,
  "0120-versions-and-seats": m0120,
  "0130-fees-ledger": m0130,
  "0140-batch-list-index": m0140,
  "0150-covering-list-indexes": m0150,
  "0160-queue-indexes": m0160,
  "0170-enquiry-day-figures": m0170,
  "0180-name-words": m0180,
  "0190-search-shown-only": m0190,
  "0200-list-count-figures": m0200,
};

/** SQLite's page cache (KiB) and memory map (bytes), set on every connection (createDb). */
export const SQLITE_CACHE_KIB = 64 * 1024;
export const SQLITE_MMAP_BYTES = 256 * 1024 * 1024;

export type DB = Kysely<Database>;
export type Dialect = "sqlite" | "mysql";

/**
 * The driver behind Kysely, for libraries that talk to the database themselves (rate-limiter-flexible's
 * stores): the one better-sqlite3 handle, or the mysql2 pool and the database name.
 */
export type RawDriver = { dialect: "sqlite"; database: SqliteDatabase } | { dialect: "mysql"; pool: MysqlPool; databaseName: string };

export async function createDb(url: string): Promise<{ db: DB; dialect: Dialect; raw: RawDriver }> {
  if (url.startsWith("file:")) {
    const { default: SQLite } = await import("better-sqlite3");
    const file = url.slice("file:".length);
    if (file !== ":memory:") {
      // Owner-only from the first byte: SQLite gives the -wal and -shm files the database file's mode.
      mkdirOwnerOnlySync(path.dirname(path.resolve(file)));
      createOwnerOnlyFileSync(file);
    }
    const database = new SQLite(file);
    // WAL + synchronous=FULL: a committed write survives a crash of the process or the machine.
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = FULL");
    database.pragma("foreign_keys = ON");
    database.pragma("busy_timeout = 5000");
    // Deleted and overwritten content is zeroed on disk, not left in free space: an erased person's e-mail must
    // not survive in the file (app/services/privacy-erasure.server.ts; docs/privacy.md).
    database.pragma("secure_delete = ON");
    // A row replaced by INSERT OR REPLACE (SQL by hand: the site writes none) fires its delete triggers too, so the
    // search index and the dashboard's running totals (migrations 0050, 0170) let go of the row it replaced. No
    // trigger writes to the table it is on, so nothing recurses.
    database.pragma("recursive_triggers = ON");
    // The page cache and memory map sized for the indexes one staff request walks (issue 39): SQLite's default cache
    // is 2 MB per connection, smaller than one list index at 100,000 enquiries, so every request read its pages from
    // the OS again (+4 ms of system time per screen). 64 MB of cache (a negative size is KiB) and reads through a
    // 256 MB memory map (pages the OS already holds are used in place, not copied). README, "Search and lists".
    database.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    database.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
    // Temporary tables and sorts in memory: a search's matches are gathered into one per request
    // (app/models/enquiry-search-matches.server.ts), row ids only (under 1 MB for 100,000 matches).
    database.pragma("temp_store = MEMORY");
    return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }), dialect: "sqlite", raw: { dialect: "sqlite", database } };
  }
  if (url.startsWith("mysql://")) {
    const { createPool } = await import("mysql2");
    const pool = createPool({
      uri: url,
      connectionLimit: 10,
      charset: "utf8mb4",
      timezone: "Z",
      connectTimeout: 5000,
      // Probe idle connections after 10 s (the OS default is 2 hours), so a dead peer is noticed.
      enableKeepAlive: true,
      keepAliveInitialDelay: 10_000,
      // While the database is away, requests wait for a connection only up to this many deep; more are refused at once (503).
      queueLimit: 200,
      // Keep numbers as numbers (COUNT(*) comes back as a string otherwise).
      supportBigNumbers: true,
      decimalNumbers: true,
    });
    const databaseName = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
    return { db: new Kysely<Database>({ dialect: new MysqlDialect({ pool }) }), dialect: "mysql", raw: { dialect: "mysql", pool, databaseName } };
  }
  throw new Error("DATABASE_URL must start with file: or mysql://");
}

type NamedLock = { name: string; waitSeconds: number; notTakenMessage: string; onReleaseError: (error: unknown) => void };

/**
 * MySQL's GET_LOCK held on one connection of the pool while `work` runs (on others); released at the end, or
 * by the server if this process dies. Throws `notTakenMessage` when the lock stays taken for `waitSeconds`.
 */
export async function withMysqlNamedLock(db: DB, { name, waitSeconds, notTakenMessage, onReleaseError }: NamedLock, work: () => Promise<void>): Promise<void> {
  await db.connection().execute(async (conn) => {
    const got = await sql<{ got: number | null }>`select get_lock(${name}, ${waitSeconds}) as got`.execute(conn);
    if (Number(got.rows[0]?.got) !== 1) throw new Error(notTakenMessage);
    try {
      await work();
    } finally {
      await sql`select release_lock(${name})`.execute(conn).catch(onReleaseError);
    }
  });
}

/** The names of every migration this version of the app knows (a backup refuses to restore a database with others). */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

/**
 * Applies the migrations not yet applied; `only` limits them to those names (a restore rebuilds the schema an
 * archive was made with, and the next start applies the rest).
 */
export async function migrateToLatest(db: DB, only?: ReadonlySet<string>): Promise<string[]> {
  const chosen = only ? Object.fromEntries(Object.entries(migrations).filter(([name]) => only.has(name))) : migrations;
  // Unordered: migrations numbered in parallel (0012 to 0014) may reach a database in any order.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => chosen }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

type Holder = { db?: DB; dialect?: Dialect; raw?: RawDriver; url?: string; ready?: Promise<{ db: DB; dialect: Dialect; raw: RawDriver }> };
// Kept on globalThis so the dev server's module reloads reuse one connection.
const holder: Holder = ((globalThis as Record<string, unknown>).__appDb ??= {}) as Holder;

/** Opens the database named by DATABASE_URL once per process. */
export async function openDb(url: string): Promise<DB> {
  if (holder.db && holder.url === url) return holder.db;
  if (holder.db) await holder.db.destroy();
  holder.url = url;
  holder.ready = createDb(url);
  const { db, dialect, raw } = await holder.ready;
  holder.db = db;
  holder.dialect = dialect;
  holder.raw = raw;
  return db;
}

/**
 * Makes an already opened database (createDb) the one db() answers with, without closing the current one: for a
 * script that compares two databases side by side in one process (scripts/bench-enquiries.ts). The caller closes both.
 */
export function switchToOpenedDb(opened: { db: DB; dialect: Dialect; raw: RawDriver }, url: string): void {
  holder.db = opened.db;
  holder.dialect = opened.dialect;
  holder.raw = opened.raw;
  holder.url = url;
}

/**
 * A write run again if MySQL/MariaDB picks it as a deadlock's victim: in a transaction of its own (or the caller's),
 * as inTransaction runs them. For writes whose triggers update shared rows (the running totals of migrations 0170
 * and 0200): two writers creating new rows in one gap of their key can deadlock, and a single statement on its own
 * would fail. SQLite has one writer at a time: the write runs as it is.
 */
export async function retriedOnDeadlock<T>(work: () => Promise<T>): Promise<T> {
  return dialect() === "mysql" ? inTransaction(work) : work();
}

/** The transaction the current async call chain runs in, if any (see inTransaction), with its commit hooks. */
type TransactionScope = { trx: Transaction<Database>; beforeCommit: Map<string, () => Promise<void>>; afterCommit: Array<() => void> };
const currentTransaction = new AsyncLocalStorage<TransactionScope>();

/**
 * The database to query: inside inTransaction(), that transaction; otherwise the shared connection (pool).
 * Models always call db(), so a service can make several model calls one transaction without passing it around.
 */
export function db(): DB {
  const scope = currentTransaction.getStore();
  if (scope) return scope.trx;
  if (!holder.db) throw new Error("Database not opened: call openDb() at start");
  return holder.db;
}

/**
 * Runs `work` in one transaction: every db() call inside it (models included) uses that transaction, and it
 * commits when `work` resolves or rolls back when it throws. A nested call joins the outer transaction.
 * A deadlock victim (MySQL) is run again, up to four times: `work` must touch nothing but the database.
 * Keep slow work (password hashing, file processing, network) outside: on SQLite a transaction holds the
 * only connection, so every other request waits for it.
 */
export async function inTransaction<T>(work: () => Promise<T>): Promise<T> {
  if (currentTransaction.getStore()) return work();
  for (let attempt = 1; ; attempt++) {
    if (!holder.db) throw new Error("Database not opened: call openDb() at start");
    // A fresh scope per attempt: hooks a rolled-back attempt registered never run.
    let scope: TransactionScope | undefined;
    try {
      const result = await holder.db.transaction().execute((trx) => {
        scope = { trx, beforeCommit: new Map(), afterCommit: [] };
        return currentTransaction.run(scope, async () => {
          const value = await work();
          for (const hook of scope!.beforeCommit.values()) await hook();
          return value;
        });
      });
      for (const hook of scope!.afterCommit) hook();
      return result;
    } catch (error) {
      // InnoDB may pick this transaction as a deadlock's victim and roll it back whole; MySQL's advice is to run
      // it again. Safe because `work` only touches the database (files and mail come after the commit).
      if (attempt >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/**
 * Runs `hook` once at the end of the current transaction, just before it commits (once per key, however many
 * times it is asked for); outside a transaction, at once. For a write every transaction shares (one counter
 * row): taken last, its lock is held for the shortest time and never before another row's.
 */
export async function beforeCommit(key: string, hook: () => Promise<void>): Promise<void> {
  const scope = currentTransaction.getStore();
  if (scope) scope.beforeCommit.set(key, hook);
  else await hook();
}

/** Runs `hook` after the current transaction commits (never if it rolls back); outside a transaction, at once. */
export function afterCommit(hook: () => void): void {
  const scope = currentTransaction.getStore();
  if (scope) scope.afterCommit.push(hook);
  else hook();
}

const DEADLOCK_ATTEMPTS = 4;
const isDeadlock = (error: unknown) => (error as { code?: string } | null)?.code === "ER_LOCK_DEADLOCK";

/** True inside inTransaction(). */
export function inTransactionNow(): boolean {
  return currentTransaction.getStore() !== undefined;
}

/**
 * A read that must see the newest committed rows, not the transaction's snapshot: on MySQL/MariaDB (REPEATABLE READ)
 * a transaction reads from a snapshot taken at its first plain SELECT, so one that read anything before it queued
 * for a lock would still see the rows as they were before the holder of that lock committed. A locking read
 * (FOR UPDATE) reads the newest rows and keeps them locked until the commit. Use it only for rows every writer
 * changes under the same lock the caller already holds (e.g. a fee account's dues and payments under
 * lockFeeAccount), so no new lock order appears. SQLite has one writer at a time and needs nothing; outside a
 * transaction nothing is kept.
 */
export function newest<Q extends { forUpdate(): Q }>(query: Q): Q {
  return dialect() === "mysql" && inTransactionNow() ? query.forUpdate() : query;
}

export function rawDriver(): RawDriver {
  if (!holder.raw) throw new Error("Database not opened: call openDb() at start");
  return holder.raw;
}

export function dialect(): Dialect {
  return holder.dialect ?? "sqlite";
}

export async function closeDb(): Promise<void> {
  const current = holder.db;
  holder.db = undefined;
  holder.raw = undefined;
  holder.url = undefined;
  if (current) await current.destroy();
}
