import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import * as tar from "tar";
import { z } from "zod";
import { knownMigrations } from "~db/client.server";
import { sqliteFileTables } from "~/models/backup-data.server";
import { mkdirOwnerOnly, OWNER_FILE_MODE } from "~/util/owner-only-files.server";
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, BackupArchiveError, MANIFEST, SAFE_NAME, SQLITE_FILE, type BackupManifest } from "./backup-archive.server";
import { manifestSignedBy, SIGNATURE_FILE, type BackupKey } from "./backup-signature.server";
import { isStoreKey } from "./file-store.server";

/**
 * Reading an archive back, which may have been made (or changed) by someone else: nothing in it is trusted
 * before it is checked, and nothing is written before the manifest is.
 *
 * 1. A first pass reads only the manifest and its signature (npm run backup writes them first and second; in an
 *    archive packed again by hand, at most 1 GB of other entries before them is inflated and passed over), in
 *    memory and size-capped, and checks the signature with the operator's key (unless --trust-unsigned), then
 *    every path, size and name the manifest lists (the upload store's key rule, no "..", no absolute path, no
 *    name twice), the hard limits below, and the free space the unpacking needs.
 * 2. A second pass unpacks exactly the listed files, each held to its listed size and checked against its
 *    SHA-256, into folders made from the listed paths (0700), as new 0600 files of the running user: a
 *    setuid bit, an owner, a link, a device, a directory not on a listed path, an unlisted or repeated entry
 *    is refused, never written. The decompressed stream may not pass what the manifest accounts for, so a
 *    decompression bomb stops within a few kilobytes of its first unlisted byte.
 */
export const UNPACK_LIMITS = {
  /** A manifest lists about 150 bytes per file: 32 MB is some 200,000 files. */
  manifestBytes: 32 * 1024 * 1024,
  /** In an archive packed again by hand, what may come before the manifest (inflated and passed over). */
  beforeManifest: 1024 ** 3,
  signatureBytes: 1024,
  files: 250_000,
  tables: 1_000,
  /** Database and uploads together. */
  totalBytes: 256 * 1024 ** 3,
  /** A pax or long-name header (our paths are under 200 characters). */
  metaBytes: 16 * 1024,
  /** Per entry, what tar puts around a file's bytes (header, pax header, padding), generously. */
  entryOverhead: 4 * 1024,
  /** The end-of-archive blocks and the padding to tar's record size. */
  trailingBytes: 1024 * 1024,
  /** Left free on the disk after unpacking. */
  freeSpaceMargin: 64 * 1024 * 1024,
} as const;

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const damaged = (name: string, what: string) =>
  new BackupArchiveError(`The archive ${name} is damaged: ${what}. Nothing was restored; use another archive (or a complete copy of this one).`);

const refused = (name: string, what: string) => new BackupArchiveError(`The archive ${name} is refused: ${what}. Nothing was restored.`);

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const fileSchema = z.object({ path: z.string().min(1).max(300), bytes: z.number().int().min(0).max(UNPACK_LIMITS.totalBytes), sha256 });
const when = z.string().max(40);
const safeName = z.string().regex(SAFE_NAME);
const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.number().int().min(1),
  app: z.object({ name: z.string().max(200), version: z.string().max(100) }),
  startedAt: when,
  finishedAt: when,
  snapshot: z.object({ from: when, to: when }),
  engine: z.enum(["sqlite", "mysql"]),
  migrations: z.array(z.string().min(1).max(200)).min(1).max(10_000),
  migrationLevel: z.string().max(200).nullable(),
  database: z.object({
    format: z.enum(["sqlite-file", "jsonl"]),
    files: z.array(fileSchema).max(UNPACK_LIMITS.tables),
    tables: z.record(safeName, z.object({ rows: z.number().int().min(0), columns: z.array(safeName).min(1).max(2_000) })),
  }),
  uploads: z.object({ count: z.number().int().min(0), bytes: z.number().int().min(0), files: z.array(fileSchema).max(UNPACK_LIMITS.files) }),
});

export type Authenticity = { signed: true; keySource: string } | { signed: false; reason: string };

export type UnpackOptions = {
  /** The operator's key (app/infra/backup-signature.server.ts verifyingKey()); null when there is none. */
  key: BackupKey | null;
  /** Unpack an archive that is unsigned or signed with another key (after the operator verified it otherwise). */
  trustUnsigned?: boolean;
  /** Where the loud warning of an unverified archive goes. */
  warn?: (line: string) => void;
  /** Other folders that must have room too (the restore's database), in bytes: summed with the unpacking when on one disk. */
  alsoNeeds?: (manifest: BackupManifest) => { dir: string; bytes: number }[];
};

export type Unpacked = { manifest: BackupManifest; authenticity: Authenticity };

/**
 * Unpacks an archive into the empty folder `into` and checks it whole: signature, manifest, paths, limits and
 * free space before anything is written; then the gzip and tar framing (a truncated copy fails), every file's
 * size and SHA-256, every table's row count, and that this version knows every migration of the database.
 * Throws BackupArchiveError with a message for the operator.
 */
export async function unpackBackupArchive(file: string, into: string, opts: UnpackOptions): Promise<Unpacked> {
  const name = path.basename(file);
  const stat = await fsp.stat(file).catch(() => null);
  if (!stat?.isFile()) throw new BackupArchiveError(`There is no archive at ${file}.`);

  const head = await readHead(file, name);
  const authenticity = checkSignature(name, head, opts);
  const manifest = checkManifest(name, head.manifest);
  const layout = layoutOf(name, manifest);
  await requireFreeSpace(name, [{ dir: into, bytes: head.manifest.length + layout.totalBytes }, ...(opts.alsoNeeds?.(manifest) ?? [])]);

  for (const dir of layout.dirs) await mkdirOwnerOnly(path.join(into, dir));
  const lines = await extract(file, name, into, head, layout);
  await checkTables(name, into, manifest, lines);
  return { manifest, authenticity };
}

type Head = { manifest: Buffer; signature: Buffer | null };

/** An entry's path as the manifest writes it: `tar -C dir .` (GNU tar) puts "./" in front of every name. */
const pathOf = (entry: tar.ReadEntry) => entry.path.replace(/^\.\//, "").replace(/\/$/, "");

/**
 * Pass 1: the manifest and its signature, nothing else, nothing written. npm run backup puts them first; an
 * archive packed again by hand may have them later, so up to `UNPACK_LIMITS.beforeManifest` bytes of other
 * entries are passed over (inflated and dropped) to find them. The signature is looked for before the manifest
 * and right after it.
 */
async function readHead(file: string, name: string): Promise<Head> {
  let manifest: Buffer | null = null;
  let signature: Buffer | null = null;
  let entries = 0;
  let done = false;
  await scanArchive(file, name, {
    allowance: () => UNPACK_LIMITS.beforeManifest + UNPACK_LIMITS.manifestBytes + UNPACK_LIMITS.signatureBytes,
    overflow: () =>
      refused(
        name,
        `its ${MANIFEST} is not within its first ${MB(UNPACK_LIMITS.beforeManifest)} (npm run backup writes it first; an archive packed again by hand needs it and ${SIGNATURE_FILE} first too: tar -czf <archive> ${MANIFEST} ${SIGNATURE_FILE} database uploads)`,
      ),
    done: () => done,
    onEntry(entry) {
      if (++entries > UNPACK_LIMITS.files) throw refused(name, `its ${MANIFEST} is not among its first ${UNPACK_LIMITS.files} entries`);
      const at = pathOf(entry);
      if (at === MANIFEST && !manifest && entry.type === "File") {
        if (entry.size > UNPACK_LIMITS.manifestBytes)
          throw refused(name, `its ${MANIFEST} is ${MB(entry.size)}, more than a backup's manifest may be (${MB(UNPACK_LIMITS.manifestBytes)})`);
        collect(entry, entry.size, (bytes) => {
          manifest = bytes;
          done = signature !== null;
        });
        return;
      }
      if (at === SIGNATURE_FILE && !signature && entry.type === "File" && entry.size <= UNPACK_LIMITS.signatureBytes) {
        collect(entry, entry.size, (bytes) => {
          signature = bytes;
          done = manifest !== null;
        });
        return;
      }
      // Whatever follows the manifest is for the second pass (an archive without a signature after it is unsigned).
      if (manifest) done = true;
      entry.resume();
    },
  });
  if (!manifest) throw damaged(name, `it has no ${MANIFEST}${entries ? "" : " (it holds no entries)"}`);
  return { manifest, signature };
}

/** An entry's bytes in memory, at most `max` (its header's size, already capped). */
function collect(entry: tar.ReadEntry, max: number, then: (bytes: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let bytes = 0;
  entry.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes <= max) chunks.push(chunk);
  });
  entry.on("end", () => then(Buffer.concat(chunks).subarray(0, max)));
}

function checkSignature(name: string, head: Head, opts: UnpackOptions): Authenticity {
  const problem = !head.signature
    ? "it is not signed (it has no manifest.sig: made before archives were signed, or the signature was removed)"
    : !opts.key
      ? "its signature cannot be checked: BACKUP_KEY is not set (nor is there a data/backup-key)"
      : !manifestSignedBy(head.manifest, head.signature, opts.key)
        ? `its signature does not match the key in ${opts.key.source}: it was signed with another key, or changed after it was made`
        : null;
  if (!problem) return { signed: true, keySource: opts.key!.source };
  if (!opts.trustUnsigned) {
    throw new BackupArchiveError(
      `The archive ${name} is refused: ${problem}. Nothing was restored. Set BACKUP_KEY to the key the backups were made with; if that key is lost and you have checked this archive by other means (its SHA-256 against a copy kept elsewhere), run again with --trust-unsigned.`,
    );
  }
  opts.warn?.(
    `WARNING: ${name}: ${problem}. Going on only because of --trust-unsigned: whoever could write this archive chose every row, account and password in it.`,
  );
  return { signed: false, reason: problem };
}

function checkManifest(name: string, bytes: Buffer): BackupManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw damaged(name, `its ${MANIFEST} is unreadable`);
  }
  const head = (raw ?? {}) as { format?: unknown; formatVersion?: unknown; app?: { version?: unknown } };
  if (head.format !== ARCHIVE_FORMAT)
    throw new BackupArchiveError(`${name} is not a backup archive of this app (its manifest says format ${JSON.stringify(head.format)}).`);
  if (!(typeof head.formatVersion === "number" && head.formatVersion <= ARCHIVE_FORMAT_VERSION)) {
    throw new BackupArchiveError(
      `The archive ${name} was made by a newer version of the app (archive format ${String(head.formatVersion)}, app ${String(head.app?.version)}); this version reads format ${ARCHIVE_FORMAT_VERSION}. Restore it with that version or a newer one.`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw damaged(name, `its ${MANIFEST} is not a backup's manifest (${issue.path.join(".")}: ${issue.message})`);
  }
  const manifest = parsed.data as BackupManifest;
  const known = new Set(knownMigrations());
  const unknown = manifest.migrations.filter((m) => !known.has(m));
  if (unknown.length) {
    throw new BackupArchiveError(
      `The archive ${name} holds a newer database schema than this version of the app knows (migration${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; app ${manifest.app.version}). Restore it with that version of the app or a newer one.`,
    );
  }
  if (new Set(manifest.migrations).size !== manifest.migrations.length) throw damaged(name, "its manifest lists a migration twice");
  return manifest;
}

type Layout = { files: Map<string, { bytes: number; sha256: string }>; dirs: string[]; totalBytes: number };

/** Every path the manifest lists, checked as the restore will use it, and the folders they need. */
function layoutOf(name: string, manifest: BackupManifest): Layout {
  const bad = (what: string) => damaged(name, what);
  const tables = Object.keys(manifest.database.tables);
  if (tables.length > UNPACK_LIMITS.tables) throw bad(`its manifest lists ${tables.length} tables`);
  const db = manifest.database;
  if (db.format === "sqlite-file") {
    if (manifest.engine !== "sqlite" || db.files.length !== 1 || db.files[0].path !== SQLITE_FILE)
      throw bad(`an SQLite archive holds one database file, ${SQLITE_FILE}`);
  } else {
    const expected = new Set(tables.map((t) => `database/${t}.jsonl`));
    if (db.files.length !== expected.size || db.files.some((f) => !expected.has(f.path))) throw bad("its database files are not one per table");
  }
  for (const f of manifest.uploads.files) {
    if (!f.path.startsWith("uploads/") || !isStoreKey(f.path.slice("uploads/".length)))
      throw bad(`it lists a file the upload store cannot hold (${JSON.stringify(f.path)})`);
  }
  if (manifest.uploads.count !== manifest.uploads.files.length) throw bad("its manifest's file count does not match its file list");
  const uploadBytes = manifest.uploads.files.reduce((n, f) => n + f.bytes, 0);
  if (manifest.uploads.bytes !== uploadBytes) throw bad("its manifest's byte count does not match its file list");

  const files = new Map<string, { bytes: number; sha256: string }>();
  const folded = new Set<string>();
  const dirs = new Set<string>();
  let totalBytes = 0;
  for (const f of [...db.files, ...manifest.uploads.files]) {
    // Two names one case-insensitive disk would make one file are as bad as one name twice.
    if (files.has(f.path) || folded.has(f.path.toLowerCase())) throw bad(`its manifest lists ${f.path} twice`);
    files.set(f.path, { bytes: f.bytes, sha256: f.sha256 });
    folded.add(f.path.toLowerCase());
    totalBytes += f.bytes;
    for (let d = path.posix.dirname(f.path); d !== "."; d = path.posix.dirname(d)) dirs.add(d);
  }
  if (totalBytes > UNPACK_LIMITS.totalBytes) throw bad(`its manifest lists ${MB(totalBytes)}, more than this app unpacks (${MB(UNPACK_LIMITS.totalBytes)})`);
  return { files, dirs: [...dirs].sort(), totalBytes };
}

/** Refuses before writing when a disk lacks room: each folder's need, summed for folders on one disk. */
async function requireFreeSpace(name: string, needs: { dir: string; bytes: number }[]): Promise<void> {
  const byDisk = new Map<string, { dir: string; bytes: number; free: number }>();
  for (const need of needs) {
    let dir = path.resolve(need.dir);
    while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    const [stat, fsStat] = await Promise.all([fsp.stat(dir), fsp.statfs(dir)]);
    const disk = String(stat.dev);
    const entry = byDisk.get(disk) ?? { dir, bytes: UNPACK_LIMITS.freeSpaceMargin, free: fsStat.bavail * fsStat.bsize };
    entry.bytes += need.bytes;
    byDisk.set(disk, entry);
  }
  for (const { dir, bytes, free } of byDisk.values()) {
    if (free < bytes) {
      throw new BackupArchiveError(
        `There is not enough free space to restore ${name}: it needs ${MB(bytes)} on the disk of ${dir} (with a margin of ${MB(UNPACK_LIMITS.freeSpaceMargin)}), and ${MB(free)} are free. Nothing was restored.`,
      );
    }
  }
}

/** Pass 2: every listed file, nothing else; returns the newline count of each .jsonl file. */
async function extract(file: string, name: string, into: string, head: Head, layout: Layout): Promise<Map<string, number>> {
  const seen = new Set<string>();
  const lines = new Map<string, number>();
  const writes: Promise<void>[] = [];
  const dirs = new Set(layout.dirs);
  const maxEntries = 3 + layout.files.size + layout.dirs.length; // the manifest, its signature and "./" besides
  let entries = 0;
  let listedBytes = 0;
  for (const f of layout.files.values()) listedBytes += Math.ceil(f.bytes / 512) * 512;
  // Every entry is listed (its size counted), a folder (no body) or refused at its header, wherever the manifest is.
  const allowance =
    Math.ceil(head.manifest.length / 512) * 512 +
    UNPACK_LIMITS.signatureBytes +
    listedBytes +
    (maxEntries + 1) * UNPACK_LIMITS.entryOverhead +
    UNPACK_LIMITS.trailingBytes;
  const met = new Set<string>();

  await scanArchive(file, name, {
    allowance: () => allowance,
    done: () => false,
    pending: writes,
    onEntry(entry, fail) {
      if (++entries > maxEntries) throw refused(name, `it holds more entries than its manifest lists (${maxEntries})`);
      const at = pathOf(entry);
      if (at === MANIFEST || at === SIGNATURE_FILE) {
        // The same manifest and signature the first pass checked (the file cannot have been swapped meanwhile).
        const expected = at === MANIFEST ? head.manifest : head.signature;
        if (met.has(at)) throw refused(name, `it holds ${at} twice`);
        met.add(at);
        if (!expected) return void entry.resume(); // a signature the first pass did not take: not used
        if (entry.type !== "File" || entry.size !== expected.length) throw damaged(name, "it changed while it was read");
        collect(entry, expected.length, (bytes) => {
          if (!bytes.equals(expected)) fail(damaged(name, "it changed while it was read"));
        });
        return;
      }
      if (entry.type === "Directory") {
        if (at !== "" && at !== "." && !dirs.has(at)) throw refused(name, `it holds a folder its manifest does not list (${JSON.stringify(entry.path)})`);
        entry.resume();
        return;
      }
      if (entry.type !== "File") throw refused(name, `it holds a ${entry.type} entry (${JSON.stringify(entry.path)}); a backup holds only files and folders`);
      const listed = layout.files.get(at);
      if (!listed) throw refused(name, `it holds a file its manifest does not list (${JSON.stringify(entry.path)})`);
      if (seen.has(at)) throw refused(name, `it holds ${at} twice`);
      seen.add(at);
      if (entry.size !== listed.bytes) throw damaged(name, `${at} is ${entry.size} bytes, its manifest says ${listed.bytes}`);
      const write = writeEntry(entry, path.join(into, at), listed.bytes).then((got) => {
        if (got.bytes !== listed.bytes || got.sha256 !== listed.sha256) throw damaged(name, `${at} does not match its SHA-256 in the manifest`);
        if (at.endsWith(".jsonl")) lines.set(at, got.lines);
      });
      // A failed write stops the scan at once (and is not left as an unhandled rejection meanwhile).
      writes.push(
        write.catch((error: unknown) => fail(error instanceof BackupArchiveError ? error : damaged(name, `it could not be unpacked (${String(error)})`))),
      );
    },
  });
  for (const f of layout.files.keys()) if (!seen.has(f)) throw damaged(name, `${f} is missing`);
  return lines;
}

/** Writes one entry as a new 0600 file (never over anything), hashing it and stopping past `max` bytes. */
function writeEntry(entry: tar.ReadEntry, dest: string, max: number): Promise<{ bytes: number; sha256: string; lines: number }> {
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(dest, { flags: "wx", mode: OWNER_FILE_MODE });
    const hash = createHash("sha256");
    let bytes = 0;
    let lines = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      out.destroy();
      entry.resume();
      reject(error);
    };
    out.on("error", fail);
    entry.on("data", (chunk: Buffer) => {
      if (failed) return;
      bytes += chunk.length;
      if (bytes > max) return fail(new Error(`${entry.path} is longer than listed`));
      hash.update(chunk);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      if (!out.write(chunk)) {
        entry.pause();
        out.once("drain", () => entry.resume());
      }
    });
    entry.on("end", () => {
      if (failed) return;
      out.end(() => resolve({ bytes, sha256: hash.digest("hex"), lines }));
    });
  });
}

type Scan = {
  /** Throws (or calls `fail` later, from the entry's own events) to refuse. */
  onEntry: (entry: tar.ReadEntry, fail: (error: unknown) => void) => void;
  /** How many decompressed bytes the archive may have, and what passing them means. */
  allowance: () => number;
  overflow?: () => BackupArchiveError;
  done: () => boolean;
  /** Work the entries started (file writes): waited for before the scan counts as done. */
  pending?: Promise<void>[];
};

/**
 * Streams the archive through gunzip into node-tar's parser, one entry at a time with back-pressure; `onEntry`
 * throws to refuse. The gzip layer is ours, so a bomb is counted as it inflates, and the parser is given plain
 * tar only (it would otherwise unpack a second compression layer hidden inside).
 */
async function scanArchive(file: string, name: string, scan: Scan): Promise<void> {
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const fail = (error: unknown) => {
    failure ??= error;
    wake?.();
  };
  const parser = new tar.Parser({ strict: true, maxMetaEntrySize: UNPACK_LIMITS.metaBytes, brotli: false, zstd: false });
  parser.on("entry", (entry: tar.ReadEntry) => {
    if (failure) return void entry.resume();
    try {
      scan.onEntry(entry, fail);
    } catch (error) {
      entry.resume();
      fail(error);
    }
  });
  // An entry node-tar does not hand out: an unknown type, or a pax header bigger than any of ours.
  parser.on("ignoredEntry", (entry: tar.ReadEntry) =>
    fail(refused(name, `it holds an entry a backup never has (${entry.type} ${JSON.stringify(entry.path)})`)),
  );
  parser.on("error", (error: Error) => fail(damaged(name, `it could not be read to the end (${error.message}); it was probably cut short while being copied`)));
  let eof = false;
  parser.on("eof", () => (eof = true));

  let inflated = 0;
  let stopped = false;
  // Thrown out of the pipeline, an error can reach us as the abort it causes upstream: kept here first.
  const stop = (error: unknown): never => {
    fail(error);
    throw error;
  };
  let start: Buffer | null = Buffer.alloc(0);
  const feed = async (chunk: Buffer) => {
    if (!parser.write(chunk) && !failure) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        parser.once("drain", resolve);
      });
      wake = null;
    }
  };
  try {
    await pipeline(fs.createReadStream(file), zlib.createGunzip(), async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) {
        inflated += chunk.length;
        if (inflated > scan.allowance())
          stop(
            scan.overflow?.() ??
              refused(name, `it inflates to more than its manifest accounts for (over ${MB(scan.allowance())}), as a decompression bomb does`),
          );
        if (eof) continue; // the gzip stream is read to its end (its checksum), the tar is done
        if (start) {
          // A tar starts with a name; gzip inside gzip would be unpacked by the parser itself, uncounted: refused.
          start = Buffer.concat([start, chunk]);
          if (start.length < 512) continue;
          if (start[0] === 0x1f && start[1] === 0x8b) stop(damaged(name, "it holds a compressed file inside its compression, not a tar"));
          const first = start;
          start = null;
          await feed(first);
        } else await feed(chunk);
        if (failure) stop(failure);
        if (scan.done()) {
          stopped = true;
          return;
        }
      }
      if (start?.[0] === 0x1f && start[1] === 0x8b) stop(damaged(name, "it holds a compressed file inside its compression, not a tar"));
      if (start) stop(damaged(name, `it has no ${MANIFEST} (it holds no entries)`));
      const ended = new Promise<void>((resolve) => {
        wake = resolve;
        parser.once("end", resolve);
      });
      parser.end();
      await ended;
    });
    await Promise.all(scan.pending ?? []);
  } catch (error) {
    if (failure) throw failure;
    // Leaving early (the first pass has what it came for) ends the pipeline with an abort: not an error.
    if (stopped) return;
    if (error instanceof BackupArchiveError) throw error;
    const detail = error instanceof Error ? error.message.replace(/^zlib: /, "") : String(error);
    throw damaged(name, `it could not be read to the end (${detail}); it was probably cut short while being copied`);
  }
  if (failure) throw failure;
}

/** Row counts: JSONL lines, or the SQLite file's tables, against the manifest. */
async function checkTables(name: string, into: string, manifest: BackupManifest, lines: Map<string, number>): Promise<void> {
  if (manifest.database.format === "sqlite-file") {
    let tables: Awaited<ReturnType<typeof sqliteFileTables>>;
    try {
      tables = await sqliteFileTables(path.join(into, SQLITE_FILE));
    } catch (error) {
      throw damaged(name, `its database file cannot be read (${error instanceof Error ? error.message : String(error)})`);
    }
    const counted = new Map(tables.map((t) => [t.name, t]));
    for (const [table, { rows, columns }] of Object.entries(manifest.database.tables)) {
      const found = counted.get(table);
      if (found?.rows !== rows) throw damaged(name, `the table ${table} has ${found?.rows ?? "no"} rows, the manifest says ${rows}`);
      const have = new Set(found.columns);
      if (columns.some((c) => !have.has(c))) throw damaged(name, `the table ${table} lacks columns its manifest lists`);
    }
  } else {
    for (const [table, { rows }] of Object.entries(manifest.database.tables)) {
      const n = lines.get(`database/${table}.jsonl`);
      if (n !== rows) throw damaged(name, `the table ${table} has ${n} rows, the manifest says ${rows}`);
    }
  }
}
