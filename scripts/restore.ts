import { closeDb } from "~db/client.server";
import { EnvError } from "~/env.server";
import { BackupArchiveError } from "~/infra/backup-archive.server";
import { checkBackupArchive, restoreBackup, RestoreRefused } from "~/services/backup-restore.server";

// npm run restore <archive>: rebuilds a stopped site from an archive into the empty database DATABASE_URL names
// and the empty folder UPLOAD_DIR names. npm run restore -- --check <archive> only checks the archive.
const args = process.argv.slice(2);
const check = args.includes("--check");
const files = args.filter((a) => a !== "--check");
if (files.length !== 1) {
  console.error("Usage: npm run restore <archive.tar.gz>   (or: npm run restore -- --check <archive.tar.gz>)");
  process.exit(2);
}
try {
  if (check) {
    const m = await checkBackupArchive(files[0]);
    const rows = Object.values(m.database.tables).reduce((n, t) => n + t.rows, 0);
    console.log(
      `The archive is whole: ${m.engine} database as of ${m.snapshot.from} (migration ${m.migrationLevel}), ${rows} rows in ${Object.keys(m.database.tables).length} tables, ${m.uploads.count} files, app ${m.app.version}.`,
    );
  } else {
    await restoreBackup(files[0], (line) => console.log(line));
  }
} catch (error) {
  if (error instanceof BackupArchiveError || error instanceof RestoreRefused || error instanceof EnvError) console.error(error.message);
  else console.error(`Restore failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
