// Shared by scripts/crash-test.js and scripts/sigterm-test.js: start the built server on a temporary SQLite
// database, drive it with unique enquiries over a fixed number of keep-alive connections, read the result back.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function parseArgs(defaults) {
  const args = { ...defaults };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([\w-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) continue;
    const key = m[1].replace(/-(\w)/g, (_, c) => c.toUpperCase());
    const value = m[2] ?? argv[++i];
    args[key] = typeof defaults[key] === "number" ? Number(value) : value;
  }
  return args;
}

export function makeWorkspace(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, dbFile: path.join(dir, "app.db"), uploadDir: path.join(dir, "uploads") };
}

/** Which way in to use: --via api|form, else the JSON API when it exists, else the /enquiry form action. */
export function enquiryTarget(via = "") {
  const api = { path: "/api/enquiries", kind: "json" };
  const form = { path: "/enquiry", kind: "form" };
  if (via === "form") return form;
  if (via === "api") return api;
  return fs.existsSync(path.join(ROOT, "app/routes/api.enquiries.ts")) ? api : form;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `node server/index.js`; resolves once /healthz answers. The build is made first if missing or stale. */
export async function startServer({ port, workspace, skipBuildCheck }) {
  let log = "";
  const proc = spawn(process.execPath, ["server/index.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: `file:${workspace.dbFile}`,
      UPLOAD_DIR: workspace.uploadDir,
      SESSION_SECRET: "crash-test-secret-0123456789-0123456789-0123456789",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "crash-Admin-password-1",
      SEED_DEMO: "true",
      RATE_LIMIT: "off",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...(skipBuildCheck ? { SKIP_BUILD_CHECK: "1" } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout.on("data", (d) => (log += d));
  proc.stderr.on("data", (d) => (log += d));
  const exited = new Promise((resolve) => proc.on("exit", (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`Server exited during start:\n${log}`);
    const ok = await new Promise((resolve) => {
      const req = http.get({ host: "127.0.0.1", port, path: "/healthz", agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on("error", () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`Server did not start:\n${log}`);
    await sleep(200);
  }
  return { proc, exited, log: () => log };
}

export function enquiryBody(email, kind) {
  const fields = {
    fullName: `Crash Test ${email.split("@")[0]}`,
    email,
    phone: "98765 43210",
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    message: "Durability test enquiry",
  };
  if (kind === "json") return { body: JSON.stringify(fields), type: "application/json" };
  return { body: new URLSearchParams(fields).toString(), type: "application/x-www-form-urlencoded" };
}

/** One POST; resolves with the status, or rejects with the socket error (its code tells reset from refused). */
export function postEnquiry(agent, port, target, email) {
  const { body, type } = enquiryBody(email, target.kind);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method: "POST", path: target.path, agent, headers: { "Content-Type": type, "Content-Length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A success the server acknowledged: 201 from the API; 200 from the form action (its errors are 4xx/5xx). */
export function acknowledged(status, target) {
  return target.kind === "json" ? status === 201 : status === 200;
}

/** Emails of the stored test enquiries, and SQLite's own integrity verdict, read straight from the file. */
export function readBack(dbFile, prefix) {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT email FROM enquiries WHERE email LIKE ?").all(`${prefix}%`);
    const integrity = db.pragma("integrity_check", { simple: true });
    return { emails: new Set(rows.map((r) => r.email)), integrity };
  } finally {
    db.close();
  }
}
