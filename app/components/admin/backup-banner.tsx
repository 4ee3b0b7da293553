import type { BackupHealth } from "~/services/backups.server";

/**
 * The dashboard's word about backups: red when the last good backup is older than BACKUP_EVERY_HOURS allows
 * (or none was ever made and an attempt failed), amber when the last attempt failed but a recent good one
 * exists, or when a production site makes no backups by itself and has none from the last week.
 */
export function BackupBanner({ health }: { health: Pick<BackupHealth, "state" | "warning"> | null }) {
  if (!health?.warning) return null;
  const stale = health.state === "stale";
  const title = stale ? "Backups have stopped" : health.state === "failing" ? "The last backup failed" : "Backups are not scheduled";
  return (
    <section
      aria-labelledby="backup-banner-heading"
      data-testid="backup-warning"
      className={`mb-6 rounded-md border px-4 py-3 text-sm ${stale ? "border-red-300 bg-red-50 text-red-800" : "border-amber-300 bg-amber-50 text-amber-900"}`}
    >
      <h2 id="backup-banner-heading" className="font-semibold">
        {title}
      </h2>
      <p className="mt-1 wrap-anywhere">{health.warning}</p>
      <p className="mt-2">Whoever runs the server can find how to make, copy off and restore backups in the README, under Backups.</p>
    </section>
  );
}
