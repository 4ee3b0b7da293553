import { closeDb, openDb } from "~db/client.server";
import { env, EnvError } from "~/env.server";
import { makeBackupNow } from "~/services/backups.server";

// npm run backup: one archive of the database and the uploads into BACKUP_DIR, while the site goes on serving.
// (npm run backup -- --dir <folder> writes it elsewhere.) Exit code 0 and the archive's path on the last line.
const args = process.argv.slice(2);
const dirAt = args.indexOf("--dir");
if (dirAt !== -1) {
  if (!args[dirAt + 1]) {
    console.error("Usage: npm run backup [-- --dir <folder>]");
    process.exit(2);
  }
  process.env.BACKUP_DIR = args[dirAt + 1];
}
try {
  const e = env();
  await openDb(e.DATABASE_URL);
  const made = await makeBackupNow((line) => console.log(line));
  console.log(made.file);
} catch (error) {
  console.error(error instanceof EnvError ? error.message : `Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
