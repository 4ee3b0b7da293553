import fs from "node:fs";
import { parseArgs } from "node:util";
import { closeDb, openDb } from "~db/client.server";
import { env } from "~/env.server";
import { eraseAgain, erasedSince, type ErasedIds } from "~/services/privacy-erasure.server";

/**
 * Erasures and backups (docs/privacy.md, "Backups"). A restored backup brings back the people erased after it was
 * taken, and the audit log that recorded it. So, around a restore:
 *
 *   npm run privacy:erasures -- --since 2026-05-01T00:00:00Z > erased.json   (before: on the database about to be replaced)
 *   npm run privacy:erasures -- --apply erased.json                          (after: on the restored database)
 *
 * `--since` is when the backup was taken (ISO 8601). Reads DATABASE_URL like the app.
 */
const { values } = parseArgs({ options: { since: { type: "string" }, apply: { type: "string" }, help: { type: "boolean", short: "h" } } });
const since = values.since && !Number.isNaN(Date.parse(values.since)) ? new Date(values.since).toISOString() : null;
if (values.help || (!since && !values.apply) || (since && values.apply)) {
  console.error("Usage: npm run privacy:erasures -- --since <ISO instant> > erased.json   |   npm run privacy:erasures -- --apply erased.json");
  process.exit(values.help ? 0 : 2);
}

await openDb(env().DATABASE_URL);
try {
  if (since) {
    const ids = await erasedSince(since);
    process.stdout.write(`${JSON.stringify(ids, null, 2)}\n`);
    console.error(`${ids.enquiries.length} enquiries and ${ids.contactQueries.length} contact queries erased on request since ${since}.`);
  } else {
    const ids = JSON.parse(fs.readFileSync(values.apply!, "utf8")) as ErasedIds;
    const done = await eraseAgain({ enquiries: ids.enquiries ?? [], contactQueries: ids.contactQueries ?? [], onRequest: ids.onRequest ?? [] });
    console.error(`Erased again: ${done.enquiries.length} enquiries and ${done.contactQueries.length} contact queries (${done.files} file(s)).`);
  }
} finally {
  await closeDb();
}
