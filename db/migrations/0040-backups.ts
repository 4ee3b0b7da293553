import { type Kysely } from "kysely";

/**
 * Backups (app/services/backups.server.ts): one row per backup run, scheduled or made with `npm run backup`.
 * A scheduled run's id is its time slot ("scheduled:<slot start>"), so of several app instances only the one
 * whose insert succeeds makes that slot's archive; a lease (`leaseUntil`, `leaseToken`, renewed while the run
 * goes on) lets another instance take over a slot whose instance died mid-run. The dashboard and
 * /healthz?deep=1 read the newest `done` row to tell whether the last good backup is too old.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("backup_runs")
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    /** scheduled | manual */
    .addColumn("kind", "varchar(12)", (c) => c.notNull())
    /** running | done | failed */
    .addColumn("status", "varchar(12)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("startedAt", "varchar(24)", (c) => c.notNull())
    .addColumn("finishedAt", "varchar(24)")
    .addColumn("leaseUntil", "varchar(24)")
    .addColumn("leaseToken", "varchar(36)")
    /** host name and process id of whoever ran it */
    .addColumn("runner", "varchar(200)", (c) => c.notNull())
    /** the archive's file name in BACKUP_DIR */
    .addColumn("archive", "varchar(300)")
    .addColumn("bytes", "bigint")
    /** the moment the database was copied (every write acknowledged before it is in the archive) */
    .addColumn("snapshotAt", "varchar(24)")
    .addColumn("error", "varchar(1000)")
    .execute();
  await db.schema.createIndex("backup_runs_status_finished").on("backup_runs").columns(["status", "finishedAt"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("backup_runs").execute();
}
