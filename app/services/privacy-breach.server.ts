import { peopleTouched } from "~/models/people.server";
import { DATE_PATTERN, isCalendarDate } from "~/schemas/fields";
import { nextDay, siteDayStartUtc } from "~/util/dates";
import { invalid } from "./service-error";

/**
 * The breach list (DPDP Rules: notify each affected person): everyone whose personal data a time window touched,
 * in the tables chosen, with the e-mail to write to. `npm run privacy:breach-list` prints it (docs/privacy.md).
 */

export const BREACH_TABLES = ["enquiries", "contact_queries", "timeline_entries", "consents", "outbox"] as const;
export type BreachTable = (typeof BREACH_TABLES)[number];

export type BreachPerson = { email: string; name: string; phone: string; tables: string[]; records: string[]; firstTouched: string };

/** A Hyderabad day (YYYY-MM-DD, the whole day) or an ISO instant. */
function instant(value: string, end: boolean): string | null {
  if (DATE_PATTERN.test(value)) return isCalendarDate(value) ? siteDayStartUtc(end ? nextDay(value) : value) : null;
  const t = Date.parse(value);
  return Number.isNaN(t) || !/T/.test(value) ? null : new Date(t).toISOString();
}

export async function breachList(input: { from: string; to: string; tables?: string[] }): Promise<BreachPerson[]> {
  const from = instant(input.from, false);
  const before = instant(input.to, true);
  const tables = input.tables?.length ? input.tables : [...BREACH_TABLES];
  const fields: Record<string, string> = {};
  if (!from) fields.from = "from must be a day (YYYY-MM-DD, Hyderabad) or an ISO instant";
  if (!before) fields.to = "to must be a day (YYYY-MM-DD, Hyderabad, included) or an ISO instant";
  if (from && before && before <= from) fields.to = "to must come after from";
  const unknown = tables.filter((t) => !(BREACH_TABLES as readonly string[]).includes(t));
  if (unknown.length) fields.tables = `Unknown table(s): ${unknown.join(", ")}; choose from ${BREACH_TABLES.join(", ")}`;
  if (Object.keys(fields).length) throw invalid(fields);
  const byEmail = new Map<string, BreachPerson>();
  for (const row of await peopleTouched(from!, before!, tables)) {
    const key = row.email.toLowerCase();
    const person = byEmail.get(key) ?? { email: row.email, name: row.name, phone: row.phone, tables: [], records: [], firstTouched: row.at };
    if (!person.tables.includes(row.table)) person.tables.push(row.table);
    if (!person.records.includes(row.recordId)) person.records.push(row.recordId);
    if (row.at < person.firstTouched) person.firstTouched = row.at;
    if (!person.phone && row.phone) person.phone = row.phone;
    byEmail.set(key, person);
  }
  return [...byEmail.values()].sort((a, b) => a.email.localeCompare(b.email));
}
