import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import * as tar from "tar";
import type { BackupManifest } from "~/infra/backup-archive.server";
import { signManifest, type BackupKey } from "~/infra/backup-signature.server";

/**
 * Backup archives as an attacker would make them, byte by byte: any header (a size that lies, a setuid mode, a
 * link, a device), any order, a body of gigabytes of zeros that costs a few kilobytes (gzip members may follow
 * each other, so one compressed run of zeros is repeated rather than compressed each time).
 */
export type CraftedEntry = {
  path: string;
  body?: Buffer;
  /** A body of this many zero bytes instead (the header says so unless `size` says otherwise). */
  zeros?: number;
  /** What the header claims, whatever follows. */
  size?: number;
  type?: string;
  mode?: number;
  uid?: number;
  gid?: number;
  linkpath?: string;
};

const ZERO_RUN = 8 * 1024 * 1024;
let zeroMember: Buffer | undefined;

function header(e: CraftedEntry, size: number): Buffer {
  const h = new tar.Header({
    path: e.path,
    mode: e.mode ?? 0o644,
    uid: e.uid ?? 0,
    gid: e.gid ?? 0,
    size,
    mtime: new Date(0),
    type: (e.type ?? "File") as tar.Header["type"],
    linkpath: e.linkpath ?? "",
  });
  h.encode();
  return h.block!;
}

/** Writes `entries` as one .tar.gz, then the tar's end (two zero blocks), then `trailingZeros` more zero bytes. */
export function writeCraftedArchive(file: string, entries: CraftedEntry[], opts: { trailingZeros?: number } = {}): void {
  zeroMember ??= zlib.gzipSync(Buffer.alloc(ZERO_RUN), { level: 9 });
  const fd = fs.openSync(file, "w");
  // Small parts gather into one gzip member; a long run of zeros is the same member written again and again.
  let plain: Buffer[] = [];
  const flush = () => {
    if (plain.length) fs.writeSync(fd, zlib.gzipSync(Buffer.concat(plain)));
    plain = [];
  };
  const zeros = (n: number) => {
    if (n < ZERO_RUN) return void plain.push(Buffer.alloc(n));
    flush();
    for (; n >= ZERO_RUN; n -= ZERO_RUN) fs.writeSync(fd, zeroMember!);
    plain.push(Buffer.alloc(n));
  };
  try {
    for (const e of entries) {
      const bodyLength = e.zeros ?? e.body?.length ?? 0;
      plain.push(header(e, e.size ?? bodyLength), e.body ?? Buffer.alloc(0));
      zeros((e.zeros ?? 0) + ((512 - (bodyLength % 512)) % 512));
    }
    zeros(1024 + (opts.trailingZeros ?? 0));
    flush();
  } finally {
    fs.closeSync(fd);
  }
}

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A real archive's files (unpacked by the test itself, trusting it), to be changed and packed again. */
export type Parts = { manifest: BackupManifest; files: Map<string, Buffer> };

export async function partsOf(archive: string, scratch: string): Promise<Parts> {
  const dir = fs.mkdtempSync(path.join(scratch, "parts-"));
  await tar.x({ file: archive, cwd: dir });
  const files = new Map<string, Buffer>();
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const rel = path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/");
    if (!rel.startsWith("manifest.")) files.set(rel, fs.readFileSync(path.join(dir, rel)));
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as BackupManifest;
  fs.rmSync(dir, { recursive: true, force: true });
  return { manifest, files };
}

/** The manifest's bytes and its signature under `key` (none when null), as the first two entries. */
export function manifestEntries(manifest: BackupManifest, key: BackupKey | null): CraftedEntry[] {
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  return [{ path: "manifest.json", body: bytes }, ...(key ? [{ path: "manifest.sig", body: Buffer.from(signManifest(bytes, key)) }] : [])];
}

/** The files of `parts` as entries, in the manifest's order. */
export function fileEntries(parts: Parts): CraftedEntry[] {
  return [...parts.manifest.database.files, ...parts.manifest.uploads.files].map((f) => ({ path: f.path, body: parts.files.get(f.path)! }));
}

/** Lists one more upload in the manifest (count and bytes kept in step). */
export function listUpload(manifest: BackupManifest, file: { path: string; bytes: number; sha256: string }): BackupManifest {
  const m = structuredClone(manifest);
  m.uploads.files.push(file);
  m.uploads.count = m.uploads.files.length;
  m.uploads.bytes += file.bytes;
  return m;
}
