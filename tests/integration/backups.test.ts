import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, knownMigrations, type DB } from "~db/client.server";
import { DAY_FIGURES_TABLE } from "~db/migrations/0170-enquiry-day-figures";
import { NAME_WORDS_TABLE } from "~db/migrations/0180-name-words";
import { siteToday } from "~/util/dates";
import { archiveTables, type BackupManifest } from "~/infra/backup-archive.server";
import { signManifest } from "~/infra/backup-signature.server";
import { unpackBackupArchive } from "~/infra/backup-unpack.server";
import { ADMIN, ensureBuilt, freshDatabase, launchServer, signInCookie, type RunningServer } from "../helpers/api-server";

/**
 * Backups that restore, end to end with the built server and the real CLIs (npm run backup / restore):
 * a seeded site (SQLite under npm test, MariaDB under npm run test:mysql) is backed up while 16 connections
 * post enquiries (some with attachments); the archive is restored into a fresh SQLite folder (and, on MariaDB,
 * into a fresh MariaDB database, and an SQLite archive of the restored folder into another one); every table
 * and file of each restore is compared with the archive, the enquiries with what was acknowledged before the
 * backup's moment, and the app is started on the restored data. Then: a truncated or newer-schema archive is
 * refused; two instances on one database make one scheduled backup; the dashboard and /healthz?deep=1 say so
 * when backups stop.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const MYSQL = process.env.TEST_MYSQL_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-backups-"));
const cleanups: (() => Promise<unknown>)[] = [];
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
/** The operator's key: every CLI run here has it, as a real site's environment would. */
const BACKUP_KEY = "backups-test-key-0123456789-0123456789-0123456789";
const key = { key: Buffer.from(BACKUP_KEY), source: "BACKUP_KEY" };

afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

type Cli = { code: number | null; stdout: string; stderr: string };

/** Runs `npm run backup` / `npm run restore` as an operator would (tsx scripts/<name>.ts), with its own environment. */
function cli(script: "backup" | "restore", args: string[], env: Record<string, string>): Promise<Cli> {
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

/** A database name for a restore to create (the restore makes it when missing), dropped at the end. */
function newMysqlUrl(): string {
  const u = new URL(MYSQL!);
  const name = `soc_restore_${Date.now()}_${randomBytes(3).toString("hex")}`;
  u.pathname = `/${name}`;
  cleanups.push(async () => {
    const { createConnection } = await import("mysql2/promise");
    const conn = await createConnection({ uri: MYSQL! });
    await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await conn.end();
  });
  return u.toString();
}

async function openOwn(url: string): Promise<DB> {
  const { db } = await createDb(url);
  cleanups.push(() => db.destroy());
  return db;
}

/** Every row of every table as sorted JSON lines (keys sorted), Kysely's lock table aside. */
async function tablesOf(db: DB): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const derived = await derivedOf(db);
  for (const t of await db.introspection.getTables({ withInternalKyselyTables: true })) {
    if (t.isView || t.name === "kysely_migration_lock" || t.name.startsWith("sqlite_") || derived.tables.has(t.name)) continue;
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(t.name)}`.execute(db)).rows;
    for (const row of rows) for (const c of derived.columns.get(t.name) ?? []) delete row[c];
    out[t.name] = rows.map(canonical).sort();
  }
  return out;
}

/**
 * What is made from the data, never backed up: SQLite's search index tables and MySQL's generated columns (migration
 * 0050), the dashboard's running totals (0170) and MySQL's name word table (0180).
 */
async function derivedOf(db: DB): Promise<{ tables: Set<string>; columns: Map<string, string[]> }> {
  const tables = new Set<string>();
  const columns = new Map<string, string[]>();
  try {
    const r = await sql<{ name: string }>`select name from pragma_table_list where type in ('virtual', 'shadow')`.execute(db);
    for (const row of r.rows) tables.add(row.name);
    tables.add(DAY_FIGURES_TABLE);
  } catch {
    const r = await sql<{ t: string; c: string }>`select table_name as t, column_name as c from information_schema.columns
      where table_schema = database() and extra regexp '(VIRTUAL|STORED|PERSISTENT) GENERATED'`.execute(db);
    for (const row of r.rows) columns.set(row.t, [...(columns.get(row.t) ?? []), row.c]);
    // The running totals (migration 0170) and the name's word table (migration 0180), filled by triggers.
    tables.add(DAY_FIGURES_TABLE);
    tables.add(NAME_WORDS_TABLE);
  }
  return { tables, columns };
}

/**
 * The restored database's search index finds a restored enquiry by a part of its name (it was rebuilt, not copied),
 * and its running totals (made by the triggers as the rows were loaded) are what counting the enquiries gives.
 */
async function expectSearchable(db: DB, url: string): Promise<void> {
  const counted = new Map<string, number>();
  for (const e of (
    await sql<{
      createdAt: string;
      status: string;
      privacyState: string;
    }>`select ${sql.ref("createdAt")}, status, ${sql.ref("privacyState")} from enquiries`.execute(db)
  ).rows)
    if (e.privacyState !== "held")
      counted.set(`${siteToday(new Date(e.createdAt))} ${e.status}`, (counted.get(`${siteToday(new Date(e.createdAt))} ${e.status}`) ?? 0) + 1);
  const totals = await sql<{
    day: string;
    value: string;
    n: number | string;
  }>`select day, value, n from ${sql.table(DAY_FIGURES_TABLE)} where kind = 'status' and n <> 0`.execute(db);
  expect(new Map(totals.rows.map((r) => [`${r.day} ${r.value}`, Number(r.n)]))).toEqual(counted);
  expect(counted.size).toBeGreaterThan(0);
  const someone = await sql<{ id: string; fullName: string }>`select id, ${sql.ref("fullName")} from enquiries order by id limit 1`.execute(db);
  const { id, fullName } = someone.rows[0];
  const part = fullName.split(/\s+/)[0];
  if (url.startsWith("file:")) {
    // Throws if the index does not match the rows.
    await sql`insert into enquiries_search(enquiries_search) values ('integrity-check')`.execute(db);
    const r = await sql<{
      id: string;
    }>`select e.id from enquiries e where e.rowid in (select rowid from enquiries_search where enquiries_search match ${`"${part}"`})`.execute(db);
    expect(r.rows.map((row) => row.id)).toContain(id);
  } else {
    const r = await sql<{ id: string }>`select id from enquiries where match(${sql.ref("fullName")}) against (${`+${part}*`} in boolean mode)`.execute(db);
    expect(r.rows.map((row) => row.id)).toContain(id);
    // The word table staff search reads was filled again by the triggers as the rows were loaded.
    const word = fullName.split(/[^\p{L}\p{N}]+/u).find((w) => [...w].length >= 3) ?? "";
    const words = await sql<{ id: string }>`select id from ${sql.table(NAME_WORDS_TABLE)} where word = ${word}`.execute(db);
    expect(words.rows.map((row) => row.id)).toContain(id);
  }
}

function canonical(row: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(row)
        .sort()
        .map((k) => [k, row[k] instanceof Buffer ? (row[k] as Buffer).toString("base64") : row[k]]),
    ),
  );
}

/** The archive's own tables, read straight from it. */
async function archiveContents(archive: string): Promise<{ manifest: BackupManifest; tables: Record<string, string[]> }> {
  const into = fs.mkdtempSync(path.join(dir, "unpacked-"));
  const { manifest, authenticity } = await unpackBackupArchive(archive, into, { key });
  expect(authenticity).toEqual({ signed: true, keySource: "BACKUP_KEY" });
  const tables: Record<string, string[]> = {};
  for (const t of archiveTables(into, manifest)) {
    const rows: string[] = [];
    for await (const row of t.rows()) rows.push(canonical(row));
    tables[t.name] = rows.sort();
  }
  fs.rmSync(into, { recursive: true, force: true });
  return { manifest, tables };
}

function filesUnder(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(root)) return out;
  for (const e of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    out[path.relative(root, full).split(path.sep).join("/")] = createHash("sha256").update(fs.readFileSync(full)).digest("hex");
  }
  return out;
}

const archivesIn = (folder: string) => (fs.existsSync(folder) ? fs.readdirSync(folder).filter((n) => n.endsWith(".tar.gz")) : []);

type Post = { name: string; withFile: boolean; sentAt: number; ackedAt: number | null };

describe("a backup taken while 16 connections post enquiries", () => {
  let site: RunningServer;
  let siteDb: { url: string; drop: () => Promise<void> };
  const siteUploads = path.join(dir, "site-uploads");
  const backupDir = path.join(dir, "site-backups");
  let archive = "";
  let contents: Awaited<ReturnType<typeof archiveContents>>;
  const posts: Post[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    siteDb = await freshDatabase(dir);
    cleanups.push(() => siteDb.drop());
    site = await launchServer({ databaseUrl: siteDb.url, uploadDir: siteUploads });
    cleanups.push(() => site.stop());
    // Some enquiries with files before the load, so the archive has uploads whatever the timing.
    for (let i = 0; i < 3; i++) expect(await postEnquiry(site.url, `Before ${i}`, true)).toBe(true);

    let running = true;
    const worker = async (w: number) => {
      for (let i = 0; running; i++) {
        const post: Post = { name: `Load ${w}-${i}`, withFile: i % 6 === 5, sentAt: Date.now(), ackedAt: null };
        posts.push(post);
        if (await postEnquiry(site.url, post.name, post.withFile)) post.ackedAt = Date.now();
      }
    };
    const load = Array.from({ length: 16 }, (_, w) => worker(w));
    await new Promise((r) => setTimeout(r, 800));
    const made = await cli("backup", [], { DATABASE_URL: siteDb.url, UPLOAD_DIR: siteUploads, BACKUP_DIR: backupDir });
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await Promise.all(load);
    expect(made.code, made.stderr).toBe(0);
    archive = made.stdout.trim().split("\n").at(-1)!;
    expect(archive).toBe(path.join(backupDir, archivesIn(backupDir)[0]));
    contents = await archiveContents(archive);
  }, 240_000);

  it("holds every enquiry acknowledged before its moment, none sent after it, each whole", async () => {
    const { manifest } = contents;
    const from = Date.parse(manifest.snapshot.from);
    const to = Date.parse(manifest.snapshot.to);
    const enquiries = contents.tables.enquiries.map((line) => JSON.parse(line) as { id: string; fullName: string; filePaths: string });
    const archived = new Map(enquiries.map((e) => [e.fullName, e]));
    const ackedBefore = posts.filter((p) => p.ackedAt !== null && p.ackedAt < from);
    const sentAfter = posts.filter((p) => p.sentAt > to);
    // The backup really ran in the middle of the load.
    expect(ackedBefore.length).toBeGreaterThan(0);
    expect(sentAfter.length).toBeGreaterThan(0);
    expect(posts.filter((p) => p.ackedAt === null)).toEqual([]);
    expect(ackedBefore.filter((p) => !archived.has(p.name)).map((p) => p.name)).toEqual([]);
    expect(sentAfter.filter((p) => archived.has(p.name)).map((p) => p.name)).toEqual([]);

    // Nothing half-written: each archived enquiry is the live row, with all its outbox messages (same transaction).
    const live = await openOwn(siteDb.url);
    const generated = (await derivedOf(live)).columns.get("enquiries") ?? [];
    const outbox = contents.tables.outbox.map((line) => JSON.parse(line) as { entityId: string | null });
    for (const e of enquiries) {
      const row: Record<string, unknown> = await live.selectFrom("enquiries").selectAll().where("id", "=", e.id).executeTakeFirstOrThrow();
      for (const c of generated) delete row[c];
      expect(canonical(row)).toBe(canonical(e));
      const liveMessages = await live.selectFrom("outbox").select("id").where("entityId", "=", e.id).execute();
      expect(outbox.filter((m) => m.entityId === e.id)).toHaveLength(liveMessages.length);
      expect(liveMessages.length).toBeGreaterThan(0);
    }
    // Every attachment an archived enquiry names is in the archive, with the bytes that were sent.
    const files = new Map(manifest.uploads.files.map((f) => [f.path, f.sha256]));
    const named = enquiries.flatMap((e) => JSON.parse(e.filePaths) as string[]);
    expect(named.length).toBeGreaterThanOrEqual(3);
    const pdfHash = createHash("sha256").update(PDF).digest("hex");
    for (const name of named) expect(files.get(`uploads/enquiries/${name}`)).toBe(pdfHash);
    // Counts in the manifest are the archive's.
    for (const [table, { rows }] of Object.entries(manifest.database.tables)) expect(contents.tables[table], table).toHaveLength(rows);
    expect(manifest.engine).toBe(MYSQL ? "mysql" : "sqlite");
    expect(manifest.migrationLevel).toBe(knownMigrations().at(-1));
  });

  it("restores into a fresh SQLite folder: every table and file as the archive holds them, and the app starts on it", async () => {
    const folder = path.join(dir, "restored-sqlite");
    const url = `file:${path.join(folder, "app.db")}`;
    const uploads = path.join(folder, "uploads");
    const out = await cli("restore", [archive], { DATABASE_URL: url, UPLOAD_DIR: uploads });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/Restored \d+ rows in \d+ tables and \d+ files/);
    await expectSameAsArchive(url, uploads, contents);
    await expectAppServes(url, uploads, contents);

    if (MYSQL) {
      // An SQLite archive (of the restored folder) into MariaDB: the move between engines is a restore.
      const again = await cli("backup", [], { DATABASE_URL: url, UPLOAD_DIR: uploads, BACKUP_DIR: path.join(dir, "sqlite-backups") });
      expect(again.code, again.stderr).toBe(0);
      const sqliteArchive = again.stdout.trim().split("\n").at(-1)!;
      const sqliteContents = await archiveContents(sqliteArchive);
      expect(sqliteContents.manifest.database.format).toBe("sqlite-file");
      const target = newMysqlUrl();
      const uploads2 = path.join(dir, "restored-from-sqlite-uploads");
      const restored = await cli("restore", [sqliteArchive], { DATABASE_URL: target, UPLOAD_DIR: uploads2 });
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain("(sqlite into mysql)");
      await expectSameAsArchive(target, uploads2, sqliteContents);
    }
  }, 180_000);

  it.skipIf(!MYSQL)(
    "restores into a fresh MariaDB database the same way, and the app starts on it",
    async () => {
      const url = newMysqlUrl();
      const uploads = path.join(dir, "restored-mysql-uploads");
      const out = await cli("restore", [archive], { DATABASE_URL: url, UPLOAD_DIR: uploads });
      expect(out.code, out.stderr).toBe(0);
      await expectSameAsArchive(url, uploads, contents);
      await expectAppServes(url, uploads, contents);
    },
    180_000,
  );

  it("refuses a truncated archive, a newer schema's and a non-empty target, with a clear message and nothing written", async () => {
    const folder = path.join(dir, "refused");
    const env = { DATABASE_URL: `file:${path.join(folder, "app.db")}`, UPLOAD_DIR: path.join(folder, "uploads") };
    const bytes = fs.readFileSync(archive);
    const truncated = path.join(dir, "truncated.tar.gz");
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const cut = await cli("restore", [truncated], env);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/The archive truncated\.tar\.gz is damaged: it could not be read to the end .*cut short.*Nothing was restored/);
    expect(fs.existsSync(path.join(folder, "app.db"))).toBe(false);
    expect(filesUnder(path.join(folder, "uploads"))).toEqual({});

    // One byte changed inside a file: the gzip and tar framing are fine, the signed manifest's hash is not.
    const unpacked = fs.mkdtempSync(path.join(dir, "tamper-"));
    await tar.x({ file: archive, cwd: unpacked });
    // As npm run backup lays them out: the manifest and its signature first.
    const entries = () => ["manifest.json", "manifest.sig", ...fs.readdirSync(unpacked).filter((n) => !n.startsWith("manifest."))];
    const listed = (JSON.parse(fs.readFileSync(path.join(unpacked, "manifest.json"), "utf8")) as BackupManifest).database.files;
    const victim = path.join(unpacked, [...listed].sort((a, b) => b.bytes - a.bytes)[0].path);
    const data = fs.readFileSync(victim);
    data[data.length - 2] ^= 0xff;
    fs.writeFileSync(victim, data);
    const tampered = path.join(dir, "tampered.tar.gz");
    await tar.c({ gzip: true, cwd: unpacked, file: tampered }, entries());
    // (The check the restore runs first, called here directly: each CLI start costs seconds on a busy machine.)
    await expect(unpackBackupArchive(tampered, fs.mkdtempSync(path.join(dir, "check-")), { key })).rejects.toThrow(
      /The archive tampered\.tar\.gz is damaged: database\/.* does not match its SHA-256 in the manifest\. Nothing was restored/,
    );

    // A newer version's archive (signed with the same key): a migration this version does not know.
    data[data.length - 2] ^= 0xff;
    fs.writeFileSync(victim, data);
    const manifestFile = path.join(unpacked, "manifest.json");
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as BackupManifest;
    manifest.migrations.push("0099-from-the-future");
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    fs.writeFileSync(path.join(unpacked, "manifest.sig"), signManifest(fs.readFileSync(manifestFile), key));
    const newer = path.join(dir, "newer.tar.gz");
    await tar.c({ gzip: true, cwd: unpacked, file: newer }, entries());
    await expect(unpackBackupArchive(newer, fs.mkdtempSync(path.join(dir, "check-")), { key })).rejects.toThrow(
      "The archive newer.tar.gz holds a newer database schema than this version of the app knows (migration 0099-from-the-future; app 1.0.0). Restore it with that version of the app or a newer one.",
    );

    // The running site's own database is not an empty target.
    const busy = await cli("restore", [archive], { DATABASE_URL: siteDb.url, UPLOAD_DIR: path.join(dir, "empty-uploads") });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/is not empty/);
  }, 120_000);
});

async function postEnquiry(base: string, name: string, withFile: boolean): Promise<boolean> {
  const fields = {
    fullName: name,
    email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
    phone: "98765 43210",
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    message: "Weekend batch, please",
  };
  if (!withFile) {
    const res = await fetch(`${base}/api/enquiries`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fields) });
    await res.arrayBuffer();
    return res.status === 201;
  }
  const form = new FormData();
  form.append("intent", "enquiry");
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("filePaths", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), `${name}.pdf`);
  const res = await fetch(`${base}/enquiry`, { method: "POST", body: form, headers: { Origin: base }, redirect: "manual" });
  const html = await res.text();
  return res.status === 200 && !html.includes("field-error");
}

async function expectSameAsArchive(url: string, uploads: string, archived: Awaited<ReturnType<typeof archiveContents>>): Promise<void> {
  const db = await openOwn(url);
  const restored = await tablesOf(db);
  expect(Object.keys(restored).sort()).toEqual(Object.keys(archived.tables).sort());
  for (const table of Object.keys(archived.tables)) expect(restored[table], table).toEqual(archived.tables[table]);
  await expectSearchable(db, url);
  await db.destroy();
  expect(filesUnder(uploads)).toEqual(Object.fromEntries(archived.manifest.uploads.files.map((f) => [f.path.slice("uploads/".length), f.sha256])));
}

/** The built app on the restored data: healthy, the staff sign-in of the archive works, an attachment downloads. */
async function expectAppServes(url: string, uploads: string, archived: Awaited<ReturnType<typeof archiveContents>>): Promise<void> {
  const app = await launchServer({ databaseUrl: url, uploadDir: uploads, env: { SEED_DEMO: "false" } });
  try {
    const cookie = await signInCookie(app.url, ADMIN);
    const withFile = archived.tables.enquiries.map((l) => JSON.parse(l) as { id: string; filePaths: string }).find((e) => e.filePaths !== "[]")!;
    const name = (JSON.parse(withFile.filePaths) as string[])[0];
    const page = await fetch(`${app.url}/admin/enquiries/${withFile.id}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const file = await fetch(`${app.url}/admin/enquiries/${withFile.id}/files/${encodeURIComponent(name)}`, { headers: { Cookie: cookie } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  } finally {
    await app.stop();
  }
}

describe("the scheduled backup with two instances on one database", () => {
  const servers: RunningServer[] = [];
  const backupDir = path.join(dir, "scheduled-backups");
  let database: { url: string; drop: () => Promise<void> };
  let db: DB;

  beforeAll(async () => {
    await ensureBuilt();
    const own = fs.mkdtempSync(path.join(dir, "scheduled-"));
    database = await freshDatabase(own);
    cleanups.push(() => database.drop());
    const env = { SEED_DEMO: "false", BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: "1", BACKUP_KEEP: "2d", BACKUP_KEY };
    const launch = () => launchServer({ databaseUrl: database.url, uploadDir: path.join(own, "uploads"), env });
    // MariaDB: at the same moment; SQLite (one file for one process) one after the other, as the digest test does.
    if (MYSQL) servers.push(...(await Promise.all([launch(), launch()])));
    else {
      servers.push(await launch());
      servers.push(await launch());
    }
    for (const s of servers) cleanups.push(() => s.stop());
    db = await openOwn(database.url);
  }, 240_000);

  it("makes one archive for the hour, whichever instance gets there first", async () => {
    const deadline = Date.now() + 30_000;
    while (!(await db.selectFrom("backup_runs").select("id").where("status", "=", "done").executeTakeFirst()) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
    }
    // Both instances ran the job at start; give a late second one time to show.
    await new Promise((r) => setTimeout(r, 2_000));
    const runs = await db.selectFrom("backup_runs").selectAll().execute();
    expect(runs.map((r) => ({ kind: r.kind, status: r.status, attempts: r.attempts }))).toEqual([{ kind: "scheduled", status: "done", attempts: 1 }]);
    expect(runs[0].id).toMatch(/^scheduled:\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/);
    expect(archivesIn(backupDir)).toEqual([runs[0].archive]);
    const deep = await fetch(`${servers[1].url}/healthz?deep=1`);
    expect(deep.status).toBe(200);
    expect(await deep.json()).toMatchObject({ status: "ok", backups: { state: "ok", everyHours: 1, limitHours: 2 } });
    const dashboard = await fetch(`${servers[0].url}/admin/dashboard`, { headers: { Cookie: await signInCookie(servers[0].url, ADMIN) } });
    expect(await dashboard.text()).not.toContain("backup-warning");
  });

  it("warns on the dashboard and in /healthz?deep=1 once the last good backup is older than the schedule allows", async () => {
    // As if the last good backup were three hours old and the runs since had failed (every 1 h: stale after 2 h).
    const old = new Date(Date.now() - 3 * 3_600_000).toISOString();
    await db.updateTable("backup_runs").set({ snapshotAt: old, finishedAt: old, startedAt: old }).execute();
    await db
      .insertInto("backup_runs")
      .values({
        id: "scheduled:2000-01-01T00:00:00.000Z",
        kind: "scheduled",
        status: "failed",
        attempts: 3,
        startedAt: new Date().toISOString(),
        finishedAt: new Date().toISOString(),
        runner: "test",
        error: "ENOSPC: no space left on device",
      })
      .execute();
    const deep = await fetch(`${servers[0].url}/healthz?deep=1`);
    expect(deep.status).toBe(503);
    const body = (await deep.json()) as { status: string; backups: { state: string; ageHours: number } };
    expect(body).toMatchObject({ status: "degraded", database: "ok", backups: { state: "stale" } });
    expect(body.backups.ageHours).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(body)).not.toContain("ENOSPC");
    // The plain health check (the balancer's) is not affected.
    expect((await fetch(`${servers[0].url}/healthz`)).status).toBe(200);

    const html = await (await fetch(`${servers[1].url}/admin/dashboard`, { headers: { Cookie: await signInCookie(servers[1].url, ADMIN) } })).text();
    expect(html).toContain('data-testid="backup-warning"');
    expect(html).toContain("Backups have stopped");
    expect(html).toMatch(/The last good backup is from .* \(3 h ago\): backups have stopped\. Backups are due every 1 hour into /);
    expect(html).toContain("failed: ENOSPC: no space left on device");
  });
});
