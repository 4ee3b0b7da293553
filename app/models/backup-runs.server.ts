import type { Selectable } from "kysely";
import { db } from "~db/client.server";
import type { BackupRunsTable } from "~db/schema";

/**
 * The backup_runs table (migration 0040): one row per backup run. A scheduled slot's row is claimed by the
 * insert (its id is the slot), or taken over with one conditional UPDATE when its runner's lease ran out or its
 * failed attempt may be retried; the runner records the outcome only while it still holds the lease.
 */
export type BackupRun = Selectable<BackupRunsTable>;

export async function getBackupRun(id: string): Promise<BackupRun | undefined> {
  return db().selectFrom("backup_runs").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Throws a unique violation (db/errors.ts) when the id is taken: another instance claimed the slot. */
export async function insertBackupRun(row: {
  id: string;
  kind: "scheduled" | "manual";
  startedAt: string;
  leaseUntil: string;
  leaseToken: string;
  runner: string;
}): Promise<void> {
  await db()
    .insertInto("backup_runs")
    .values({ ...row, status: "running", attempts: 1 })
    .execute();
}

/**
 * Claims a slot whose runner died (running, lease past) or whose failed attempt may run again (failed before
 * `retryFailedBefore`, fewer than `maxAttempts`). True when this caller got it.
 */
export async function takeOverBackupRun(
  id: string,
  claim: { now: string; leaseUntil: string; leaseToken: string; runner: string; retryFailedBefore: string; maxAttempts: number },
): Promise<boolean> {
  const r = await db()
    .updateTable("backup_runs")
    .set((eb) => ({
      status: "running",
      attempts: eb("attempts", "+", 1),
      startedAt: claim.now,
      finishedAt: null,
      leaseUntil: claim.leaseUntil,
      leaseToken: claim.leaseToken,
      runner: claim.runner,
      error: null,
    }))
    .where("id", "=", id)
    .where("attempts", "<", claim.maxAttempts)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "running"), eb("leaseUntil", "<", claim.now)]),
        eb.and([eb("status", "=", "failed"), eb("finishedAt", "<", claim.retryFailedBefore)]),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Extends the lease; false when the run is no longer this runner's (another instance took it over). */
export async function renewBackupLease(id: string, leaseToken: string, leaseUntil: string): Promise<boolean> {
  const r = await db()
    .updateTable("backup_runs")
    .set({ leaseUntil })
    .where("id", "=", id)
    .where("leaseToken", "=", leaseToken)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function finishBackupRun(
  id: string,
  leaseToken: string,
  outcome: { status: "done" | "failed"; finishedAt: string; archive?: string | null; bytes?: number | null; snapshotAt?: string | null; error?: string | null },
): Promise<boolean> {
  const r = await db()
    .updateTable("backup_runs")
    .set({
      status: outcome.status,
      finishedAt: outcome.finishedAt,
      archive: outcome.archive ?? null,
      bytes: outcome.bytes ?? null,
      snapshotAt: outcome.snapshotAt ?? null,
      error: outcome.error ? outcome.error.slice(0, 1000) : null,
      leaseUntil: null,
    })
    .where("id", "=", id)
    .where("leaseToken", "=", leaseToken)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The newest good backup (by the moment its database was copied), or undefined. */
export async function lastGoodBackupRun(): Promise<BackupRun | undefined> {
  return db().selectFrom("backup_runs").selectAll().where("status", "=", "done").orderBy("snapshotAt", "desc").limit(1).executeTakeFirst();
}

/** The newest run that ended (done or failed), or undefined. */
export async function lastFinishedBackupRun(): Promise<BackupRun | undefined> {
  return db().selectFrom("backup_runs").selectAll().where("status", "in", ["done", "failed"]).orderBy("finishedAt", "desc").limit(1).executeTakeFirst();
}

/** Runs still marked running whose lease ran out before `now`: their runner died. */
export async function countAbandonedBackupRuns(now: string): Promise<number> {
  const row = await db()
    .selectFrom("backup_runs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "running")
    .where("leaseUntil", "<", now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
