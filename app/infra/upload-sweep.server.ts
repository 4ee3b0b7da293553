import fsp from "node:fs/promises";
import path from "node:path";
import { referencedUploadIds } from "~/models/upload-references.server";
import { fileStore, STORE_FOLDERS } from "./file-store.server";
import { uploadTmpDir } from "./uploads.server";

/**
 * Removes uploads no row refers to: files kept by a save that failed after the upload (a crash between
 * writing the file and committing the row), and parts left in tmp/ by an interrupted request.
 * Only stored files older than ORPHAN_MIN_AGE_MS are touched: an image put into a syllabus is stored at
 * once but named by a row only when the course is saved, and a course form may stay open as long as a
 * staff session lives (SESSION_ABSOLUTE_MS). Partial uploads go after TMP_MIN_AGE_MS (a request lasts at most minutes).
 */
export const ORPHAN_MIN_AGE_MS = 24 * 60 * 60 * 1000;
export const TMP_MIN_AGE_MS = 60 * 60 * 1000;
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

// Only names this app makes: <32 hex>.<ext> for images and syllabus files, <32 hex>-<name> for attachments.
const STORED = /^(?:images|syllabus|enquiries)\/([a-f0-9]{32})[.-]/;

export type SweepResult = { removed: string[]; kept: number };

export async function sweepOrphanUploads(now = Date.now()): Promise<SweepResult> {
  const removed: string[] = [];
  let kept = 0;
  // Parts of interrupted requests, in this machine's scratch space.
  const tmp = uploadTmpDir();
  for (const entry of await fsp.readdir(tmp, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const full = path.join(tmp, entry.name);
    const stat = await fsp.stat(full).catch(() => null);
    if (stat && stat.mtimeMs < now - TMP_MIN_AGE_MS) {
      await fsp.rm(full, { force: true });
      removed.push(path.join("tmp", entry.name));
    }
  }
  // Read the references after listing the files: a row committed meanwhile is then seen.
  const store = fileStore();
  const candidates: { key: string; id: string }[] = [];
  for (const folder of STORE_FOLDERS) {
    for await (const object of store.list(`${folder}/`)) {
      const m = STORED.exec(object.key);
      if (m && object.modifiedAt < now - ORPHAN_MIN_AGE_MS) candidates.push({ key: object.key, id: m[1] });
    }
  }
  if (!candidates.length) return { removed, kept };
  const referenced = await referencedUploadIds();
  for (const c of candidates) {
    if (referenced.has(c.id)) {
      kept++;
      continue;
    }
    await store.delete(c.key);
    removed.push(c.key);
  }
  return { removed, kept };
}

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

function runOnce(log: (line: string) => void) {
  if (running) return;
  running = sweepOrphanUploads()
    .then((r) => {
      if (r.removed.length) log(`Upload sweep: removed ${r.removed.length} orphaned file(s): ${r.removed.join(", ")}`);
    })
    // A failed sweep deletes nothing; the next run tries again.
    .catch((error: unknown) => console.error("Upload sweep failed:", error))
    .finally(() => (running = undefined));
}

/** Sweeps once now (in the background) and then every SWEEP_INTERVAL_MS. */
export function startUploadSweeper(log: (line: string) => void = console.log, intervalMs = SWEEP_INTERVAL_MS): void {
  stopUploadSweeper();
  runOnce(log);
  timer = setInterval(() => runOnce(log), intervalMs);
  timer.unref();
}

export async function stopUploadSweeper(): Promise<void> {
  if (timer) clearInterval(timer);
  timer = undefined;
  await running;
}
