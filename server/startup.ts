import { migrateToLatest, openDb, withMysqlNamedLock, type DB } from "~db/client.server";
import { ensureAdmin, seedDemo } from "./seed";
import { env } from "~/env.server";

/**
 * Opens the database, applies migrations and, on a brand-new database, seeds demo content; then makes sure an
 * admin exists. Several instances may start at once on one MySQL database: the first to take the start-up
 * lock migrates, seeds and makes the first admin; the others wait for it, find nothing left to do, and start.
 */
export async function openAndMigrate(log: (line: string) => void = console.log): Promise<void> {
  const e = env();
  const db = await openDb(e.DATABASE_URL);
  await withStartupLock(db, log, async () => {
    const applied = await migrateToLatest(db);
    if (applied.length) log(`Applied migrations: ${applied.join(", ")}`);
    // Seed only when this start created the tables, so content staff delete never comes back on restart.
    if (applied.includes("0001-initial") && e.SEED_DEMO) await seedDemo(log);
    await ensureAdmin({ email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }, log);
  });
}

const LOCK = "soc_institute_startup";
const LOCK_WAIT_SECONDS = 300;

/**
 * MySQL: a named lock (GET_LOCK), so one instance at a time migrates and seeds. SQLite is one file for one
 * process (its own file lock keeps a second writer out).
 */
async function withStartupLock(db: DB, log: (line: string) => void, work: () => Promise<void>): Promise<void> {
  if (!env().DATABASE_URL.startsWith("mysql:")) return work();
  await withMysqlNamedLock(
    db,
    {
      name: LOCK,
      waitSeconds: LOCK_WAIT_SECONDS,
      notTakenMessage: `Could not take the start-up lock within ${LOCK_WAIT_SECONDS} s: is another instance stuck migrating?`,
      onReleaseError: (error) => log(`Releasing the start-up lock failed: ${String(error)}`),
    },
    work,
  );
}
