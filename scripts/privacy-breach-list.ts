import { parseArgs } from "node:util";
import { stringify } from "csv-stringify/sync";
import { closeDb, openDb } from "~db/client.server";
import { env } from "~/env.server";
import { BREACH_TABLES, breachList } from "~/services/privacy-breach.server";
import { isServiceError } from "~/services/service-error";
import { neutralise } from "~/web/csv-export.server";

/**
 * npm run privacy:breach-list -- --from 2026-05-01 --to 2026-05-12 [--tables enquiries,outbox] [--format csv|json]
 *
 * Every person whose personal data the window touched (records created or changed, timeline lines, consents and
 * e-mails in it), one line each with their e-mail, for the notice the DPDP Rules require after a breach
 * (docs/privacy.md). Reads DATABASE_URL like the app. Days are Hyderabad days, both included; instants are ISO 8601.
 * The list goes to standard output (CSV by default, formulas neutralised for spreadsheets); a count to standard error.
 */
const { values } = parseArgs({
  options: {
    from: { type: "string" },
    to: { type: "string" },
    tables: { type: "string" },
    format: { type: "string", default: "csv" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help || !values.from || !values.to || !["csv", "json"].includes(values.format ?? "")) {
  console.error(
    `Usage: npm run privacy:breach-list -- --from <YYYY-MM-DD|ISO instant> --to <YYYY-MM-DD|ISO instant> [--tables ${BREACH_TABLES.join(",")}] [--format csv|json]`,
  );
  process.exit(values.help ? 0 : 2);
}

await openDb(env().DATABASE_URL);
try {
  const people = await breachList({
    from: values.from,
    to: values.to,
    tables: values.tables
      ?.split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  });
  if (values.format === "json") process.stdout.write(`${JSON.stringify(people, null, 2)}\n`);
  else {
    const rows = people.map((p) => [p.email, p.name, p.phone, p.tables.join(" "), p.records.join(" "), p.firstTouched].map((v) => neutralise(String(v))));
    process.stdout.write(stringify([["email", "name", "phone", "tables", "records", "first_touched"], ...rows]));
  }
  console.error(`${people.length} person(s) touched between ${values.from} and ${values.to}.`);
} catch (error) {
  if (isServiceError(error, "invalid")) {
    console.error(Object.values(error.fields).join("\n"));
    process.exitCode = 2;
  } else throw error;
} finally {
  await closeDb();
}
