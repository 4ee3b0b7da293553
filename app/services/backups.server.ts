import os from "node:os";
import { isUniqueViolation } from "~db/errors";
import { env } from "~/env.server";
import { thinArchives, writeBackupArchive, type ArchiveResult } from "~/infra/backup-archive.server";
import { signingKey } from "~/infra/backup-signature.server";
import {
  countAbandonedBackupRuns,
  finishBackupRun,
  getBackupRun,
  insertBackupRun,
  lastFinishedBackupRun,
  lastGoodBackupRun,
  renewBackupLease,
  takeOverBackupRun,
} from "~/models/backup-runs.server";
import { backupKeepWindowDays, type BackupKeep } from "~/util/backup-keep";
import { formatDateTime } from "~/util/dates";
import { ageText } from "~/util/format";
import { newId } from "~/util/ids";

/**
 * Backups of the whole state (database and uploads) into BACKUP_DIR: made by `npm run backup` and, when
 * BACKUP_EVERY_HOURS is set, by the app itself. Every instance runs the job every minute; the hours are cut
 * into slots (a slot of 24 hours starts at 00:00 UTC) and the first instance to insert a slot's backup_runs
 * row makes that slot's archive, the others see the row and do nothing. A runner renews its lease while it
 * works; if it dies, another instance takes the slot over once the lease has run out, and a failed run is
 * tried again after 15 minutes, up to three attempts a slot. After each good archive the folder is thinned
 * to BACKUP_KEEP. backupHealth() tells the dashboard and /healthz?deep=1 when the last good backup is too old.
 */
export const BACKUP_JOB_EVERY_MS = 60_000;
const LEASE_MS = 2 * 60_000;
const RENEW_EVERY_MS = 30_000;
const RETRY_FAILED_AFTER_MS = 15 * 60_000;
const MAX_ATTEMPTS = 3;
const HOUR_MS = 60 * 60 * 1000;
/** Without a schedule, how old the last backup may be before a production dashboard says so. */
const UNSCHEDULED_WARNING_DAYS = 7;

/**
 * How many days an old archive may keep what was erased from the database (the BACKUP_KEEP window): new
 * archives copy the database as it is, so an erased person is in none made after the erasure, and the last
 * one made before it is deleted at most this many days later. The privacy notice quotes it.
 */
export function backupRetentionDays(keep: BackupKeep = env().BACKUP_KEEP): number {
  return backupKeepWindowDays(keep);
}

const runnerName = () => `${os.hostname()}:${process.pid}`.slice(0, 200);
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

let stopping = new AbortController();

/** Stops a run in progress between its steps (shutdown); the run is recorded as failed. */
export function stopBackups(): void {
  stopping.abort();
}

export type BackupMade = ArchiveResult & { removed: string[] };

/** Makes the archive under a claimed run, renewing the lease meanwhile, and records the outcome. */
async function runClaimed(run: { id: string; leaseToken: string } | null, log: (line: string) => void): Promise<BackupMade> {
  const abort = new AbortController();
  const onStop = () => abort.abort();
  if (stopping.signal.aborted) stopping = new AbortController();
  stopping.signal.addEventListener("abort", onStop);
  const renew = run
    ? setInterval(() => {
        renewBackupLease(run.id, run.leaseToken, new Date(Date.now() + LEASE_MS).toISOString()).then(
          (mine) => {
            if (!mine) abort.abort();
          },
          () => {},
        );
      }, RENEW_EVERY_MS)
    : undefined;
  renew?.unref();
  try {
    const dir = env().BACKUP_DIR;
    const key = signingKey();
    const made = await writeBackupArchive({ dir, key, signal: abort.signal });
    if (run) {
      await finishBackupRun(run.id, run.leaseToken, {
        status: "done",
        finishedAt: new Date().toISOString(),
        archive: made.name,
        bytes: made.bytes,
        snapshotAt: made.manifest.snapshot.from,
      });
    }
    const removed = await thinArchives(dir, env().BACKUP_KEEP).catch((error: unknown) => {
      log(`Backups: thinning ${dir} failed: ${errorText(error)}`);
      return [];
    });
    const rows = Object.values(made.manifest.database.tables).reduce((n, t) => n + t.rows, 0);
    log(
      `Backup written: ${made.file} (${made.bytes} bytes; ${rows} rows in ${Object.keys(made.manifest.database.tables).length} tables, ${made.manifest.uploads.count} files; signed with the key in ${key.source}${removed.length ? `; removed ${removed.length} old archive(s)` : ""}).`,
    );
    return { ...made, removed };
  } catch (error) {
    if (run) {
      await finishBackupRun(run.id, run.leaseToken, { status: "failed", finishedAt: new Date().toISOString(), error: errorText(error) }).catch(() => {});
    }
    throw error;
  } finally {
    if (renew) clearInterval(renew);
    stopping.signal.removeEventListener("abort", onStop);
  }
}

/** The slot `now` falls in: its id and start. */
export function backupSlot(now: number, everyHours: number): { id: string; start: string } {
  const every = everyHours * HOUR_MS;
  const start = new Date(Math.floor(now / every) * every).toISOString();
  return { id: `scheduled:${start}`, start };
}

export type ScheduledOutcome = "off" | "done-already" | "elsewhere" | "done" | "failed";

/** The periodic job: makes this slot's backup unless another instance has it or it is done. */
export async function runScheduledBackup(now = Date.now(), log: (line: string) => void = console.log): Promise<ScheduledOutcome> {
  const every = env().BACKUP_EVERY_HOURS;
  if (every <= 0) return "off";
  const slot = backupSlot(now, every);
  const existing = await getBackupRun(slot.id);
  if (existing?.status === "done") return "done-already";
  const nowIso = new Date(now).toISOString();
  const claim = { leaseToken: newId(), leaseUntil: new Date(now + LEASE_MS).toISOString(), runner: runnerName() };
  let claimed = false;
  if (!existing) {
    try {
      await insertBackupRun({ id: slot.id, kind: "scheduled", startedAt: nowIso, ...claim });
      claimed = true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  } else {
    claimed = await takeOverBackupRun(slot.id, {
      ...claim,
      now: nowIso,
      retryFailedBefore: new Date(now - RETRY_FAILED_AFTER_MS).toISOString(),
      maxAttempts: MAX_ATTEMPTS,
    });
  }
  if (!claimed) return "elsewhere";
  try {
    await runClaimed({ id: slot.id, leaseToken: claim.leaseToken }, log);
    return "done";
  } catch (error) {
    log(`Backup failed (${slot.id}): ${errorText(error)}`);
    return "failed";
  }
}

/** `npm run backup`: one archive now, recorded like a scheduled one (unless the database has no backup_runs table yet). */
export async function makeBackupNow(log: (line: string) => void = console.log): Promise<BackupMade> {
  const now = Date.now();
  const run = { id: `manual:${newId()}`, leaseToken: newId() };
  let recorded = true;
  try {
    await insertBackupRun({
      id: run.id,
      kind: "manual",
      startedAt: new Date(now).toISOString(),
      leaseUntil: new Date(now + LEASE_MS).toISOString(),
      leaseToken: run.leaseToken,
      runner: runnerName(),
    });
  } catch (error) {
    recorded = false;
    log(`Note: this backup is not recorded in the database (${errorText(error)}); the archive is made all the same.`);
  }
  return runClaimed(recorded ? run : null, log);
}

export type BackupHealth = {
  /** BACKUP_EVERY_HOURS, 0 when the app makes no backups by itself. */
  everyHours: number;
  /** How old the last good backup may be before it is stale (null without a schedule). */
  limitHours: number | null;
  lastGood: { at: string; archive: string | null; bytes: number | null; ageHours: number } | null;
  /** The newest finished run, when it failed. */
  lastFailure: { at: string; error: string } | null;
  /** ok; pending: scheduled, none made yet and nothing failed; failing: the last run failed, the last good one is recent; stale; off: no schedule. */
  state: "ok" | "pending" | "failing" | "stale" | "off";
  /** What the dashboard says, or null when all is well. */
  warning: string | null;
};

/** The limit: the schedule's interval and half again, at least an hour more than the interval. */
export function staleAfterHours(everyHours: number): number {
  return Math.max(everyHours * 1.5, everyHours + 1);
}

export async function backupHealth(now = Date.now()): Promise<BackupHealth> {
  const every = env().BACKUP_EVERY_HOURS;
  const [good, finished] = await Promise.all([lastGoodBackupRun(), lastFinishedBackupRun()]);
  const goodAt = good?.snapshotAt ?? good?.finishedAt ?? null;
  const lastGood =
    good && goodAt
      ? { at: goodAt, archive: good.archive, bytes: good.bytes === null ? null : Number(good.bytes), ageHours: (now - Date.parse(goodAt)) / HOUR_MS }
      : null;
  const lastFailure = finished?.status === "failed" ? { at: finished.finishedAt ?? finished.startedAt, error: finished.error ?? "unknown error" } : null;
  const goodText = lastGood ? `The last good backup is from ${formatDateTime(lastGood.at)} (${ageText(now - Date.parse(lastGood.at))} ago)` : null;
  const failureText = lastFailure ? `The last attempt, at ${formatDateTime(lastFailure.at)}, failed: ${lastFailure.error}` : null;

  if (every <= 0) {
    const old = !lastGood || lastGood.ageHours > UNSCHEDULED_WARNING_DAYS * 24;
    const warning =
      old && env().NODE_ENV === "production"
        ? `${goodText ?? "No backup has been made yet"}, and the app makes none by itself. Set BACKUP_EVERY_HOURS (for example 24) and restart, or run npm run backup from cron.`
        : null;
    return { everyHours: 0, limitHours: null, lastGood, lastFailure, state: "off", warning };
  }
  const limitHours = staleAfterHours(every);
  const base = { everyHours: every, limitHours, lastGood, lastFailure };
  const due = `Backups are due every ${every} hour${every === 1 ? "" : "s"} into ${env().BACKUP_DIR}.`;
  if (lastGood && lastGood.ageHours <= limitHours) {
    if (!lastFailure) return { ...base, state: "ok", warning: null };
    return { ...base, state: "failing", warning: `${failureText}. ${goodText}.` };
  }
  const abandoned = lastGood ? 0 : await countAbandonedBackupRuns(new Date(now).toISOString());
  if (!lastGood && !lastFailure && !abandoned) return { ...base, state: "pending", warning: null };
  const what = goodText ? `${goodText}: backups have stopped.` : "No backup has been made yet.";
  return { ...base, state: "stale", warning: [what, due, failureText ? `${failureText}.` : null].filter(Boolean).join(" ") };
}
