import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "./ports";

/**
 * The BUILT server (node server/index.js) on a fresh database with the demo seed, for API tests over real
 * HTTP: a new SQLite file, or a new MySQL/MariaDB database when TEST_MYSQL_URL is set (dropped afterwards).
 * Each test file gets its own server on a free port. The build is shared: the first file to find it stale
 * rebuilds it while holding a lock, so parallel files never build into the same folder at once.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
export const API_BUILD_DIR = process.env.API_TEST_BUILD_DIR || process.env.BUILD_DIR || "build-api";
export const API_SECRET = "api-test-secret-0123456789-0123456789-0123456789";
export const ADMIN = { email: "admin@example.com", password: "api-Admin-password-1" };

/** `databaseUrl` lets a test put rows in place that no API call can make (audit log entries at given times). */
export type ApiServer = { url: string; uploadDir: string; databaseUrl: string; output: () => string };

function newestSourceTime(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of ["app", "db", "server", "public"]) if (fs.existsSync(path.join(ROOT, dir))) walk(path.join(ROOT, dir));
  for (const file of ["package.json", "vite.config.ts", "react-router.config.ts"]) newest = Math.max(newest, fs.statSync(path.join(ROOT, file)).mtimeMs);
  return newest;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withBuildLock<T>(fn: () => T): Promise<T> {
  const lock = path.join(os.tmpdir(), `soc-api-build-${API_BUILD_DIR.replace(/[^\w-]/g, "_")}.lock`);
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A lock left by a killed run is older than any real build.
      const age = Date.now() - fs.statSync(lock, { throwIfNoEntry: false })!.mtimeMs;
      if (age > 10 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the build lock ${lock}`);
      await sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export async function ensureBuilt(): Promise<void> {
  await withBuildLock(() => {
    const entry = path.join(ROOT, API_BUILD_DIR, "server/index.js");
    if (fs.existsSync(entry) && fs.statSync(entry).mtimeMs >= newestSourceTime()) return;
    const result = spawnSync(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/bin.js"), "build"], {
      cwd: ROOT,
      env: { ...process.env, BUILD_DIR: API_BUILD_DIR, NODE_ENV: "production" },
      encoding: "utf8",
      timeout: 5 * 60_000,
    });
    if (result.status !== 0) throw new Error(`Build failed:\n${`${result.stdout}\n${result.stderr}`.slice(-4000)}`);
  });
}

export async function freshDatabase(dir: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_MYSQL_URL;
  if (!base) return { url: `file:${path.join(dir, "app.db")}`, drop: async () => {} };
  const name = `soc_api_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const { createConnection } = await import("mysql2/promise");
  const admin = await createConnection({ uri: base });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const conn = await createConnection({ uri: base });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`The server did not become healthy:\n${output()}`);
}

/** `stop()` shuts down gracefully (SIGTERM); `stop("SIGKILL")` is a crash. Either waits for the exit. */
export type RunningServer = { url: string; output: () => string; stop: (signal?: NodeJS.Signals) => Promise<void> };

/**
 * Starts the built server on an existing database and waits until it is healthy. Several may run on one database, or one after another (a restart).
 * Call ensureBuilt() first.
 */
export async function launchServer(opts: { databaseUrl: string; uploadDir: string; env?: Record<string, string>; port?: number }): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const output = () => log;
  const child = spawn(process.execPath, [path.join(ROOT, "server/index.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR: API_BUILD_DIR,
      SKIP_BUILD_CHECK: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: opts.databaseUrl,
      UPLOAD_DIR: opts.uploadDir,
      SESSION_SECRET: API_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: "true",
      PUBLIC_URL: url,
      RATE_LIMIT: "off",
      // A test reads a public page right after the change it made: switched at once, no previous copy served while
      // the new one warms (that path has tests of its own: page-cache-warming-instances.test.ts).
      PAGE_CACHE_GRACE_SECONDS: "0",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    await Promise.race([exited, sleep(15_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  try {
    await waitForHealth(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, output, stop };
}

/** Signs in through the back office's form at `baseUrl` and returns the session cookie ("__session=…") for a Cookie header. */
export async function signInCookie(baseUrl: string, who: { email: string; password: string } = ADMIN): Promise<string> {
  const res = await fetch(`${baseUrl}/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ email: who.email, password: who.password }),
    redirect: "manual",
  });
  const set = res.headers.getSetCookie().find((c) => c.startsWith("__session="));
  if (!set) throw new Error(`sign-in at ${baseUrl} gave no session cookie (${res.status})`);
  return set.split(";")[0];
}

/** Starts a server in beforeAll and stops it (and drops its data) in afterAll. `env` adds or overrides variables. */
export function startApiServer(env: Record<string, string> = {}): ApiServer {
  const server: ApiServer = { url: "", uploadDir: "", databaseUrl: "", output: () => "" };
  let cleanup = async () => {};

  beforeAll(async () => {
    await ensureBuilt();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-api-"));
    const db = await freshDatabase(dir);
    server.uploadDir = path.join(dir, "uploads");
    server.databaseUrl = db.url;
    const removeData = async () => {
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    // A server that does not become healthy is stopped by launchServer; its data still goes.
    cleanup = removeData;
    const running = await launchServer({ databaseUrl: db.url, uploadDir: server.uploadDir, env });
    cleanup = async () => {
      await running.stop();
      await removeData();
    };
    server.url = running.url;
    server.output = running.output;
  }, 6 * 60_000);

  afterAll(async () => {
    await cleanup();
  }, 30_000);

  return server;
}

// Tests read whatever shape each endpoint answers; the assertions are the type check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Reply = { status: number; headers: Headers; body: any; text: string };
export type CallOptions = { token?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> };

/** A small HTTP client for the API: JSON in and out, an optional bearer token. */
export function apiClient(server: ApiServer) {
  async function call(method: string, urlPath: string, opts: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    let body = opts.body;
    if (opts.json !== undefined) {
      headers["Content-Type"] ??= "application/json";
      body = JSON.stringify(opts.json);
    }
    const res = await fetch(`${server.url}${urlPath}`, { method, headers, body, redirect: "manual" });
    const text = await res.text();
    let parsed: unknown = undefined;
    if ((res.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }
  async function login(email: string, password: string): Promise<string> {
    const r = await call("POST", "/api/auth/login", { json: { email, password } });
    if (r.status !== 200) throw new Error(`login ${email} failed: ${r.status} ${r.text}`);
    return r.body.token as string;
  }
  /** An admin token, and an editor made through the API with its token. */
  async function staffTokens(): Promise<{ admin: string; editor: string; adminId: string; editorId: string }> {
    const admin = await login(ADMIN.email, ADMIN.password);
    const email = `editor-${randomBytes(4).toString("hex")}@example.com`;
    const made = await call("POST", "/api/auth/register", { token: admin, json: { name: "Eddie Editor", email, password: "editor-password-1" } });
    if (made.status !== 201) throw new Error(`register failed: ${made.status} ${made.text}`);
    const editor = await login(email, "editor-password-1");
    const me = await call("GET", "/api/auth/me", { token: admin });
    return { admin, editor, adminId: me.body.data.id, editorId: made.body.data.id };
  }
  return {
    call,
    login,
    staffTokens,
    get: (p: string, o?: CallOptions) => call("GET", p, o),
    post: (p: string, o?: CallOptions) => call("POST", p, o),
    put: (p: string, o?: CallOptions) => call("PUT", p, o),
    del: (p: string, o?: CallOptions) => call("DELETE", p, o),
  };
}
