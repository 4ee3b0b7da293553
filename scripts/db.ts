import { closeDb, migrateToLatest, openDb } from "~db/client.server";
import { seedDemo } from "../server/seed";
import { env } from "~/env.server";

// npm run db:migrate | npm run db:seed
const command = process.argv[2];
const db = await openDb(env().DATABASE_URL);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database is up to date.");
  if (command === "seed") await seedDemo();
} finally {
  await closeDb();
}
