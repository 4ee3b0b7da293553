import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { closeDb, db, migrateToLatest, openDb } from "~db/client.server";

/**
 * A real, empty, migrated database for one test file: a new SQLite file, or, when TEST_MYSQL_URL is set
 * (mysql://user:pass@host:port), a new MySQL/MariaDB database created here and dropped afterwards.
 */
export function useTestDatabase() {
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const mysqlBase = process.env.TEST_MYSQL_URL;
    let url: string;
    if (mysqlBase) {
      const name = `soc_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
      const { createConnection } = await import("mysql2/promise");
      const admin = await createConnection({ uri: mysqlBase });
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await admin.end();
      const u = new URL(mysqlBase);
      u.pathname = `/${name}`;
      url = u.toString();
      cleanup = async () => {
        const conn = await createConnection({ uri: mysqlBase });
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.end();
      };
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-test-db-"));
      url = `file:${path.join(dir, "test.db")}`;
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    process.env.DATABASE_URL = url;
    await openDb(url);
    await migrateToLatest(db());
  });
  afterAll(async () => {
    await closeDb();
    await cleanup();
  });
}

/** Empties every table (children first), for tests that need a clean slate. */
export async function clearTables() {
  for (const table of ["schedules", "courses", "reviews", "enquiries", "contact_queries", "users"] as const) {
    await db().deleteFrom(table).execute();
  }
}
