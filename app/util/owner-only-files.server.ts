import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { env } from "~/env.server";

/**
 * The database, its WAL, the uploads and the backups hold personal data and password hashes: only the user the
 * app runs as may read them. Files are 0600 and folders 0700, set explicitly after creating each one, so the
 * result does not depend on the umask the app was started with (a umask only ever removes bits, and a
 * permissive one, 000 under some service managers, would leave 0666 files).
 */
export const OWNER_FILE_MODE = 0o600;
export const OWNER_DIR_MODE = 0o700;

/** mkdir -p, every folder it creates 0700 (folders that were there already are left as they are). */
export async function mkdirOwnerOnly(dir: string): Promise<void> {
  const first = await fsp.mkdir(dir, { recursive: true, mode: OWNER_DIR_MODE });
  if (first === undefined) return;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    await fsp.chmod(d, OWNER_DIR_MODE);
    if (d === path.resolve(first) || d === path.dirname(d)) break;
  }
}

export function mkdirOwnerOnlySync(dir: string): void {
  const first = fs.mkdirSync(dir, { recursive: true, mode: OWNER_DIR_MODE });
  if (first === undefined) return;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    fs.chmodSync(d, OWNER_DIR_MODE);
    if (d === path.resolve(first) || d === path.dirname(d)) break;
  }
}

/** Creates `file` empty and 0600 unless it exists (SQLite then opens it and keeps its mode for the -wal and -shm). */
export function createOwnerOnlyFileSync(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, OWNER_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    throw error;
  }
  try {
    fs.fchmodSync(fd, OWNER_FILE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}

export type Tightened = { changed: number; failed: string[] };

/**
 * Existing installs: takes group and other permissions (and setuid, setgid, sticky bits) off these files and off
 * everything under these folders. Links are not followed (nor changed); what cannot be changed (a share that
 * refuses chmod) is reported, not fatal.
 */
export async function tightenModes(targets: { files: string[]; trees: string[] }): Promise<Tightened> {
  const result: Tightened = { changed: 0, failed: [] };
  const fix = async (full: string, stat: fs.Stats) => {
    const want = stat.isDirectory() ? OWNER_DIR_MODE : OWNER_FILE_MODE;
    if ((stat.mode & 0o7777) === want) return;
    try {
      await fsp.chmod(full, want);
      result.changed++;
    } catch {
      result.failed.push(full);
    }
  };
  const walk = async (dir: string) => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        await fix(full, await fsp.lstat(full));
        await walk(full);
      } else if (entry.isFile()) {
        const stat = await fsp.lstat(full).catch(() => null);
        if (stat) await fix(full, stat);
      }
    }
  };
  for (const file of targets.files) {
    const stat = await fsp.lstat(file).catch(() => null);
    if (stat?.isFile()) await fix(file, stat);
  }
  for (const tree of targets.trees) {
    const stat = await fsp.lstat(tree).catch(() => null);
    if (!stat?.isDirectory()) continue;
    await fix(tree, stat);
    await walk(tree);
  }
  return result;
}

/** The SQLite database file of a file: URL and the files SQLite keeps beside it; none for MySQL or :memory:. */
export function sqliteFilesOf(url: string): string[] {
  if (!url.startsWith("file:")) return [];
  const file = url.slice("file:".length);
  if (file === ":memory:") return [];
  const full = path.resolve(file);
  return [full, `${full}-wal`, `${full}-shm`, `${full}-journal`];
}

/**
 * At start: installs from before files were made owner-only get their database, uploads and backups tightened
 * (one log line when anything changed).
 */
export async function tightenDataModes(log: (line: string) => void): Promise<void> {
  const e = env();
  const r = await tightenModes({ files: sqliteFilesOf(e.DATABASE_URL), trees: [path.resolve(e.UPLOAD_DIR), path.resolve(e.BACKUP_DIR)] });
  if (!r.changed && !r.failed.length) return;
  const failed = r.failed.length ? `; ${r.failed.length} could not be changed (${r.failed.slice(0, 3).join(", ")}): fix them by hand` : "";
  log(`Made ${r.changed} files and folders of the database, the uploads and the backups owner-only (files 0600, folders 0700)${failed}.`);
}
