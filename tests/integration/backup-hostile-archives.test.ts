import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import Database from "better-sqlite3";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, createDb, db, migrateToLatest, openDb } from "~db/client.server";
import type { BackupManifest } from "~/infra/backup-archive.server";
import { verifyingKey, type BackupKey } from "~/infra/backup-signature.server";
import { UNPACK_LIMITS, unpackBackupArchive } from "~/infra/backup-unpack.server";
import { fileStore } from "~/infra/file-store.server";
import { makeBackupNow } from "~/services/backups.server";
import { fileEntries, listUpload, manifestEntries, partsOf, sha256, writeCraftedArchive, type CraftedEntry, type Parts } from "../helpers/crafted-archive";

/**
 * Archives made by someone else, replayed as an attacker would make them (issue 36): a decompression bomb, a
 * signed manifest's database given a trigger with the hashes recomputed, a setuid file owned by another user, a
 * path that leaves the upload folder once "uploads/" is cut, links, devices, repeated and unlisted entries, a
 * huge manifest, a flood of headers. Each is refused before anything reaches the target (or, for modes and
 * owners, never carried over), quickly and with a message that says why; a refused restore can be run again.
 * The site here is SQLite: the archive reader is the same for both engines, and the trigger attack needs an
 * SQLite file.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-hostile-archives-"));
process.env.DATABASE_URL = `file:${path.join(dir, "site", "app.db")}`;
process.env.BACKUP_DIR = path.join(dir, "site-backups");
const GiB = 1024 ** 3;
const EDITOR = "editor@example.com";
const ATTACHMENT = "enquiries/0123456789abcdef0123456789abcdef-cv.pdf";

let key: BackupKey;
let archive = "";
let parts: Parts;

beforeAll(async () => {
  await openDb(process.env.DATABASE_URL!);
  await migrateToLatest(db());
  const now = new Date().toISOString();
  await db()
    .insertInto("users")
    .values([
      { id: "u-admin", name: "Asha Admin", email: "admin@example.com", passwordHash: "x", role: "admin", createdAt: now, updatedAt: now },
      { id: "u-editor", name: "Ravi Editor", email: EDITOR, passwordHash: "x", role: "editor", createdAt: now, updatedAt: now },
    ])
    .execute();
  const scratch = path.join(dir, "cv.pdf");
  fs.writeFileSync(scratch, "%PDF-1.4\n%%EOF\n");
  await fileStore().putFile(ATTACHMENT, scratch);
  archive = (await makeBackupNow(() => {})).file;
  key = verifyingKey()!;
  parts = await partsOf(archive, dir);
}, 60_000);

afterAll(async () => {
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const fresh = (what: string) => fs.mkdtempSync(path.join(dir, `${what}-${n++}-`));

function craft(entries: CraftedEntry[], opts?: { trailingZeros?: number }): string {
  const file = path.join(fresh("crafted"), "backup-20260101-000000Z.tar.gz");
  writeCraftedArchive(file, entries, opts);
  return file;
}

/** Every file under `root` with its size (the folders unpacking makes from the manifest are not files). */
function filesIn(root: string): Record<string, number> {
  const out: Record<string, number> = {};
  if (!fs.existsSync(root)) return out;
  // Read while a restore works in it too: a file gone meanwhile is left out.
  const entries = (() => {
    try {
      return fs.readdirSync(root, { recursive: true, withFileTypes: true });
    } catch {
      return [];
    }
  })();
  for (const e of entries) {
    if (!e.isFile() && !e.isSymbolicLink()) continue;
    const stat = fs.lstatSync(path.join(e.parentPath, e.name), { throwIfNoEntry: false });
    if (stat) out[path.relative(root, path.join(e.parentPath, e.name))] = stat.size;
  }
  return out;
}

async function refusal(file: string, opts: { key?: BackupKey | null; trustUnsigned?: boolean } = {}): Promise<{ message: string; ms: number; into: string }> {
  const into = fresh("into");
  const started = Date.now();
  const error = await unpackBackupArchive(file, into, { key: opts.key === undefined ? key : opts.key, trustUnsigned: opts.trustUnsigned }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the archive was accepted").toBeInstanceOf(Error);
  return { message: (error as Error).message, ms: Date.now() - started, into };
}

type Cli = { code: number | null; stdout: string; stderr: string; ms: number };

/** npm run restore as an operator runs it (tsx scripts/restore.ts), with the site's BACKUP_KEY. */
function restoreCli(args: string[], env: Record<string, string>, onTick?: () => void): Promise<Cli> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/restore.ts", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), NODE_ENV: "development", BACKUP_KEY: process.env.BACKUP_KEY!, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const ticker = onTick ? setInterval(onTick, 5) : undefined;
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => {
      clearInterval(ticker);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

function target(): { folder: string; env: { DATABASE_URL: string; UPLOAD_DIR: string }; dbFile: string; uploads: string } {
  const folder = fresh("target");
  const dbFile = path.join(folder, "app.db");
  const uploads = path.join(folder, "uploads");
  return { folder, env: { DATABASE_URL: `file:${dbFile}`, UPLOAD_DIR: uploads }, dbFile, uploads };
}

const BOMB = `uploads/enquiries/${"f".repeat(32)}-bomb.pdf`;
const KiB = Buffer.alloc(1024);

describe("a decompression bomb", () => {
  it("listed with a small size: refused at its header, before a byte of it is written", async () => {
    const manifest = listUpload(parts.manifest, { path: BOMB, bytes: 1024, sha256: sha256(KiB) });
    const file = craft([...manifestEntries(manifest, key), ...fileEntries(parts), { path: BOMB, zeros: 2 * GiB }]);
    expect(fs.statSync(file).size).toBeLessThan(4 * 1024 * 1024);
    const { message, ms, into } = await refusal(file);
    expect(message).toBe(
      `The archive backup-20260101-000000Z.tar.gz is damaged: ${BOMB} is 2147483648 bytes, its manifest says 1024. Nothing was restored; use another archive (or a complete copy of this one).`,
    );
    expect(ms).toBeLessThan(5_000);
    const written = Object.values(filesIn(into)).reduce((a, b) => a + b, 0);
    expect(written).toBeLessThanOrEqual(parts.manifest.database.files[0].bytes + parts.manifest.uploads.bytes);
    expect(filesIn(into)).not.toHaveProperty(BOMB);
  });

  it("not listed at all: refused at its header", async () => {
    const file = craft([...manifestEntries(parts.manifest, key), ...fileEntries(parts), { path: BOMB, zeros: 2 * GiB }]);
    const { message, ms, into } = await refusal(file);
    expect(message).toContain(`is refused: it holds a file its manifest does not list ("${BOMB}")`);
    expect(ms).toBeLessThan(5_000);
    expect(filesIn(into)).not.toHaveProperty(BOMB);
  });

  it("hidden after the tar's end: refused once the stream inflates past what the manifest accounts for", async () => {
    const file = craft([...manifestEntries(parts.manifest, key), ...fileEntries(parts)], { trailingZeros: 2 * GiB });
    const { message, ms } = await refusal(file);
    expect(message).toMatch(
      /is refused: it inflates to more than its manifest accounts for \(over [\d.]+ MB\), as a decompression bomb does\. Nothing was restored\.$/,
    );
    expect(ms).toBeLessThan(5_000);
  });

  it("as the manifest itself: a manifest bigger than any backup's is refused before it is read", async () => {
    const file = craft([{ path: "manifest.json", zeros: 2 * GiB }]);
    const { message, ms } = await refusal(file);
    expect(message).toContain(`is refused: its manifest.json is 2048.0 MB, more than a backup's manifest may be (32.0 MB)`);
    expect(ms).toBeLessThan(5_000);
  });

  it("npm run restore -- --check refuses it at once, its temporary folder never above a few kilobytes", async () => {
    const manifest = listUpload(parts.manifest, { path: BOMB, bytes: 1024, sha256: sha256(KiB) });
    const file = craft([...manifestEntries(manifest, key), ...fileEntries(parts), { path: BOMB, zeros: 2 * GiB }]);
    const tmp = fresh("tmpdir");
    // What the check unpacks into (tsx keeps its own cache in TMPDIR too).
    const unpacked = () => Object.entries(filesIn(tmp)).filter(([f]) => f.startsWith("backup-check-"));
    let most = 0;
    const out = await restoreCli(["--check", file], { TMPDIR: tmp, DATABASE_URL: "file:/nonexistent/app.db" }, () => {
      most = Math.max(
        most,
        unpacked().reduce((a, [, b]) => a + b, 0),
      );
    });
    expect(out.code).toBe(1);
    expect(out.stderr.trim()).toBe(
      `The archive backup-20260101-000000Z.tar.gz is damaged: ${BOMB} is 2147483648 bytes, its manifest says 1024. Nothing was restored; use another archive (or a complete copy of this one).`,
    );
    // The database file and the real upload are all that was unpacked before the bomb's header.
    expect(most).toBeLessThanOrEqual(parts.manifest.database.files[0].bytes + parts.manifest.uploads.bytes);
    expect(unpacked()).toEqual([]);
  }, 60_000);
});

describe("an archive whose database was given a trigger, its hashes recomputed", () => {
  let tampered: Parts;

  beforeAll(() => {
    const work = path.join(fresh("tamper"), "app.db");
    fs.writeFileSync(work, parts.files.get("database/app.db")!);
    const sqlite = new Database(work);
    // After one audited action the restored site would make the editor an admin; a view and a table ride along.
    sqlite.exec(`
      CREATE TRIGGER promote AFTER INSERT ON audit_log BEGIN UPDATE users SET role = 'admin' WHERE email = '${EDITOR}'; END;
      CREATE VIEW everyone AS SELECT email, passwordHash FROM users;
      CREATE TABLE smuggled (x TEXT);
    `);
    sqlite.close();
    const bytes = fs.readFileSync(work);
    const manifest = structuredClone(parts.manifest);
    manifest.database.files[0] = { path: "database/app.db", bytes: bytes.length, sha256: sha256(bytes) };
    tampered = { manifest, files: new Map([...parts.files, ["database/app.db", bytes]]) };
  });

  const entries = (sig: "original" | "none") => [
    ...manifestEntries(tampered.manifest, null),
    ...(sig === "original" ? [manifestEntries(parts.manifest, key)[1]] : []),
    ...fileEntries(tampered),
  ];

  it("is refused by --check and by a restore: its signature does not match BACKUP_KEY, or it has none", async () => {
    const resigned = await refusal(craft(entries("original")));
    expect(resigned.message).toBe(
      "The archive backup-20260101-000000Z.tar.gz is refused: its signature does not match the key in BACKUP_KEY: it was signed with another key, or changed after it was made. Nothing was restored. Set BACKUP_KEY to the key the backups were made with; if that key is lost and you have checked this archive by other means (its SHA-256 against a copy kept elsewhere), run again with --trust-unsigned.",
    );
    const unsigned = await refusal(craft(entries("none")));
    expect(unsigned.message).toContain(
      "is refused: it is not signed (it has no manifest.sig: made before archives were signed, or the signature was removed). Nothing was restored.",
    );
    const noKey = await refusal(archive, { key: null });
    expect(noKey.message).toContain("is refused: its signature cannot be checked: BACKUP_KEY is not set (nor is there a data/backup-key).");
    // Refused before anything was unpacked.
    for (const r of [resigned, unsigned, noKey]) expect(filesIn(r.into)).toEqual({});

    const t = target();
    const check = await restoreCli(["--check", craft(entries("original"))], t.env);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("its signature does not match the key in BACKUP_KEY");
    const restore = await restoreCli([craft(entries("original"))], t.env);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain("its signature does not match the key in BACKUP_KEY");
    expect(fs.existsSync(t.dbFile)).toBe(false);
    expect(filesIn(t.uploads)).toEqual({});
  }, 90_000);

  it("restored with --trust-unsigned: a loud warning, and only what the migrations make reaches the site", async () => {
    const t = target();
    const out = await restoreCli(["--trust-unsigned", craft(entries("none"))], t.env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(
      "WARNING: backup-20260101-000000Z.tar.gz: it is not signed (it has no manifest.sig: made before archives were signed, or the signature was removed). Going on only because of --trust-unsigned",
    );
    expect(out.stdout).toContain("(its signature NOT checked: --trust-unsigned)");

    // The same schema objects as a database this version's migrations make, not one more.
    const freshFile = path.join(fresh("fresh"), "app.db");
    const other = await createDb(`file:${freshFile}`);
    await migrateToLatest(other.db);
    await other.db.destroy();
    const schema = (file: string) => {
      const sqlite = new Database(file, { readonly: true });
      const rows = sqlite.prepare("select type, name, tbl_name, sql from sqlite_master order by type, name").all();
      sqlite.close();
      return rows;
    };
    const restored = schema(t.dbFile);
    expect(restored).toEqual(schema(freshFile));
    expect(JSON.stringify(restored)).not.toMatch(/promote|everyone|smuggled/);

    // An audited action on the restored site leaves the editor an editor.
    const sqlite = new Database(t.dbFile);
    sqlite
      .prepare("insert into audit_log (id, at, userId, userName, ip, requestId, action, entityType, entityId, summary) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .run("a1", new Date().toISOString(), "u-admin", "Asha Admin", "127.0.0.1", "r1", "course.update", "course", "c1", "Changed a course");
    expect(sqlite.prepare("select role from users where email = ?").get(EDITOR)).toEqual({ role: "editor" });
    sqlite.close();
  }, 60_000);
});

describe("an archive's files are checked before anything is written, and written as the running user's", () => {
  it("a setuid file owned by someone else comes back 0600, the running user's, in 0700 folders", async () => {
    const entries = [...manifestEntries(parts.manifest, key), ...fileEntries(parts)].map((e) => ({ ...e, mode: 0o6755, uid: 4242, gid: 4242 }));
    const t = target();
    const out = await restoreCli([craft(entries)], t.env);
    expect(out.code, out.stderr).toBe(0);
    const file = fs.statSync(path.join(t.uploads, ATTACHMENT));
    expect((file.mode & 0o7777).toString(8)).toBe("600");
    expect(file.uid).toBe(process.getuid!());
    expect(file.gid).toBe(process.getgid!());
    for (const folder of [t.uploads, path.join(t.uploads, "enquiries")]) expect((fs.statSync(folder).mode & 0o7777).toString(8)).toBe("700");
    expect((fs.statSync(t.dbFile).mode & 0o7777).toString(8)).toBe("600");
  }, 60_000);

  it("a listed path that leaves the upload folder once uploads/ is cut: refused before the database or any file is written, and a re-run works", async () => {
    for (const evil of [
      "uploads/../x",
      "uploads/enquiries/../../../etc/cron.d/x",
      "uploads//etc/passwd",
      "uploads/enquiries/..",
      "uploads/enquiries/.",
      "/etc/passwd",
    ]) {
      const body = Buffer.from("* * * * * root sh -c 'id > /tmp/pwned'\n");
      const manifest = listUpload(parts.manifest, { path: evil, bytes: body.length, sha256: sha256(body) });
      const file = craft([...manifestEntries(manifest, key), ...fileEntries(parts), { path: evil, body }]);
      const { message, into } = await refusal(file);
      expect(message).toContain(`it lists a file the upload store cannot hold (${JSON.stringify(evil)})`);
      expect(filesIn(into)).toEqual({});
    }
    const body = Buffer.from("x");
    const manifest = listUpload(parts.manifest, { path: "uploads/../x", bytes: 1, sha256: sha256(body) });
    // The database first in the archive, the bad path last: still nothing is written.
    const file = craft([...manifestEntries(manifest, key), ...fileEntries(parts), { path: "uploads/../x", body }]);
    const t = target();
    const out = await restoreCli([file], t.env);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('it lists a file the upload store cannot hold ("uploads/../x")');
    expect(fs.existsSync(t.dbFile)).toBe(false);
    expect(fs.existsSync(path.join(t.folder, "x"))).toBe(false);
    expect(filesIn(t.folder)).toEqual({});
    const again = await restoreCli([archive], t.env);
    expect(again.code, again.stderr).toBe(0);
  }, 90_000);

  it("a restore that fails after the database is in place leaves the database and the upload folder as empty as they were", async () => {
    const t = target();
    // The upload store cannot make its enquiries folder: the files step fails after the database was loaded.
    fs.mkdirSync(t.uploads, { recursive: true });
    fs.writeFileSync(path.join(t.uploads, "enquiries"), "");
    const failed = await restoreCli([archive], t.env);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("Loaded");
    expect(fs.existsSync(t.dbFile)).toBe(false);
    expect(filesIn(t.uploads)).toEqual({ enquiries: 0 });
    fs.rmSync(path.join(t.uploads, "enquiries"));
    const again = await restoreCli([archive], t.env);
    expect(again.code, again.stderr).toBe(0);
    expect(filesIn(t.uploads)).toEqual({ [ATTACHMENT]: parts.files.get(`uploads/${ATTACHMENT}`)!.length });
  }, 90_000);
});

describe("a crafted tar", () => {
  const upload = `uploads/${ATTACHMENT}`;
  const base = () => [...manifestEntries(parts.manifest, key), ...fileEntries(parts).filter((e) => e.path !== upload)];

  it.each([
    [
      "a symbolic link in a listed file's place",
      { path: upload, type: "SymbolicLink", linkpath: "/etc/shadow" },
      `it holds a SymbolicLink entry ("${upload}")`,
    ],
    ["a hard link in a listed file's place", { path: upload, type: "Link", linkpath: "database/app.db" }, `it holds a Link entry ("${upload}")`],
    ["a device", { path: upload, type: "CharacterDevice" }, `it holds a CharacterDevice entry ("${upload}")`],
    ["a FIFO", { path: upload, type: "FIFO" }, `it holds a FIFO entry ("${upload}")`],
    [
      "a folder the manifest has no file in",
      { path: "uploads/images/", type: "Directory" },
      `it holds a folder its manifest does not list ("uploads/images/")`,
    ],
    ["a file outside the archive's folders", { path: "/etc/passwd", body: Buffer.from("x") }, `it holds a file its manifest does not list ("/etc/passwd")`],
  ] as [string, CraftedEntry, string][])("refuses %s", async (_what, entry, expected) => {
    const { message, into } = await refusal(craft([...base(), entry]));
    expect(message).toContain(expected);
    expect(filesIn(into)).not.toHaveProperty(ATTACHMENT);
    expect(Object.keys(filesIn(into)).every((f) => f.startsWith("database"))).toBe(true);
  });

  it("takes what a real archive may hold that looks odd: an empty file, folder entries for listed files", async () => {
    const empty = `uploads/enquiries/${"e".repeat(32)}-empty.txt`;
    const manifest = listUpload(parts.manifest, { path: empty, bytes: 0, sha256: sha256(Buffer.alloc(0)) });
    const into = fresh("into");
    const file = craft([
      ...manifestEntries(manifest, key),
      { path: "database/", type: "Directory" },
      { path: "uploads/enquiries/", type: "Directory" },
      ...fileEntries(parts),
      { path: empty, body: Buffer.alloc(0) },
    ]);
    const { authenticity } = await unpackBackupArchive(file, into, { key });
    expect(authenticity.signed).toBe(true);
    expect(filesIn(into)).toMatchObject({ [empty]: 0, [`uploads/${ATTACHMENT}`]: parts.files.get(`uploads/${ATTACHMENT}`)!.length });
  });

  it("refuses a listed file that comes twice (the second copy would replace the checked one)", async () => {
    const body = parts.files.get(upload)!;
    const { message } = await refusal(craft([...base(), { path: upload, body }, { path: upload, body: Buffer.alloc(body.length) }]));
    expect(message).toContain(`it holds ${upload} twice`);
  });

  it("refuses a manifest that lists one path twice, or two that one case-insensitive disk makes one", async () => {
    const file = parts.manifest.uploads.files[0];
    const twice = listUpload(parts.manifest, file);
    expect((await refusal(craft([...manifestEntries(twice, key), ...fileEntries(parts)]))).message).toContain(`its manifest lists ${file.path} twice`);
    const cased = listUpload(parts.manifest, { ...file, path: file.path.replace("-cv.pdf", "-CV.pdf") });
    expect((await refusal(craft([...manifestEntries(cased, key), ...fileEntries(parts)]))).message).toContain("twice");
  });

  it("reads an archive packed again by hand with GNU tar (./ names, folders, any order) like the original", async () => {
    const unpacked = fresh("repacked");
    await tar.x({ file: archive, cwd: unpacked });
    const file = path.join(fresh("gnu"), "backup-20260101-000000Z.tar.gz");
    expect(spawnSync("tar", ["-C", unpacked, "-czf", file, "."]).status).toBe(0);
    const into = fresh("into");
    const { authenticity } = await unpackBackupArchive(file, into, { key });
    expect(authenticity.signed).toBe(true);
    expect(filesIn(into)).toEqual(Object.fromEntries([...parts.files].map(([f, bytes]) => [f, bytes.length])));
  });

  it("refuses a bomb that comes before the manifest once it has passed over 1 GB, writing nothing", async () => {
    const { message, ms, into } = await refusal(craft([{ path: BOMB, zeros: 2 * GiB }, ...manifestEntries(parts.manifest, key), ...fileEntries(parts)]));
    expect(message).toContain("is refused: its manifest.json is not within its first 1024.0 MB (npm run backup writes it first;");
    expect(ms).toBeLessThan(15_000);
    expect(filesIn(into)).toEqual({});
  });

  it("refuses a gzip inside the gzip (the parser would inflate it unseen)", async () => {
    const inner = zlib.gzipSync(randomBytes(4096));
    const file = path.join(fresh("nested"), "backup-20260101-000000Z.tar.gz");
    fs.writeFileSync(file, zlib.gzipSync(inner));
    expect((await refusal(file)).message).toContain("it holds a compressed file inside its compression, not a tar");
  });

  it("refuses a flood of headers at the first one past what the manifest lists", async () => {
    const flood: CraftedEntry[] = Array.from({ length: 100_000 }, () => ({ path: "uploads/", type: "Directory" }));
    const { message, ms } = await refusal(craft([...base(), ...flood]));
    expect(message).toMatch(/it holds more entries than its manifest lists \(\d+\)/);
    expect(ms).toBeLessThan(5_000);
  });

  it("refuses a pax header bigger than any backup needs, without keeping it", async () => {
    const pax = Buffer.alloc(UNPACK_LIMITS.metaBytes * 4, "a");
    const { message } = await refusal(
      craft([...base(), { path: "PaxHeader", type: "ExtendedHeader", body: pax }, { path: upload, body: parts.files.get(upload)! }]),
    );
    expect(message).toContain('it holds an entry a backup never has (ExtendedHeader "PaxHeader")');
  });

  it("refuses a manifest that is not a backup's manifest, with the field that is wrong", async () => {
    const broken = {
      ...structuredClone(parts.manifest),
      uploads: { ...parts.manifest.uploads, files: [{ path: upload, bytes: -1, sha256: "x" }] },
    } as BackupManifest;
    const { message } = await refusal(craft([...manifestEntries(broken, key), ...fileEntries(parts)]));
    expect(message).toMatch(/its manifest\.json is not a backup's manifest \(uploads\.files\.0\.bytes: /);
  });
});
