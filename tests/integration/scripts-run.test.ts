import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_BUILD_DIR, ensureBuilt } from "../helpers/api-server";

/**
 * Every script in scripts/ runs here on small data (issue 30): a schema or API change that breaks one fails CI
 * instead of leaving it to rot until someone needs it (scripts/bench-enquiries.ts once stopped at "table
 * enquiries has no column named possibleDuplicate" and nobody noticed). Each runs as an operator would run it,
 * with the smallest options it has; the benches print numbers, and only their finishing cleanly is checked.
 * A script added to scripts/ without a run here fails the first test.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const MYSQL = process.env.TEST_MYSQL_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-scripts-"));
const PORT = Number(process.env.SCRIPTS_TEST_PORT ?? 3790);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Shared by other scripts, not run on their own. */
const LIBRARIES = new Set(["crash-test-lib.js"]);

/** What runs each script (MySQL-only ones run in `npm run test:mysql`). */
const RUNS: Record<string, string> = {
  "db.ts": "migrate, then seed the demo content",
  "backup.ts": "backs up the seeded database",
  "restore.ts": "restores that archive into a new folder",
  "privacy-erasures.ts": "lists erasures since a day",
  "privacy-breach-list.ts": "lists a window's people",
  "lint-openapi.ts": "lints the API document",
  "bench-enquiries.ts": "--quick (1,000 enquiries, one run)",
  "bench.ts": "one round of one second",
  "bench-enquiry-post.ts": "one round of one second, this checkout against itself",
  "bench-upload-flood.ts": "one round of two small uploads",
  "bench-export.ts": "2,000 enquiries exported over HTTP, plain and gzipped",
  "crash-test.js": "one round",
  "sigterm-test.js": "one round",
  "bench-instances.ts": "MySQL only: one round of one second",
};

type Run = { code: number | null; stdout: string; stderr: string };

function run(script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Run> {
  const command = script.endsWith(".ts") ? [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), `scripts/${script}`] : [`scripts/${script}`];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...command, ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? os.tmpdir(),
        NODE_ENV: "development",
        SEED_DEMO: "false",
        SESSION_SECRET: "scripts-test-secret-0123456789-0123456789",
        BACKUP_KEY: "scripts-test-backup-key-0123456789-0123456789",
        BUILD_DIR: API_BUILD_DIR,
        API_TEST_BUILD_DIR: API_BUILD_DIR,
        ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const ok = (r: Run) => expect(r.code, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`).toBe(0);

it("has a run for every script in scripts/", () => {
  const scripts = fs.readdirSync(path.join(ROOT, "scripts")).filter((f) => /\.(ts|js)$/.test(f) && !LIBRARIES.has(f));
  expect(scripts.filter((f) => !(f in RUNS))).toEqual([]);
});

describe("the database scripts on a small SQLite database", () => {
  const data = path.join(dir, "data");
  const env = { DATABASE_URL: `file:${path.join(data, "app.db")}`, UPLOAD_DIR: path.join(data, "uploads"), BACKUP_DIR: path.join(data, "backups") };
  let archive = "";

  it("db.ts migrates and seeds", async () => {
    const migrate = await run("db.ts", ["migrate"], env);
    ok(migrate);
    expect(migrate.stdout).toMatch(/Applied migrations|up to date/);
    ok(await run("db.ts", ["seed"], { ...env, SEED_DEMO: "true" }));
  }, 120_000);

  it("backup.ts and restore.ts", async () => {
    const backup = await run("backup.ts", [], env);
    ok(backup);
    archive = backup.stdout.trim().split("\n").at(-1)!;
    expect(fs.existsSync(archive)).toBe(true);
    const restored = path.join(dir, "restored");
    const restore = await run("restore.ts", [archive], { DATABASE_URL: `file:${path.join(restored, "app.db")}`, UPLOAD_DIR: path.join(restored, "uploads") });
    ok(restore);
    expect(restore.stdout).toMatch(/Restored \d+ rows/);
  }, 120_000);

  it("privacy-erasures.ts and privacy-breach-list.ts", async () => {
    const erasures = await run("privacy-erasures.ts", ["--since", "2020-01-01T00:00:00Z"], env);
    ok(erasures);
    expect(JSON.parse(erasures.stdout)).toHaveProperty("enquiries");
    const today = new Date().toISOString().slice(0, 10);
    const breach = await run("privacy-breach-list.ts", ["--from", "2020-01-01", "--to", today, "--format", "json"], env);
    ok(breach);
    expect(() => JSON.parse(breach.stdout)).not.toThrow();
  }, 120_000);
});

it("lint-openapi.ts", async () => ok(await run("lint-openapi.ts", [])), 120_000);

it("bench-enquiries.ts --quick: every list, the dashboard, the API and the query plans", async () => {
  const r = await run("bench-enquiries.ts", ["--quick"], {}, 110_000);
  ok(r);
  expect(r.stdout).toContain("| Dashboard");
  expect(r.stdout).toContain("Query plans (EXPLAIN)");
  expect(r.stdout).toMatch(/CSV export of all 1,000/);
}, 120_000);

describe("the scripts that start the production server", () => {
  beforeAll(() => ensureBuilt(), 600_000);

  it("bench.ts, one round of one second", async () => {
    const r = await run("bench.ts", ["--seconds", "1", "--rounds", "1", "--connections", "2"], {}, 120_000);
    ok(r);
    expect(r.stdout).toMatch(/Node\.js v\d+/);
  }, 130_000);

  it("crash-test.js, one round", async () => {
    ok(await run("crash-test.js", ["--rounds", "1", "--concurrency", "4", "--port", String(PORT)], {}, 90_000));
  }, 100_000);

  it("sigterm-test.js, one round: every acknowledged enquiry kept, the database closed whole", async () => {
    const r = await run("sigterm-test.js", ["--rounds", "1", "--concurrency", "4", "--port", String(PORT + 1)], {}, 90_000);
    // The script's own verdict also fails on connection resets right after SIGTERM (a known weakness, see the README's
    // "Stopping and restarting"): a reset request was never acknowledged, so the visitor sees an error and nothing is
    // lost. This run holds the script to running at all and to what must never happen.
    expect(r.stdout, r.stderr).toMatch(/round 1: exit code 0 .*unanswered 0\).*lost 0, database closed true, integrity_check ok/);
  }, 100_000);

  it("bench-upload-flood.ts, one small round", async () => {
    const args = ["--requests", "2", "--files", "1", "--megapixels", "1", "--rounds", "1", "--port", String(PORT + 2)];
    ok(await run("bench-upload-flood.ts", args, {}, 120_000));
  }, 130_000);

  it("bench-export.ts, 2,000 enquiries exported over HTTP", async () => {
    const r = await run("bench-export.ts", ["2000"], {}, 120_000);
    ok(r);
    expect(r.stdout).toMatch(/\| [\d,]+ \| gzip \| \d+ ms \|/);
  }, 130_000);

  it("bench-enquiry-post.ts, this checkout against itself", async () => {
    ok(await run("bench-enquiry-post.ts", ["--before", ROOT, "--seconds", "1", "--rounds", "1", "--connections", "2"], {}, 120_000));
  }, 130_000);

  it.skipIf(!MYSQL)(
    "bench-instances.ts, one round of one second (MySQL)",
    async () => {
      ok(await run("bench-instances.ts", ["--seconds", "1", "--rounds", "1", "--concurrency", "2"], { TEST_MYSQL_URL: MYSQL! }, 120_000));
    },
    130_000,
  );
});
