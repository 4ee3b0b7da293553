import { env } from "~/env.server";
import { fileStore } from "./file-store.server";

/**
 * A ceiling on the disk space enquiry attachments take (ENQUIRY_ATTACHMENT_QUOTA_MB): anyone may post them,
 * and the rate limit is per IP address, so without a ceiling enough addresses could fill the disk that the
 * database and the server's logs share.
 *
 * The total is not summed on every request: the folder is scanned at most once per RESCAN_MS, and the bytes
 * this process stored or discarded since that scan are added or taken off. Files that go another way (staff
 * delete an enquiry, the orphan sweep, another instance sharing the folder) count from the next scan on.
 */
export const RESCAN_MS = 60_000;

type Scan = { folder: string; at: number; bytes: number; storedMark: number; removedMark: number };

// Running totals for this process; a scan remembers where they stood when it started.
let stored = 0;
let removed = 0;
/** Bytes of attachments received but not yet checked and kept: concurrent uploads cannot all squeeze in. */
let reserved = 0;
let last: Scan | undefined;
/** Per folder: the scan under way, and the one that starts when it ends (shared by everyone who waits for it). */
const scans = new Map<string, { running?: Promise<Scan>; next?: Promise<Scan> }>();

export type AttachmentSpace = {
  /** Ends the reservation; `keptBytes` is what was written to the folder (0 when the upload was refused). */
  settle(keptBytes: number): void;
};

/**
 * Reserves room for `bytes` of new attachments in `folder`, or answers null when they would take the folder
 * over the quota. The caller must settle the reservation, whatever happens to the upload.
 */
export async function reserveAttachmentSpace(folder: string, bytes: number): Promise<AttachmentSpace | null> {
  const used = await usedBytes(folder);
  // No await between this check and the reservation: two requests cannot both take the last megabytes.
  if (used + reserved + bytes > quotaBytes()) return null;
  reserved += bytes;
  let open = true;
  return {
    settle(keptBytes) {
      if (!open) return;
      open = false;
      reserved -= bytes;
      stored += keptBytes;
    },
  };
}

/** Attachments this process stored and then removed (a refused or failed save) free their space at once. */
export function noteAttachmentsRemoved(bytes: number): void {
  removed += bytes;
}

function quotaBytes(): number {
  return env().ENQUIRY_ATTACHMENT_QUOTA_MB * 1024 * 1024;
}

async function usedBytes(folder: string): Promise<number> {
  if (!last || last.folder !== folder || Date.now() - last.at >= RESCAN_MS) last = await freshScan(folder);
  return Math.max(0, last.bytes + (stored - last.storedMark) - (removed - last.removedMark));
}

/**
 * A scan that starts after this call. One already under way started earlier and may miss a file written
 * since (by another instance, or just before this request), so the caller waits for the next one instead;
 * everyone who arrives meanwhile shares that next scan, so a flood starts at most two scans, not one each.
 */
function freshScan(folder: string): Promise<Scan> {
  let slot = scans.get(folder);
  if (!slot) scans.set(folder, (slot = {}));
  const own = slot;
  if (!own.running) {
    const running = scan(folder).finally(() => {
      if (own.running === running) own.running = undefined;
    });
    own.running = running;
    return running;
  }
  own.next ??= own.running
    .catch(() => {})
    .then(() => {
      own.next = undefined;
      return freshScan(folder);
    });
  return own.next;
}

/** A file stored while the scan runs may be counted twice until the next scan: too much, never too little. */
async function scan(folder: string): Promise<Scan> {
  const started = { folder, at: Date.now(), storedMark: stored, removedMark: removed };
  let bytes = 0;
  for await (const object of fileStore().list(`${folder}/`)) bytes += object.size;
  return { ...started, bytes };
}
