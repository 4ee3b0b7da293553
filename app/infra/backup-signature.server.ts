import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env, type Env } from "~/env.server";
import { mkdirOwnerOnlySync, OWNER_FILE_MODE } from "~/util/owner-only-files.server";

/**
 * Archives are signed: manifest.sig holds the HMAC-SHA256 of manifest.json's bytes under BACKUP_KEY, and the
 * manifest holds every other file's size and SHA-256, so the signature covers the whole archive. The key is the
 * operator's and never in an archive: whoever can write to the backup folder (or swap a copy on its way back)
 * cannot make an archive a restore accepts, as restic and borg authenticate theirs. The key is used as its UTF-8
 * bytes, so an operator can check a signature by hand:
 *   tar -xzf backup-….tar.gz manifest.json manifest.sig && openssl dgst -sha256 -hmac "$BACKUP_KEY" manifest.json
 */
export const SIGNATURE_FILE = "manifest.sig";

/** Outside production without BACKUP_KEY (the quick start, `npm run backup` from a checkout): a key kept here. */
export const BACKUP_KEY_FILE = path.join("data", "backup-key");

export type BackupKey = { key: Buffer; source: string };

export class BackupKeyMissing extends Error {
  override name = "BackupKeyMissing";
}

const MIN_KEY_LENGTH = 32;

function keyFromFile(file: string): BackupKey {
  const text = fs.readFileSync(file, "utf8").trim();
  if (text.length < MIN_KEY_LENGTH)
    throw new BackupKeyMissing(`The backup key in ${file} is shorter than ${MIN_KEY_LENGTH} characters; set BACKUP_KEY instead.`);
  return { key: Buffer.from(text, "utf8"), source: file };
}

/**
 * The key new archives are signed with: BACKUP_KEY; outside production without it, the key kept in
 * data/backup-key (made on first use, 0600, like data/session-secret). Production without BACKUP_KEY makes no
 * archive: one nobody can verify later is no backup.
 */
export function signingKey({ e = env(), root = process.cwd() }: { e?: Env; root?: string } = {}): BackupKey {
  if (e.BACKUP_KEY) return { key: Buffer.from(e.BACKUP_KEY, "utf8"), source: "BACKUP_KEY" };
  if (e.NODE_ENV === "production") {
    throw new BackupKeyMissing(
      "BACKUP_KEY is not set: in production every archive is signed with it. Make one (openssl rand -base64 48), keep a copy apart from the archives, set BACKUP_KEY and run the backup again.",
    );
  }
  const file = path.resolve(root, BACKUP_KEY_FILE);
  if (!fs.existsSync(file)) {
    mkdirOwnerOnlySync(path.dirname(file));
    try {
      fs.writeFileSync(file, `${randomBytes(48).toString("base64url")}\n`, { flag: "wx", mode: OWNER_FILE_MODE });
      fs.chmodSync(file, OWNER_FILE_MODE);
    } catch (error) {
      // Another process made it meanwhile: use that one.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return keyFromFile(file);
}

/** The key archives are checked with: BACKUP_KEY, or outside production data/backup-key when there is one; else null. */
export function verifyingKey({ e = env(), root = process.cwd() }: { e?: Env; root?: string } = {}): BackupKey | null {
  if (e.BACKUP_KEY) return { key: Buffer.from(e.BACKUP_KEY, "utf8"), source: "BACKUP_KEY" };
  if (e.NODE_ENV === "production") return null;
  const file = path.resolve(root, BACKUP_KEY_FILE);
  return fs.existsSync(file) ? keyFromFile(file) : null;
}

/** manifest.sig's content for these manifest bytes. */
export function signManifest(manifest: Buffer, key: BackupKey): string {
  return `${createHmac("sha256", key.key).update(manifest).digest("hex")}\n`;
}

/** True when `signature` (manifest.sig's bytes) is this key's HMAC of the manifest. */
export function manifestSignedBy(manifest: Buffer, signature: Buffer, key: BackupKey): boolean {
  const m = /^([0-9a-f]{64})\n?$/.exec(signature.toString("latin1"));
  if (!m) return false;
  const expected = createHmac("sha256", key.key).update(manifest).digest();
  return timingSafeEqual(Buffer.from(m[1], "hex"), expected);
}
