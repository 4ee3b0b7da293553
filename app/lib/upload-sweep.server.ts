import fsp from "node:fs/promises";
import path from "node:path";
import { referencedUploadIds } from "~/models/upload-references.server";
import { uploadRoot } from "./uploads.server";

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
const STORED = /^([a-f0-9]{32})[.-]/;
const FOLDERS = ["images", "syllabus", "enquiries"] as const;

export type SweepResult = { removed: string[]; kept: number };

async function oldFiles(dir: string, before: number): Promise<{ name: string; full: string }[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: { name: string; full: string }[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(dir, entry.name);
    const stat = await fsp.stat(full).catch(() => null);
    if (stat && stat.mtimeMs < before) out.push({ name: entry.name, full });
  }
  return out;
}

export async function sweepOrphanUploads(now = Date.now()): Promise<SweepResult> {
  const root = uploadRoot();
  const before = now - ORPHAN_MIN_AGE_MS;
  const removed: string[] = [];
  let kept = 0;
  for (const file of await oldFiles(path.join(root, "tmp"), now - TMP_MIN_AGE_MS)) {
    await fsp.rm(file.full, { force: true });
    removed.push(path.join("tmp", file.name));
  }
  // Read the references after listing the files: a row committed meanwhile is then seen.
  const candidates: { folder: string; name: string; full: string; id: string }[] = [];
  for (const folder of FOLDERS) {
    for (const file of await oldFiles(path.join(root, folder), before)) {
      const m = STORED.exec(file.name);
      if (m) candidates.push({ folder, ...file, id: m[1] });
    }
  }
  if (!candidates.length) return { removed, kept };
  const referenced = await referencedUploadIds();
  for (const c of candidates) {
    if (referenced.has(c.id)) {
      kept++;
      continue;
    }
    await fsp.rm(c.full, { force: true });
    removed.push(path.join(c.folder, c.name));
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
