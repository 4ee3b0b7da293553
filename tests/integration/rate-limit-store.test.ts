import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db, inTransaction } from "~db/client.server";
import { signIn as signInService } from "~/services/auth.server";
import { isServiceError } from "~/services/service-error";
import { createUserWithoutActor as createUser } from "~/services/users.server";
import { beginLoginAttempt, consumeFormAttempt, resetRateLimits } from "~/infra/rate-limit.server";
import { insertUser, updateUserRow as updateUser } from "~/models/user.server";
import { hashPassword } from "~/infra/password.server";
import { ADMIN, apiClient, ensureBuilt, freshDatabase, launchServer, type RunningServer } from "../helpers/api-server";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";

/**
 * Rate-limit counts kept in the database: a lock-out outlives the process, two processes share one count,
 * and every spelling of an address that reaches an account counts against that account. Runs on SQLite, and
 * on MariaDB with TEST_MYSQL_URL.
 */

// Before any module reads them: throttling on, three failures per account and IP, two form posts per IP.
const LIMITS = vi.hoisted(() => {
  const limits = {
    RATE_LIMIT: "on",
    LOGIN_RATE_LIMIT_ACCOUNT: "3",
    LOGIN_RATE_LIMIT_ACCOUNT_TOTAL: "6",
    LOGIN_RATE_LIMIT_IP: "50",
    LOGIN_BLOCK_SECONDS: "60",
    FORM_RATE_LIMIT: "2",
    FORM_RATE_WINDOW: "600",
  };
  Object.assign(process.env, limits);
  return limits;
});

const mysql = Boolean(process.env.TEST_MYSQL_URL);

// A fresh migrated database for the in-process tests (named apart from React hooks for the linter).
setupTestDatabase();

/** One sign-in through the service the routes use: counted first, then the password checked, then the outcome recorded. */
async function signIn(ip: string, email: string, password: string): Promise<"ok" | "wrong" | "limited"> {
  try {
    await signInService({ email, password }, { user: null, ip });
    return "ok";
  } catch (error) {
    if (isServiceError(error, "unauthorized")) return "wrong";
    if (isServiceError(error, "tooMany")) return "limited";
    throw error;
  }
}

/** Which user an address and password sign in as (a fresh address each time, so the limits stay out of it). */
let probe = 0;
const verifyLogin = (email: string, password: string) => signInService({ email, password }, { user: null, ip: `198.18.0.${++probe}` });

describe("one account, however its address is typed", () => {
  const password = "right-password-1";
  let adminId = "";
  beforeAll(async () => {
    adminId = (await createUser({ name: "Admin", email: "admin@example.com", password, role: "admin" })).id;
  });
  beforeEach(async () => {
    await resetRateLimits();
  });

  it("counts case and spacing variants against the account, so the real address is locked out too", async () => {
    expect(await signIn("192.0.2.1", "ADMIN@example.com", "wrong-1")).toBe("wrong");
    expect(await signIn("192.0.2.1", "  admin@example.com ", "wrong-2")).toBe("wrong");
    expect(await signIn("192.0.2.1", "Admin@EXAMPLE.COM", "wrong-3")).toBe("wrong");
    expect(await signIn("192.0.2.1", "admin@example.com", password)).toBe("limited");
  });

  it("never lets an accented look-alike reach the account, so it cannot be used for fresh tries", async () => {
    for (const email of ["admin@example.com", "ADMIN@example.com"]) expect(await signIn("192.0.2.2", email, `wrong-${email}`)).toBe("wrong");
    // The right password through look-alikes: no user matches, so the account's password is never checked.
    for (const email of ["ádmin@example.com", "a\u0301dmin@example.com", " ÁDMIN@example.com "]) {
      expect(await signIn("192.0.2.2", email, password), email).toBe("wrong");
    }
    // The account's own count is where it was: one more failure locks it.
    expect(await signIn("192.0.2.2", "admin@example.com", "wrong-3")).toBe("wrong");
    expect(await signIn("192.0.2.2", "admin@example.com", password)).toBe("limited");
  });

  it("counts an unknown address once however it is typed (case, spaces, composed or decomposed accents)", async () => {
    expect(await signIn("192.0.2.3", "josé@example.com", "x")).toBe("wrong");
    expect(await signIn("192.0.2.3", " JOSÉ@example.com", "x")).toBe("wrong");
    expect(await signIn("192.0.2.3", "jose\u0301@example.com", "x")).toBe("wrong");
    expect(await signIn("192.0.2.3", "JOSE\u0301@EXAMPLE.COM", "x")).toBe("limited");
  });

  it("keeps the count with the account when its e-mail changes", async () => {
    expect(await signIn("192.0.2.4", "admin@example.com", "wrong-1")).toBe("wrong");
    expect(await signIn("192.0.2.4", "admin@example.com", "wrong-2")).toBe("wrong");
    await updateUser(adminId, { email: "boss@example.com" });
    try {
      expect(await signIn("192.0.2.4", "boss@example.com", "wrong-3")).toBe("wrong");
      expect(await signIn("192.0.2.4", "boss@example.com", password)).toBe("limited");
    } finally {
      await updateUser(adminId, { email: "admin@example.com" });
    }
  });

  it("keeps two addresses that differ only by an accent apart, and the address unique and required", async () => {
    // The forms refuse such an address; rows from before that rule, or made by hand, may still have one.
    const other = await insertUser({ name: "Ádmin", email: "ádmin@example.com", passwordHash: await hashPassword("other-password-1") });
    expect(other.id).not.toBe(adminId);
    expect((await verifyLogin("ádmin@example.com", "other-password-1")).id).toBe(other.id);
    expect((await verifyLogin("admin@example.com", password)).id).toBe(adminId);
    const row = { name: "Copy", passwordHash: "x", role: "editor", createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };
    await expect(
      db()
        .insertInto("users")
        .values({ ...row, id: "dup-1", email: "admin@example.com" })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db()
        .insertInto("users")
        .values({ ...row, id: "null-1", email: null as unknown as string })
        .execute(),
    ).rejects.toThrow();
  });

  // The bug the user-id key closes, shown on the collation MariaDB databases had before migration 0006.
  it.runIf(mysql)("counts a look-alike that sign-in matches to the account against that account (accent-insensitive collation)", async () => {
    // The look-alike user an earlier test made would be a duplicate under this collation.
    await db().deleteFrom("users").where("email", "=", "ádmin@example.com").where("id", "!=", adminId).execute();
    await sql`alter table users modify email varchar(254) character set utf8mb4 collate utf8mb4_unicode_ci not null`.execute(db());
    try {
      expect((await verifyLogin("ádmin@example.com", password)).id).toBe(adminId);
      for (const email of ["ádmin@example.com", "àdmin@example.com", "ÄDMIN@example.com"]) expect(await signIn("192.0.2.5", email, "wrong")).toBe("wrong");
      expect(await signIn("192.0.2.5", "admin@example.com", password)).toBe("limited");
    } finally {
      await sql`alter table users modify email varchar(254) character set utf8mb4 collate utf8mb4_bin not null`.execute(db());
    }
  });

  it.runIf(mysql)("stores addresses and limiter keys with a binary collation on MySQL", async () => {
    const { rows } = await sql<{ TABLE_NAME: string; COLUMN_NAME: string; COLLATION_NAME: string; IS_NULLABLE: string }>`
      select TABLE_NAME, COLUMN_NAME, COLLATION_NAME, IS_NULLABLE from information_schema.COLUMNS
      where TABLE_SCHEMA = database() and ((TABLE_NAME = 'users' and COLUMN_NAME = 'email') or (TABLE_NAME = 'rate_limits' and COLUMN_NAME = 'key'))
      order by TABLE_NAME`.execute(db());
    expect(rows.map((r) => [r.TABLE_NAME, r.COLLATION_NAME, r.IS_NULLABLE])).toEqual([
      ["rate_limits", "utf8mb4_bin", "NO"],
      ["users", "utf8mb4_bin", "NO"],
    ]);
  });
});

describe("counts in the database", () => {
  beforeEach(async () => {
    await resetRateLimits();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps a count made while another request's transaction is open, when that transaction rolls back", async () => {
    // The first call after a reset also clears expired rows through Kysely; get that out of the way.
    await consumeFormAttempt("198.51.100.6", "contact");
    let inside!: () => void;
    const started = new Promise<void>((r) => (inside = r));
    let finish!: () => void;
    const held = new Promise<void>((r) => (finish = r));
    const transaction = inTransaction(async () => {
      await db().deleteFrom("users").where("email", "=", "nobody@example.com").execute();
      inside();
      await held;
      throw new Error("rolled back on purpose");
    }).catch((error: Error) => error.message);
    await started;
    const counted = consumeFormAttempt("198.51.100.7", "contact");
    await new Promise((r) => setTimeout(r, 50));
    finish();
    expect(await transaction).toBe("rolled back on purpose");
    expect(await counted).toEqual({ ok: true });
    expect(await consumeFormAttempt("198.51.100.7", "contact")).toEqual({ ok: true });
    expect((await consumeFormAttempt("198.51.100.7", "contact")).ok).toBe(false);
  });

  it("refuses to count inside inTransaction(), where a rollback would take the count with it", async () => {
    await expect(inTransaction(() => consumeFormAttempt("198.51.100.8", "enquiry"))).rejects.toThrow(/inTransaction/);
    await expect(inTransaction(() => beginLoginAttempt("198.51.100.8", "a@example.com"))).rejects.toThrow(/inTransaction/);
  });

  it("clears rows whose window ended, so the table does not grow with every address ever seen", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let i = 0; i < 5; i++) await consumeFormAttempt(`203.0.113.${i}`, "enquiry");
    await signIn("203.0.113.9", "someone@example.com", "x");
    const rows = async () => (await db().selectFrom("rate_limits").select("key").execute()).map((r) => r.key).sort();
    expect(await rows()).toHaveLength(8);
    // Past every window (forms 10 minutes, sign-in 1 hour, block counts 1 day) and the clean-up's grace hour.
    vi.advanceTimersByTime(26 * 3600_000);
    await consumeFormAttempt("203.0.113.200", "contact");
    expect(await rows()).toEqual(["contact:203.0.113.200"]);
  });
});

describe("the built server", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-rate-store-"));
  const running: RunningServer[] = [];
  const drops: (() => Promise<void>)[] = [];
  const client = (s: RunningServer) => apiClient({ url: s.url, uploadDir: "", databaseUrl: "", output: s.output });
  const login = (s: RunningServer, email: string, password: string) => client(s).post("/api/auth/login", { json: { email, password } });
  const contact = (s: RunningServer) => client(s).post("/api/contact-queries", { json: { name: "Limit", email: "l@example.com", message: "Hi" } });

  async function database(name: string) {
    const made = await freshDatabase(fs.mkdtempSync(path.join(dir, name)));
    drops.push(made.drop);
    return made.url;
  }
  async function start(databaseUrl: string) {
    const s = await launchServer({ databaseUrl, uploadDir: path.join(dir, "uploads"), env: LIMITS });
    running.push(s);
    return s;
  }

  beforeAll(async () => {
    await ensureBuilt();
  }, 6 * 60_000);
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    for (const drop of drops) await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("keeps an account locked out, and a form's count, after the process crashes and starts again", async () => {
    const url = await database("restart-");
    const first = await start(url);
    for (const email of [ADMIN.email, ` ${ADMIN.email.toUpperCase()} `, ADMIN.email]) expect((await login(first, email, "wrong-password")).status).toBe(401);
    expect((await login(first, ADMIN.email, ADMIN.password)).status).toBe(429);
    expect((await contact(first)).status).toBe(201);
    expect((await contact(first)).status).toBe(201);
    await first.stop("SIGKILL");

    const second = await start(url);
    const locked = await login(second, ADMIN.email, ADMIN.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(30);
    expect((await login(second, ADMIN.email.toUpperCase(), ADMIN.password)).status).toBe(429);
    // A look-alike address reaches no account: it is refused, never signed in.
    expect((await login(second, ADMIN.email.replace("a", "á"), ADMIN.password)).status).toBe(401);
    expect((await contact(second)).status).toBe(429);
    await second.stop();
  }, 180_000);

  it("shares one count between two processes on one database", async () => {
    const url = await database("shared-");
    // One after the other: the first start migrates and seeds, the second finds it done.
    const a = await start(url);
    const b = await start(url);
    expect((await login(a, ADMIN.email, "wrong-1")).status).toBe(401);
    expect((await login(b, ADMIN.email, "wrong-2")).status).toBe(401);
    expect((await login(a, ADMIN.email, "wrong-3")).status).toBe(401);
    expect((await login(b, ADMIN.email, ADMIN.password)).status).toBe(429);
    expect((await login(a, ADMIN.email, ADMIN.password)).status).toBe(429);
    expect((await contact(a)).status).toBe(201);
    expect((await contact(b)).status).toBe(201);
    expect((await contact(a)).status).toBe(429);
    expect((await contact(b)).status).toBe(429);
    await Promise.all([a.stop(), b.stop()]);
  }, 180_000);
});
