// Starts the built server on a brand-new temporary SQLite database with demo content, for Playwright.
// Several of these start at once (one per Playwright project), so the build runs under a lock first.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const lock = path.join(os.tmpdir(), `soc-e2e-build-${(process.env.BUILD_DIR || "build").replace(/\W/g, "_")}.lock`);

function buildOnce() {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is stale after five minutes.
      if (Date.now() - fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 5 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    const r = spawnSync(process.execPath, [path.join(root, "server/index.js"), "--build-only"], { stdio: "inherit", cwd: root });
    if (r.status !== 0) process.exit(r.status ?? 1);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

buildOnce();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-e2e-"));
const port = process.env.E2E_PORT || "3210";
Object.assign(process.env, {
  NODE_ENV: "production",
  SKIP_BUILD_CHECK: "1",
  PORT: port,
  HOST: "127.0.0.1",
  DATABASE_URL: `file:${path.join(dir, "app.db")}`,
  UPLOAD_DIR: path.join(dir, "uploads"),
  SESSION_SECRET: "e2e-secret-0123456789-0123456789-0123456789",
  ADMIN_EMAIL: "admin@example.com",
  ADMIN_PASSWORD: "e2e-Admin-password-1",
  SEED_DEMO: "true",
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  RATE_LIMIT: process.env.E2E_RATE_LIMIT || "off",
  // Staff change content and the spec reads the public page next: switched at once (the warm-up has its own tests).
  PAGE_CACHE_GRACE_SECONDS: process.env.PAGE_CACHE_GRACE_SECONDS || "0",
});
const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
process.on("exit", cleanup);
await import("../../server/index.js");
