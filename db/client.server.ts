import fs from "node:fs";
import path from "node:path";
import { Kysely, Migrator, MysqlDialect, SqliteDialect, type Migration } from "kysely";
import type { Database } from "./schema";
import * as m0001 from "./migrations/0001-initial";
import * as m0002 from "./migrations/0002-list-order-indexes";
import * as m0003 from "./migrations/0003-phone-digits";
import * as m0004 from "./migrations/0004-revoked-sessions";

// Migrations are listed here rather than read from a folder so they survive bundling into the server build.
const migrations: Record<string, Migration> = {
  "0001-initial": m0001,
  "0002-list-order-indexes": m0002,
  "0003-phone-digits": m0003,
  "0004-revoked-sessions": m0004,
};

export type DB = Kysely<Database>;
export type Dialect = "sqlite" | "mysql";

export async function createDb(url: string): Promise<{ db: DB; dialect: Dialect }> {
  if (url.startsWith("file:")) {
    const { default: SQLite } = await import("better-sqlite3");
    const file = url.slice("file:".length);
    if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const database = new SQLite(file);
    // WAL + synchronous=FULL: a committed write survives a crash of the process or the machine.
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = FULL");
    database.pragma("foreign_keys = ON");
    database.pragma("busy_timeout = 5000");
    return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }), dialect: "sqlite" };
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
    return { db: new Kysely<Database>({ dialect: new MysqlDialect({ pool }) }), dialect: "mysql" };
  }
  throw new Error("DATABASE_URL must start with file: or mysql://");
}

export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

type Holder = { db?: DB; dialect?: Dialect; url?: string; ready?: Promise<{ db: DB; dialect: Dialect }> };
// Kept on globalThis so the dev server's module reloads reuse one connection.
const holder: Holder = ((globalThis as Record<string, unknown>).__appDb ??= {}) as Holder;

/** Opens the database named by DATABASE_URL once per process. */
export async function openDb(url: string): Promise<DB> {
  if (holder.db && holder.url === url) return holder.db;
  if (holder.db) await holder.db.destroy();
  holder.url = url;
  holder.ready = createDb(url);
  const { db, dialect } = await holder.ready;
  holder.db = db;
  holder.dialect = dialect;
  return db;
}

export function db(): DB {
  if (!holder.db) throw new Error("Database not opened: call openDb() at start");
  return holder.db;
}

export function dialect(): Dialect {
  return holder.dialect ?? "sqlite";
}

export async function closeDb(): Promise<void> {
  const current = holder.db;
  holder.db = undefined;
  holder.url = undefined;
  if (current) await current.destroy();
}
