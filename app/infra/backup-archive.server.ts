import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import readline from "node:readline";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import { dialect } from "~db/client.server";
import {
  copySqliteSnapshot,
  MIGRATIONS_TABLE,
  sqliteFileRows,
  sqliteFileTables,
  streamMysqlSnapshot,
  type Row,
  type SnapshotWindow,
} from "~/models/backup-data.server";
import { archiveName, archivesToKeep, archiveTime, type BackupKeep } from "~/util/backup-keep";
import { createOwnerOnlyFileSync, mkdirOwnerOnly, OWNER_FILE_MODE } from "~/util/owner-only-files.server";
import packageJson from "../../package.json";
import { signManifest, SIGNATURE_FILE, type BackupKey } from "./backup-signature.server";
import { fileStore, STORE_FOLDERS } from "./file-store.server";

/**
 * A backup archive: one gzip-compressed tar file (backup-YYYYMMDD-HHMMSSZ.tar.gz), readable with any tar, holding
 *
 *   manifest.json            what is inside: app version, migrations, rows and columns per table, every file's size and SHA-256
 *   manifest.sig             the manifest's HMAC-SHA256 under BACKUP_KEY (app/infra/backup-signature.server.ts)
 *   database/app.db          SQLite: the database file, copied with SQLite's online backup API; or
 *   database/<table>.jsonl   MySQL/MariaDB: one JSON array per row, in the manifest's column order
 *   uploads/<folder>/<name>  the upload store's files (images, syllabus files, enquiry attachments)
 *
 * One file is easy to copy off the machine and cannot be half-copied without notice: gzip's checksum and length
 * catch a truncated copy, the manifest's hashes any changed file, and the signature a changed manifest. Reading
 * one back is app/infra/backup-unpack.server.ts, which trusts nothing in it before the signature is checked;
 * restoring loads both forms into either database engine (app/services/backup-restore.server.ts).
 */
export const ARCHIVE_FORMAT = "cybersoc-backup";
/** 2: signed (manifest.sig, app/infra/backup-signature.server.ts). Format 1 archives are read, as unsigned ones. */
export const ARCHIVE_FORMAT_VERSION = 2;

export type ManifestFile = { path: string; bytes: number; sha256: string };
export type BackupManifest = {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  app: { name: string; version: string };
  /** When the run began and ended. */
  startedAt: string;
  finishedAt: string;
  /** The database's moment lies in this window: every write acknowledged before `from` is in the archive. */
  snapshot: SnapshotWindow;
  engine: "sqlite" | "mysql";
  /** Migrations applied to the database when it was copied; the last one is its level. */
  migrations: string[];
  migrationLevel: string | null;
  database: {
    format: "sqlite-file" | "jsonl";
    files: ManifestFile[];
    tables: Record<string, { rows: number; columns: string[] }>;
  };
  uploads: { count: number; bytes: number; files: ManifestFile[] };
};

export class BackupArchiveError extends Error {
  override name = "BackupArchiveError";
}

export type ArchiveResult = { file: string; name: string; bytes: number; manifest: BackupManifest };

export const MANIFEST = "manifest.json";
export const SQLITE_FILE = "database/app.db";
/** Table and column names an archive may hold (they name files and go into SQL, quoted). */
export const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Copies a stream into `dest` (0600), returning its size and SHA-256. */
async function writeHashed(source: AsyncIterable<Buffer | string>, dest: string): Promise<{ bytes: number; sha256: string }> {
  await mkdirOwnerOnly(path.dirname(dest));
  const hash = createHash("sha256");
  let bytes = 0;
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer | string>) {
      for await (const chunk of chunks) {
        const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        hash.update(buf);
        bytes += buf.length;
        yield buf;
      }
    },
    fs.createWriteStream(dest, { mode: OWNER_FILE_MODE }),
  );
  return { bytes, sha256: hash.digest("hex") };
}

async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

/** JSON for one row value: Buffers, big integers and dates keep their type through a tagged object. */
function encodeValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { $base64: value.toString("base64") };
  if (typeof value === "bigint") return { $bigint: value.toString() };
  if (value instanceof Date) return { $date: value.toISOString() };
  return value;
}

function decodeValue(value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const v = value as Record<string, string>;
    if ("$base64" in v) return Buffer.from(v.$base64, "base64");
    if ("$bigint" in v) return BigInt(v.$bigint);
    if ("$date" in v) return new Date(v.$date);
  }
  return value;
}

/** True when some text value of some row contains one of `needles` (removed from the set as they are found). */
async function findInRows(rows: AsyncIterable<Row>, needles: Set<string>): Promise<void> {
  for await (const row of rows) {
    for (const value of Object.values(row)) {
      if (typeof value !== "string") continue;
      for (const needle of needles) if (value.includes(needle)) needles.delete(needle);
    }
    if (!needles.size) return;
  }
}

const fileId = (key: string) => /^[a-f0-9]{32}/.exec(path.posix.basename(key))?.[0] ?? path.posix.basename(key);

/**
 * Writes one archive of the whole state into `dir` and returns it. The upload store is copied first, then the
 * database, then the files added since: so every file a row of the copied database names is in the archive,
 * even one deleted meanwhile, and a file added after the database's moment is left out unless that
 * database names it. The archive appears under its final name only once complete (written as .partial,
 * flushed to disk, then linked into place); `signal` stops a run between steps.
 */
export async function writeBackupArchive(opts: { dir: string; key: BackupKey; signal?: AbortSignal }): Promise<ArchiveResult> {
  const startedAt = new Date();
  await mkdirOwnerOnly(opts.dir);
  const staging = await fsp.mkdtemp(path.join(opts.dir, ".staging-"));
  const checkAbort = () => {
    if (opts.signal?.aborted) throw new Error("The backup was stopped (the app is shutting down)");
  };
  try {
    const store = fileStore();
    const uploads = new Map<string, ManifestFile>();
    const copyUpload = async (key: string) => {
      checkAbort();
      const object = await store.get(key);
      if (!object) return; // deleted since it was listed
      const { bytes, sha256 } = await writeHashed(object.body, path.join(staging, "uploads", key));
      uploads.set(key, { path: `uploads/${key}`, bytes, sha256 });
    };
    const listStore = async () => {
      const all: { key: string; modifiedAt: number }[] = [];
      for (const folder of STORE_FOLDERS) for await (const o of store.list(`${folder}/`)) all.push(o);
      return all;
    };
    for (const o of await listStore()) await copyUpload(o.key);

    checkAbort();
    const engine = dialect();
    const tables: BackupManifest["database"]["tables"] = {};
    const databaseFiles: ManifestFile[] = [];
    let migrations: string[] = [];
    let snapshot: SnapshotWindow;
    let snapshotRows: (table: string) => AsyncIterable<Row>;
    if (engine === "sqlite") {
      const file = path.join(staging, SQLITE_FILE);
      await mkdirOwnerOnly(path.dirname(file));
      createOwnerOnlyFileSync(file);
      snapshot = await copySqliteSnapshot(file);
      for (const t of await sqliteFileTables(file)) tables[t.name] = { rows: t.rows, columns: t.columns };
      for await (const row of sqliteFileRows(file, MIGRATIONS_TABLE)) migrations.push(String(row.name));
      const { bytes, sha256 } = await hashFile(file);
      databaseFiles.push({ path: SQLITE_FILE, bytes, sha256 });
      snapshotRows = (table) => sqliteFileRows(file, table);
    } else {
      snapshot = await streamMysqlSnapshot(async (table, rows) => {
        checkAbort();
        if (!SAFE_NAME.test(table.name)) throw new Error(`Cannot name a file after the table ${JSON.stringify(table.name)}`);
        const rel = `database/${table.name}.jsonl`;
        let count = 0;
        const lines = async function* () {
          for await (const row of rows) {
            count++;
            if (table.name === MIGRATIONS_TABLE) migrations.push(String(row.name));
            yield `${JSON.stringify(table.columns.map((c) => encodeValue(row[c])))}\n`;
          }
        };
        const { bytes, sha256 } = await writeHashed(lines(), path.join(staging, rel));
        databaseFiles.push({ path: rel, bytes, sha256 });
        tables[table.name] = { rows: count, columns: table.columns };
      });
      snapshotRows = (table) => jsonlRows(path.join(staging, `database/${table}.jsonl`), tables[table].columns);
    }
    migrations = migrations.sort();

    // Files that arrived while the database was copied: in when they are older than its moment or it names them.
    const late: string[] = [];
    for (const o of await listStore()) {
      if (uploads.has(o.key)) continue;
      if (o.modifiedAt <= Date.parse(snapshot.to)) await copyUpload(o.key);
      else late.push(o.key);
    }
    if (late.length) {
      const unnamed = new Set(late.map(fileId));
      for (const table of Object.keys(tables)) if (unnamed.size) await findInRows(snapshotRows(table), unnamed);
      for (const key of late) if (!unnamed.has(fileId(key))) await copyUpload(key);
    }

    checkAbort();
    const files = [...uploads.values()].sort((a, b) => a.path.localeCompare(b.path));
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      app: { name: packageJson.name, version: packageJson.version },
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      snapshot,
      engine,
      migrations,
      migrationLevel: migrations.at(-1) ?? null,
      database: { format: engine === "sqlite" ? "sqlite-file" : "jsonl", files: databaseFiles, tables },
      uploads: { count: files.length, bytes: files.reduce((n, f) => n + f.bytes, 0), files },
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await fsp.writeFile(path.join(staging, MANIFEST), manifestBytes, { mode: OWNER_FILE_MODE });
    await fsp.writeFile(path.join(staging, SIGNATURE_FILE), signManifest(manifestBytes, opts.key), { mode: OWNER_FILE_MODE });

    // The manifest first and its signature second: a restore reads and checks them before it unpacks anything else.
    const entries = [MANIFEST, SIGNATURE_FILE, "database", ...(files.length ? ["uploads"] : [])];
    const partial = path.join(opts.dir, `${path.basename(staging)}.partial`);
    await tar.c({ gzip: true, cwd: staging, portable: true, file: partial, mode: 0o600 } as tar.TarOptionsWithAliasesAsyncFile, entries);
    await fsp.chmod(partial, OWNER_FILE_MODE);
    const handle = await fsp.open(partial, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const name = await linkUnderFreeName(partial, opts.dir, startedAt);
    await fsp.rm(partial, { force: true });
    await syncDir(opts.dir);
    const bytes = (await fsp.stat(path.join(opts.dir, name))).size;
    return { file: path.join(opts.dir, name), name, bytes, manifest };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
    await fsp.rm(path.join(opts.dir, `${path.basename(staging)}.partial`), { force: true });
  }
}

/** A hard link never replaces an existing file: two archives made in one second get -2, -3 … */
async function linkUnderFreeName(partial: string, dir: string, at: Date): Promise<string> {
  for (let n = 1; ; n++) {
    const name = archiveName(at, n);
    try {
      await fsp.link(partial, path.join(dir, name));
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || n > 100) throw error;
    }
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, "r").catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some filesystems cannot sync a directory; the file itself is synced.
  } finally {
    await handle.close();
  }
}

async function* jsonlRows(file: string, columns: string[]): AsyncGenerator<Row> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const values = JSON.parse(line) as unknown[];
    const row: Row = {};
    columns.forEach((c, i) => (row[c] = decodeValue(values[i])));
    yield row;
  }
}

/** The tables of an unpacked archive, each with a way to read its rows. */
export function archiveTables(root: string, manifest: BackupManifest): { name: string; columns: string[]; rows: () => AsyncIterable<Row> }[] {
  return Object.entries(manifest.database.tables).map(([name, { columns }]) => ({
    name,
    columns,
    rows: () =>
      manifest.database.format === "sqlite-file"
        ? sqliteFileRows(path.join(root, SQLITE_FILE), name)
        : jsonlRows(path.join(root, `database/${name}.jsonl`), columns),
  }));
}

/** The upload files of an unpacked archive: store key and where the file is. */
export function archiveUploads(root: string, manifest: BackupManifest): { key: string; file: string }[] {
  return manifest.uploads.files.map((f) => ({ key: f.path.slice("uploads/".length), file: path.join(root, f.path) }));
}

/** The archives in `dir`, newest first. */
export async function listArchives(dir: string): Promise<{ name: string; at: number }[]> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  return names
    .map((name) => ({ name, at: archiveTime(name) }))
    .filter((a): a is { name: string; at: number } => a.at !== null)
    .sort((a, b) => b.at - a.at);
}

const LEFTOVER_MIN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the archives in `dir` that BACKUP_KEEP no longer keeps (app/util/backup-keep.ts), and staging
 * folders or partial files a day old that a killed run left. Returns the names deleted.
 */
export async function thinArchives(dir: string, keep: BackupKeep, now = Date.now()): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  const kept = archivesToKeep(
    entries.map((e) => e.name),
    keep,
    now,
  );
  const removed: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (archiveTime(entry.name) !== null && entry.isFile()) {
      if (kept.has(entry.name)) continue;
      await fsp.rm(full, { force: true });
      removed.push(entry.name);
    } else if (entry.name.startsWith(".staging-")) {
      const stat = await fsp.stat(full).catch(() => null);
      if (stat && stat.mtimeMs < now - LEFTOVER_MIN_AGE_MS) {
        await fsp.rm(full, { recursive: true, force: true });
        removed.push(entry.name);
      }
    }
  }
  return removed;
}
