import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { closeDb, db, dialect, knownMigrations, migrateToLatest, openDb } from "~db/client.server";
import { env } from "~/env.server";
import { archiveTables, archiveUploads, BackupArchiveError, type BackupManifest } from "~/infra/backup-archive.server";
import { verifyingKey } from "~/infra/backup-signature.server";
import { unpackBackupArchive, type Unpacked } from "~/infra/backup-unpack.server";
import { fileStore, STORE_FOLDERS } from "~/infra/file-store.server";
import { countRows, databaseTables, dropTables, loadRows, migrationNames, rebuildSearchIndexes, sqliteFileTables } from "~/models/backup-data.server";
import { mkdirOwnerOnly } from "~/util/owner-only-files.server";

/**
 * `npm run restore <archive>`: rebuilds a stopped site from one archive into the database DATABASE_URL names
 * and the folder UPLOAD_DIR names, both empty. The archive is unpacked and checked whole first
 * (app/infra/backup-unpack.server.ts: signature, paths, limits, framing, hashes, counts, known migrations), so
 * a forged, damaged or newer archive is refused before anything is written. Then the database: the archive's
 * migrations run on the empty database and its rows are loaded into them, whichever engines (so a move between
 * engines is a restore, and an SQLite file's own schema never comes along). The rows are counted again in the
 * target, then the files go into the upload store (0600). If any step fails, the database and the upload folder
 * are left as empty as they were.
 */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

export type RestoreSummary = {
  archive: string;
  from: BackupManifest["engine"];
  to: "sqlite" | "mysql";
  snapshotAt: string;
  tables: number;
  rows: number;
  files: number;
  migrationLevel: string | null;
  /** Migrations of this version the archive predates: the next start applies them. */
  pendingMigrations: string[];
  /** False when the operator restored it with --trust-unsigned. */
  signed: boolean;
};

const sqliteFileOf = (url: string) => path.resolve(url.slice("file:".length));

async function uploadStoreEmpty(): Promise<boolean> {
  const store = fileStore();
  for (const folder of STORE_FOLDERS) for await (const _ of store.list(`${folder}/`)) return false;
  return true;
}

/** MySQL/MariaDB: creates the database when it does not exist yet (utf8mb4, as the README says). */
async function ensureMysqlDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ""));
  if (!name) throw new RestoreRefused("DATABASE_URL names no database: use mysql://user:pass@host:3306/<database>.");
  u.pathname = "/";
  const { createConnection } = await import("mysql2/promise");
  const conn = await createConnection({ uri: u.toString() });
  try {
    await conn.query(`CREATE DATABASE IF NOT EXISTS \`${name.replace(/`/g, "``")}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await conn.end();
  }
}

/** Refuses unless the database and the upload folder are empty (a site that has started once is not). */
async function checkTargetEmpty(url: string): Promise<void> {
  if (url.startsWith("file:")) {
    const file = sqliteFileOf(url);
    if (fs.existsSync(file) && fs.statSync(file).size > 0) {
      const tables = await sqliteFileTables(file).catch(() => [{ name: "?" }]);
      if (tables.length) {
        throw new RestoreRefused(
          `The database ${file} is not empty. Restore into an empty data folder: stop the site, move ${path.dirname(file)} aside (keep it until the restored site works), and run the restore again.`,
        );
      }
    }
  } else {
    await ensureMysqlDatabase(url);
    await openDb(url);
    const tables = await databaseTables();
    await closeDb();
    if (tables.length) {
      throw new RestoreRefused(
        `The database in DATABASE_URL is not empty (${tables.length} tables). Restore into an empty database: stop the site, create a new database (or drop this one's tables) and run the restore again.`,
      );
    }
  }
  if (!(await uploadStoreEmpty())) {
    throw new RestoreRefused(
      `The upload folder ${path.resolve(env().UPLOAD_DIR)} is not empty. Point UPLOAD_DIR at an empty folder (or move this one aside) and run the restore again.`,
    );
  }
}

export type RestoreOptions = {
  /** Go on with an archive that is unsigned or signed with another key (the operator verified it otherwise). */
  trustUnsigned?: boolean;
  log?: (line: string) => void;
  /** The loud warning when the signature is not checked. */
  warn?: (line: string) => void;
};

/** Unpacks and checks an archive without restoring it (`npm run restore -- --check <archive>`). */
export async function checkBackupArchive(file: string, opts: RestoreOptions = {}): Promise<Unpacked> {
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), "backup-check-"));
  try {
    return await unpackBackupArchive(path.resolve(file), work, { key: verifyingKey(), trustUnsigned: opts.trustUnsigned, warn: opts.warn ?? console.error });
  } finally {
    // A failed unpack may still be finishing writes: retry, and never let the clean-up hide the real error.
    await fsp.rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
  }
}

export async function restoreBackup(file: string, opts: RestoreOptions = {}): Promise<RestoreSummary> {
  const log = opts.log ?? console.log;
  const archive = path.resolve(file);
  const url = env().DATABASE_URL;
  const to = url.startsWith("file:") ? "sqlite" : "mysql";
  await checkTargetEmpty(url);
  // Unpacked beside the upload folder, so its files are moved into place rather than copied.
  const uploadRoot = path.resolve(env().UPLOAD_DIR);
  const existed = new Set([uploadRoot, ...STORE_FOLDERS.map((f) => path.join(uploadRoot, f))].filter((d) => fs.existsSync(d)));
  await mkdirOwnerOnly(path.dirname(uploadRoot));
  const work = await fsp.mkdtemp(path.join(path.dirname(uploadRoot), ".restore-"));
  const placed: string[] = [];
  let databaseRestored = false;
  try {
    log(`Checking ${archive} …`);
    const { manifest, authenticity } = await unpackBackupArchive(archive, work, {
      key: verifyingKey(),
      trustUnsigned: opts.trustUnsigned,
      warn: opts.warn ?? console.error,
      // An SQLite target is loaded from the rows, next to the unpacked copy: room for it and its indexes.
      alsoNeeds: (m) => (to === "sqlite" ? [{ dir: path.dirname(sqliteFileOf(url)), bytes: 2 * m.database.files.reduce((n, f) => n + f.bytes, 0) }] : []),
    });
    const rows = Object.values(manifest.database.tables).reduce((n, t) => n + t.rows, 0);
    log(
      `The archive is whole${authenticity.signed ? ` and signed with the key in ${authenticity.keySource}` : " (its signature NOT checked: --trust-unsigned)"}: ${manifest.engine} database of ${manifest.snapshot.from}, ${rows} rows, ${manifest.uploads.count} files, app ${manifest.app.version}.`,
    );
    await restoreDatabase(url, work, manifest, log);
    databaseRestored = true;
    const store = fileStore();
    for (const upload of archiveUploads(work, manifest)) {
      await store.putFile(upload.key, upload.file);
      placed.push(upload.key);
    }
    const archived = new Set(manifest.migrations);
    const summary: RestoreSummary = {
      archive,
      from: manifest.engine,
      to,
      snapshotAt: manifest.snapshot.from,
      tables: Object.keys(manifest.database.tables).length,
      rows,
      files: manifest.uploads.count,
      migrationLevel: manifest.migrationLevel,
      pendingMigrations: knownMigrations().filter((m) => !archived.has(m)),
      signed: authenticity.signed,
    };
    log(
      `Restored ${summary.rows} rows in ${summary.tables} tables and ${summary.files} files (${summary.from} into ${summary.to}), as of ${summary.snapshotAt}.` +
        (summary.pendingMigrations.length ? ` The next start applies ${summary.pendingMigrations.length} newer migration(s).` : ""),
    );
    return summary;
  } catch (error) {
    // Leave the target as empty as it was, so that the restore can simply be run again.
    const store = fileStore();
    for (const key of placed) await store.delete(key).catch(() => {});
    for (const folder of [...STORE_FOLDERS.map((f) => path.join(uploadRoot, f)), uploadRoot]) {
      if (!existed.has(folder)) await fsp.rmdir(folder).catch(() => {});
    }
    if (databaseRestored) await emptyDatabase(url);
    throw error;
  } finally {
    await closeDb();
    // A failed unpack may still be finishing writes: retry, and never let the clean-up hide the real error.
    await fsp.rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
  }
}

/**
 * Whatever the archive's engine, the target is made by this version's migrations (those the archive had) and
 * only rows go in, into the tables and columns those migrations made: nothing of an archive's schema (an
 * SQLite file's triggers, views or extra tables) reaches the restored site, and its file is only read.
 */
async function restoreDatabase(url: string, work: string, manifest: BackupManifest, log: (line: string) => void): Promise<void> {
  const expected = manifest.database.tables;
  await openDb(url);
  try {
    await migrateToLatest(db(), new Set(manifest.migrations));
    const target = new Map((await databaseTables()).map((t) => [t.name, new Set(t.columns)]));
    for (const [table, { columns }] of Object.entries(expected)) {
      const have = target.get(table);
      if (!have) throw new BackupArchiveError(`The archive has a table ${table} that its migrations do not make here; nothing was restored.`);
      const missing = columns.filter((c) => !have.has(c));
      if (missing.length)
        throw new BackupArchiveError(`The archive's table ${table} has columns its migrations do not make here (${missing.join(", ")}); nothing was restored.`);
    }
    const loaded = await loadRows(archiveTables(work, manifest));
    for (const [table, { rows }] of Object.entries(expected)) {
      if (loaded[table] !== rows)
        throw new BackupArchiveError(`Read ${loaded[table]} rows of ${table} from the archive, its manifest says ${rows}; nothing was restored.`);
    }
    // The list of applied migrations came with the rows: it must be the one the schema was just made from.
    const applied = (await migrationNames()).sort();
    if (applied.join() !== [...manifest.migrations].sort().join())
      throw new BackupArchiveError("The archive's database lists other migrations than its manifest; nothing was restored.");
    // The search index is not in the archive: made again from the rows just loaded.
    await rebuildSearchIndexes();
    await compareCounts(expected);
    log(`Loaded ${Object.keys(expected).length} tables into the ${dialect() === "mysql" ? "MySQL/MariaDB" : "SQLite"} database.`);
  } catch (error) {
    await emptyDatabase(url);
    throw error;
  }
}

/** Drops what a restore made in the (open) target database; an SQLite file goes altogether. */
async function emptyDatabase(url: string): Promise<void> {
  const made = (await databaseTables({ withDerived: true }).catch(() => [])).map((t) => t.name);
  await dropTables([...made, "kysely_migration_lock"]).catch(() => {});
  if (url.startsWith("file:")) {
    await closeDb();
    for (const suffix of ["", "-wal", "-shm"]) await fsp.rm(sqliteFileOf(url) + suffix, { force: true });
  }
}

async function compareCounts(expected: BackupManifest["database"]["tables"]): Promise<void> {
  for (const [table, { rows }] of Object.entries(expected)) {
    const n = await countRows(table);
    if (n !== rows) throw new BackupArchiveError(`After the restore the table ${table} has ${n} rows, the archive's manifest says ${rows}.`);
  }
}
