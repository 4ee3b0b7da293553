import { migrateToLatest, openDb } from "~db/client.server";
import { ensureAdmin, seedDemo } from "~db/seed";
import { env } from "~/env.server";

/** Opens the database, applies migrations and, on a brand-new database, seeds demo content; then makes sure an admin exists. */
export async function initApp(log: (line: string) => void = console.log): Promise<void> {
  const e = env();
  const db = await openDb(e.DATABASE_URL);
  const applied = await migrateToLatest(db);
  if (applied.length) log(`Applied migrations: ${applied.join(", ")}`);
  // Seed only when this start created the tables, so content staff delete never comes back on restart.
  if (applied.includes("0001-initial") && e.SEED_DEMO) await seedDemo(log);
  await ensureAdmin({ email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }, log);
}
