import { closeDb } from "~db/client.server";
import { EnvError } from "~/env.server";
import { BackupArchiveError } from "~/infra/backup-archive.server";
import { checkBackupArchive, restoreBackup, RestoreRefused } from "~/services/backup-restore.server";

// npm run restore <archive>: rebuilds a stopped site from an archive into the empty database DATABASE_URL names
// and the empty folder UPLOAD_DIR names. npm run restore -- --check <archive> only checks the archive.
// Either refuses an archive that BACKUP_KEY did not sign, unless --trust-unsigned (README, "Backups").
const USAGE = "Usage: npm run restore [-- --check] [--trust-unsigned] <archive.tar.gz>";
const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith("--")));
const files = args.filter((a) => !a.startsWith("--"));
const unknown = [...flags].filter((f) => f !== "--check" && f !== "--trust-unsigned");
if (files.length !== 1 || unknown.length) {
  console.error(unknown.length ? `Unknown option ${unknown.join(", ")}. ${USAGE}` : USAGE);
  process.exit(2);
}
const trustUnsigned = flags.has("--trust-unsigned");
const warn = (line: string) => console.error(line);
try {
  if (flags.has("--check")) {
    const { manifest: m, authenticity } = await checkBackupArchive(files[0], { trustUnsigned, warn });
    const rows = Object.values(m.database.tables).reduce((n, t) => n + t.rows, 0);
    console.log(
      `The archive is whole${authenticity.signed ? ` and signed with the key in ${authenticity.keySource}` : " (its signature NOT checked: --trust-unsigned)"}: ${m.engine} database as of ${m.snapshot.from} (migration ${m.migrationLevel}), ${rows} rows in ${Object.keys(m.database.tables).length} tables, ${m.uploads.count} files, app ${m.app.version}.`,
    );
  } else {
    await restoreBackup(files[0], { trustUnsigned, warn, log: (line) => console.log(line) });
  }
} catch (error) {
  if (error instanceof BackupArchiveError || error instanceof RestoreRefused || error instanceof EnvError) console.error(error.message);
  else console.error(`Restore failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
