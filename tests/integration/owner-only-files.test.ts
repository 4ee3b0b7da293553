import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, launchServer, type RunningServer } from "../helpers/api-server";

/**
 * The database, its WAL, the uploads and the backups hold personal data and password hashes: they are the app
 * user's alone (issue 36). Everything here runs with umask 000, as some service managers leave it, so a mode
 * that depended on the umask would show as 0666/0777: files are 0600 and folders 0700 after the first start,
 * after an upload, after a backup and after a restore; an install from before (loose modes, a setuid bit) is
 * tightened at the next start with one log line. SQLite, for its files; the uploads and backups are the same
 * whatever the engine.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-owner-only-"));
const BACKUP_KEY = "owner-only-test-key-0123456789-0123456789";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
let umask = 0;
const servers: RunningServer[] = [];

beforeAll(async () => {
  await ensureBuilt();
  umask = process.umask(0);
}, 300_000);

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  process.umask(umask);
  fs.rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string) => (fs.statSync(file).mode & 0o7777).toString(8);

function modes(files: string[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [path.relative(dir, f), modeOf(f)]));
}

const expectModes = (files: string[], mode: string) => expect(modes(files)).toEqual(Object.fromEntries(files.map((f) => [path.relative(dir, f), mode])));

function cli(script: "backup" | "restore", args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), `scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), NODE_ENV: "development", SEED_DEMO: "false", BACKUP_KEY, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

async function start(folder: string): Promise<RunningServer> {
  const server = await launchServer({
    databaseUrl: `file:${path.join(folder, "app.db")}`,
    uploadDir: path.join(folder, "uploads"),
    env: { BACKUP_DIR: path.join(folder, "backups"), BACKUP_KEY },
  });
  servers.push(server);
  return server;
}

async function postEnquiryWithFile(base: string): Promise<void> {
  const form = new FormData();
  form.append("intent", "enquiry");
  for (const [k, v] of Object.entries({
    fullName: "Priya Raman",
    email: "priya@example.com",
    phone: "98765 43210",
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    message: "Weekend batch, please",
  }))
    form.append(k, v);
  form.append("filePaths", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "resume.pdf");
  const res = await fetch(`${base}/enquiry`, { method: "POST", body: form, headers: { Origin: base }, redirect: "manual" });
  const html = await res.text();
  expect(res.status).toBe(200);
  expect(html).not.toContain("field-error");
}

const attachmentsIn = (uploads: string) => fs.readdirSync(path.join(uploads, "enquiries")).map((n) => path.join(uploads, "enquiries", n));

describe("owner-only files under umask 000", () => {
  const site = path.join(dir, "site");
  const db = path.join(site, "app.db");
  const uploads = path.join(site, "uploads");
  const backups = path.join(site, "backups");
  let archive = "";

  it("a new site's database and WAL, an upload and a backup are 0600 in 0700 folders", async () => {
    const server = await start(site);
    expectModes([db, `${db}-wal`, `${db}-shm`], "600");
    await postEnquiryWithFile(server.url);
    const files = attachmentsIn(uploads);
    expect(files).toHaveLength(1);
    expectModes(files, "600");
    expectModes([uploads, path.join(uploads, "enquiries"), path.join(uploads, "tmp")], "700");

    const made = await cli("backup", [], { DATABASE_URL: `file:${db}`, UPLOAD_DIR: uploads, BACKUP_DIR: backups });
    expect(made.code, made.stderr).toBe(0);
    archive = made.stdout.trim().split("\n").at(-1)!;
    expectModes([archive], "600");
    expectModes([backups], "700");
    // Nothing of the run is left beside it (staging folders and partial files are gone).
    expect(fs.readdirSync(backups)).toEqual([path.basename(archive)]);
    await server.stop();
    servers.pop();
  }, 120_000);

  it("an install from before is tightened at start, with one log line", async () => {
    fs.chmodSync(db, 0o644);
    for (const folder of [uploads, path.join(uploads, "enquiries"), backups]) fs.chmodSync(folder, 0o755);
    const [file] = attachmentsIn(uploads);
    fs.chmodSync(file, 0o4755);
    fs.chmodSync(archive, 0o644);
    const server = await start(site);
    const lines = server
      .output()
      .split("\n")
      .filter((l) => l.includes("owner-only"));
    expect(lines).toEqual(["Made 6 files and folders of the database, the uploads and the backups owner-only (files 0600, folders 0700)."]);
    expectModes([db, `${db}-wal`, `${db}-shm`, file, archive], "600");
    expectModes([uploads, path.join(uploads, "enquiries"), backups], "700");
    await server.stop();
    servers.pop();
    // Once tight, a start says nothing.
    const again = await start(site);
    expect(again.output()).not.toContain("owner-only");
    await again.stop();
    servers.pop();
  }, 120_000);

  it("a restored database, its WAL and files are 0600 in 0700 folders", async () => {
    const restored = path.join(dir, "restored");
    const out = await cli("restore", [archive], { DATABASE_URL: `file:${path.join(restored, "app.db")}`, UPLOAD_DIR: path.join(restored, "uploads") });
    expect(out.code, out.stderr).toBe(0);
    expectModes([path.join(restored, "app.db"), ...attachmentsIn(path.join(restored, "uploads"))], "600");
    expectModes([restored, path.join(restored, "uploads"), path.join(restored, "uploads", "enquiries")], "700");
    await start(restored);
    const db2 = path.join(restored, "app.db");
    expectModes([db2, `${db2}-wal`, `${db2}-shm`], "600");
  }, 120_000);
});
