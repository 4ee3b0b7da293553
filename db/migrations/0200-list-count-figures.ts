import { MysqlAdapter, sql, type Kysely } from "kysely";
import {
  DAY_FIGURES_TABLE,
  KINDS as DASHBOARD_KINDS,
  READ_COLUMNS as DASHBOARD_COLUMNS,
  TRIGGERS,
  col,
  collationOfEnquiries,
  figureTriggers,
  fillFigures,
  type Kind,
  type Row,
} from "./0170-enquiry-day-figures";

/**
 * Issue 39, item 1: a list's count kept as running totals, exact at any size. The staff desk counted a list by
 * reading its index entries, up to 10,001 (then "10,000+"): at 100,000 enquiries that was most of a list's cost, and
 * its last page (page 500) walked 9,980 entries to reach. The running totals of migration 0170 gain the lists' own
 * figures, counting each enquiry staff may see (privacy state ''): per Hyderabad day of arrival, how many there are in
 * all, and with each status, course, source, mode, form, owner, batch, follow-up (dated or none), status and mode,
 * and course and source. A list with one of those filters (or none) is counted by adding up its value's days (about
 * one entry a day of the site's life, app/models/enquiry-list-figures.server.ts): exact, the same at 1,000 enquiries
 * as at 100,000, and its last page is read from the list's end.
 *
 * Same table, same triggers (remade here with every kind, in the key's order, so a write locks its rows in one
 * order), same guarantees as migration 0170: whatever writes the enquiries keeps them in step. On MySQL/MariaDB the
 * triggers are remade and the figures filled with both tables locked (another instance's write waits the seconds it
 * takes): between dropping the old triggers and filling, a write would be missed or counted twice. SQLite runs a
 * migration in one transaction. `value` is widened for a course and a source side by side (200 + 100 characters and
 * the first's length). A pair is "<length of the first>|<first>|<second>" (listPairValue): with the length, two
 * different pairs never make one value, whatever their parts hold ("A|B" + "C" against "A" + "B|C"); a bare
 * separator could (MariaDB's utf8mb4_unicode_ci ignores control characters when it compares).
 */
const length = (m: boolean, expr: string) => (m ? `char_length(${expr})` : `length(${expr})`);
const pairOf = (m: boolean, first: string, second: string) =>
  m ? `concat(${length(m, first)}, '|', ${first}, '|', ${second})` : `${length(m, first)} || '|' || ${first} || '|' || ${second}`;
const shown = (r: Row, m: boolean) => `${col(r, "privacyState", m)} = ''`;

/** The lists' figures, named in key order (they sort between the dashboard's "course" and "source"). */
export const LIST_KINDS = [
  { kind: "listall", value: () => "''", counted: shown },
  { kind: "listbatch", value: (r, m) => `coalesce(${col(r, "scheduleId", m)}, '')`, counted: shown },
  { kind: "listcourse", value: (r, m) => col(r, "preferredCourse", m), counted: shown },
  { kind: "listcrsrc", value: (r, m) => pairOf(m, col(r, "preferredCourse", m), col(r, "sourceLabel", m)), counted: shown },
  { kind: "listfollow", value: (r, m) => `case when ${col(r, "followUpAt", m)} is null then 'none' else 'dated' end`, counted: shown },
  { kind: "listform", value: (r, m) => col(r, "sourceForm", m), counted: shown },
  { kind: "listmode", value: (r, m) => col(r, "preferredMode", m), counted: shown },
  { kind: "listowner", value: (r, m) => `coalesce(${col(r, "assigneeId", m)}, '')`, counted: shown },
  { kind: "listsource", value: (r, m) => col(r, "sourceLabel", m), counted: shown },
  { kind: "liststatus", value: (r, m) => col(r, "status", m), counted: shown },
  { kind: "liststmode", value: (r, m) => pairOf(m, col(r, "status", m), col(r, "preferredMode", m)), counted: shown },
] as const satisfies readonly Kind[];

const LIST_COLUMNS = [
  "scheduleId",
  "preferredCourse",
  "sourceLabel",
  "followUpAt",
  "sourceForm",
  "preferredMode",
  "assigneeId",
  "status",
  "privacyState",
  "createdAt",
];

/** Every kind, in the key's order (kind first): the order the triggers write them in. */
function allKinds(): Kind[] {
  const kinds = [...DASHBOARD_KINDS, ...LIST_KINDS].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  if (kinds.some((k) => !/^[a-z]{1,10}$/.test(k.kind))) throw new Error("A figure's kind is 1 to 10 lowercase letters (it sorts the same in every collation)");
  return kinds;
}

async function remakeTriggers(db: Kysely<unknown>, mysql: boolean, kinds: Kind[], columns: string[]): Promise<void> {
  for (const name of TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  for (const statement of figureTriggers(mysql, kinds, columns)) await sql.raw(statement).execute(db);
}

/**
 * MySQL/MariaDB: `work` with the enquiries and the figures locked for writing (Kysely's migrator runs a migration on
 * one connection, so the lock holds for all of it); SQLite: as it is (the migration is one transaction).
 */
async function withTablesLocked(db: Kysely<unknown>, mysql: boolean, work: () => Promise<void>): Promise<void> {
  if (!mysql) return work();
  await sql.raw(`lock tables enquiries write, ${DAY_FIGURES_TABLE} write`).execute(db);
  try {
    await work();
  } finally {
    await sql.raw("unlock tables").execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  if (mysql) {
    const { charset, collation } = await collationOfEnquiries(db);
    await sql.raw(`alter table ${DAY_FIGURES_TABLE} modify value varchar(320) character set ${charset} collate ${collation} not null`).execute(db);
  }
  await withTablesLocked(db, mysql, async () => {
    await remakeTriggers(db, mysql, allKinds(), [...new Set([...DASHBOARD_COLUMNS, ...LIST_COLUMNS])]);
    await fillFigures(db, mysql, [...LIST_KINDS]);
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  await withTablesLocked(db, mysql, async () => {
    await remakeTriggers(db, mysql, DASHBOARD_KINDS, DASHBOARD_COLUMNS);
    await sql`delete from ${sql.table(DAY_FIGURES_TABLE)} where ${sql.ref("kind")} like 'list%'`.execute(db);
  });
}
