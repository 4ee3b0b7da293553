import { MysqlAdapter, sql, type Kysely } from "kysely";

/**
 * Issue 39, item 3: the dashboard's figures kept as running totals. Its funnels (30 and 90 days), its course and
 * source tables and its weekly chart counted the enquiries of the window one by one: 8,000 index entries at 100,000
 * enquiries over three years, 80 at 1,000, and "new for more than 24 hours" every unanswered one ever received
 * (25,000 index entries), so the dashboard cost 3 to 5 times more. `enquiry_day_figures` holds, per Hyderabad day of
 * arrival, how many enquiries (not held for a guardian) have each status, each course and each source now, and how
 * many staff may see are New and never answered: at most a few dozen rows a day, however many enquiries came that
 * day. The key starts with the kind, so each figure is one range of days.
 *
 * Kept by triggers in the same transaction as every write, on both databases, so nothing that writes enquiries can
 * leave it behind: the site's code, a restore, a migration, a script or SQL typed by hand. The insert trigger adds
 * one to the enquiry's three rows, the delete trigger takes one off, and the update trigger moves it only when one of
 * the figures' columns changes (MySQL/MariaDB fire on every update: a follow-up date or a note touches nothing here).
 * One write locks its old and new rows in the table's key order (kind, day, value), so two single writes never wait
 * for each other's rows in opposite orders. A transaction that writes several enquiries holds their days' rows until
 * it commits: the site's (a bulk change, an erasure) write them oldest first, so they wait in one order too; two
 * transactions of SQL by hand that write enquiries of two days in opposite orders can deadlock (InnoDB rolls one
 * back; the app's own transactions run such a victim again, db/client.server.ts).
 *
 * The day is Hyderabad's (UTC+05:30, no daylight saving): the one app/util/dates.ts siteToday() gives.
 */
export const DAY_FIGURES_TABLE = "enquiry_day_figures";

export type Row = "new" | "old" | null;
export const col = (row: Row, name: string, mysql: boolean) => (row ? `${row}.${q(name, mysql)}` : q(name, mysql));

/**
 * The figures per day, in the table's key order: the value each counts an enquiry under, and which enquiries it
 * counts (the dashboard's funnels and tables: all but those held for a guardian, as before; "new for more than 24
 * hours": the New ones never answered that staff may see, as the list's own count).
 */
export const KINDS: Kind[] = [
  { kind: "course", value: (r: Row, m: boolean) => col(r, "preferredCourse", m), counted: (r: Row, m: boolean) => `${col(r, "privacyState", m)} <> 'held'` },
  { kind: "source", value: (r: Row, m: boolean) => col(r, "sourceLabel", m), counted: (r: Row, m: boolean) => `${col(r, "privacyState", m)} <> 'held'` },
  { kind: "status", value: (r: Row, m: boolean) => col(r, "status", m), counted: (r: Row, m: boolean) => `${col(r, "privacyState", m)} <> 'held'` },
  {
    kind: "unanswered",
    value: () => "''",
    counted: (r: Row, m: boolean) => `${col(r, "status", m)} = 'new' and ${col(r, "firstStatusChangeAt", m)} is null and ${col(r, "privacyState", m)} = ''`,
  },
];

/**
 * A figure: the value (an SQL expression of the row `r`, on MySQL when `m`) each enquiry it counts is counted under.
 * Listed in the key's order of `kind` (the triggers lock the rows in that order).
 */
export type Kind = { kind: string; value: (r: Row, m: boolean) => string; counted: (r: Row, m: boolean) => string };

/** Every column this migration's figures read: an update of none of them changes no figure. */
export const READ_COLUMNS = ["status", "preferredCourse", "sourceLabel", "createdAt", "privacyState", "firstStatusChangeAt"];

export const TRIGGERS = ["enquiry_day_figures_insert", "enquiry_day_figures_update", "enquiry_day_figures_delete"];

/**
 * The Hyderabad day (YYYY-MM-DD) of a row's createdAt (ISO UTC, as the site writes it; "YYYY-MM-DD HH:MM:SS" typed by
 * hand reads as UTC on both databases); its first 10 characters if it is no instant.
 */
function dayOf(row: Row, mysql: boolean): string {
  const createdAt = col(row, "createdAt", mysql);
  return mysql
    ? `coalesce(date_format(str_to_date(replace(left(${createdAt}, 19), 'T', ' '), '%Y-%m-%d %H:%i:%s') + interval 330 minute, '%Y-%m-%d'), left(${createdAt}, 10))`
    : `coalesce(date(${createdAt}, '+330 minutes'), substr(${createdAt}, 1, 10))`;
}

function q(name: string, mysql: boolean): string {
  return mysql ? `\`${name}\`` : `"${name}"`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  let create = db.schema
    .createTable(DAY_FIGURES_TABLE)
    .addColumn("kind", "varchar(10)", (c) => c.notNull())
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("value", "varchar(200)", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("enquiry_day_figures_pk", ["kind", "day", "value"]);
  // MySQL/MariaDB: the enquiries' own character set and collation, so a value is one value here exactly when it is one
  // there (the dashboard adds these up with the enquiries of the windows' first days in one GROUP BY).
  if (mysql) {
    const { charset, collation } = await collationOfEnquiries(db);
    create = create.modifyEnd(sql.raw(` default charset=${charset} collate=${collation}`));
  }
  await create.execute();
  // One value over all days (the sidebar's count of New enquiries), read from this index alone.
  await db.schema.createIndex("enquiry_day_figures_value").on(DAY_FIGURES_TABLE).columns(["kind", "value", "day", "n"]).execute();
  for (const statement of figureTriggers(mysql, KINDS, READ_COLUMNS)) await sql.raw(statement).execute(db);
  await fillFigures(db, mysql, KINDS);
}

/** The character set and collation of enquiries.preferredCourse (the database's default when the table was made). */
export async function collationOfEnquiries(db: Kysely<unknown>): Promise<{ charset: string; collation: string }> {
  const { rows } = await sql<{ charset: string; collation: string }>`select character_set_name as ${sql.id("charset")}, collation_name as ${sql.id("collation")}
    from information_schema.columns where table_schema = database() and table_name = 'enquiries' and column_name = 'preferredCourse'`.execute(db);
  const { charset, collation } = rows[0];
  if (!/^\w+$/.test(charset) || !/^\w+$/.test(collation)) throw new Error(`Unexpected collation of enquiries.preferredCourse: ${charset} ${collation}`);
  return { charset, collation };
}

const columnsOf = (mysql: boolean) => ["kind", "day", "value", "n"].map((c) => q(c, mysql)).join(", ");

/** One off the old row's figure of this kind. */
function minusOne(k: Kind, mysql: boolean): string {
  const where = `${q("kind", mysql)} = '${k.kind}' and ${q("day", mysql)} = ${dayOf("old", mysql)} and ${q("value", mysql)} = ${k.value("old", mysql)}`;
  return `update ${q(DAY_FIGURES_TABLE, mysql)} set n = n - 1 where ${where}`;
}

/** The triggers that keep these figures (their kinds, in key order) and the columns they read. */
export function figureTriggers(mysql: boolean, kinds: Kind[], readColumns: string[]): string[] {
  return mysql ? mysqlTriggers(kinds) : sqliteTriggers(kinds, readColumns);
}

function mysqlTriggers(kinds: Kind[]): string[] {
  const t = q(DAY_FIGURES_TABLE, true);
  const plusOne = (k: Kind) =>
    `insert into ${t} (${columnsOf(true)}) values ('${k.kind}', ${dayOf("new", true)}, ${k.value("new", true)}, 1) on duplicate key update n = n + 1`;
  // Per kind whose row changes: the one first in key order (day, then value) first, taking one off the old row when
  // the enquiry was counted and adding one to the new one when it is.
  const moved = (k: Kind) => {
    const [oldDay, newDay, oldValue, newValue] = [dayOf("old", true), dayOf("new", true), k.value("old", true), k.value("new", true)];
    const changed = `not (${oldValue} <=> ${newValue} and old.\`createdAt\` <=> new.\`createdAt\` and (${k.counted("old", true)}) <=> (${k.counted("new", true)}))`;
    const off = `if ${k.counted("old", true)} then ${minusOne(k, true)}; end if;`;
    const on = `if ${k.counted("new", true)} then ${plusOne(k)}; end if;`;
    return `if ${changed} then
        if ${oldDay} < ${newDay} or (${oldDay} = ${newDay} and ${oldValue} <= ${newValue}) then ${off} ${on} else ${on} ${off} end if;
      end if;`;
  };
  return [
    `create trigger enquiry_day_figures_insert after insert on enquiries for each row
      begin ${kinds.map((k) => `if ${k.counted("new", true)} then ${plusOne(k)}; end if;`).join(" ")} end`,
    `create trigger enquiry_day_figures_delete after delete on enquiries for each row
      begin ${kinds.map((k) => `if ${k.counted("old", true)} then ${minusOne(k, true)}; end if;`).join(" ")} end`,
    `create trigger enquiry_day_figures_update after update on enquiries for each row
      begin ${kinds.map(moved).join("\n")} end`,
  ];
}

/** SQLite has one writer at a time: no lock order to keep. */
function sqliteTriggers(kinds: Kind[], readColumns: string[]): string[] {
  const t = q(DAY_FIGURES_TABLE, false);
  const plusOne = (k: Kind) =>
    `insert into ${t} (${columnsOf(false)}) select '${k.kind}', ${dayOf("new", false)}, ${k.value("new", false)}, 1 where ${k.counted("new", false)}
      on conflict ("kind", "day", "value") do update set n = n + 1`;
  const changed = readColumns.map((c) => `old."${c}" is not new."${c}"`).join(" or ");
  return [
    `create trigger enquiry_day_figures_insert after insert on enquiries begin ${kinds.map((k) => `${plusOne(k)};`).join(" ")} end`,
    `create trigger enquiry_day_figures_delete after delete on enquiries
      begin ${kinds.map((k) => `${minusOne(k, false)} and ${k.counted("old", false)};`).join(" ")} end`,
    // Every kind's rows, whether or not its value changed: one off and one back on the same row leaves it as it was.
    `create trigger enquiry_day_figures_update after update of ${readColumns.map((c) => `"${c}"`).join(", ")} on enquiries when ${changed}
      begin
        ${kinds.map((k) => `${minusOne(k, false)} and ${k.counted("old", false)};`).join(" ")}
        ${kinds.map((k) => `${plusOne(k)};`).join(" ")}
      end`,
  ];
}

/** The totals of the enquiries already there (made before this migration, or loaded before the triggers). */
export async function fillFigures(db: Kysely<unknown>, mysql: boolean, kinds: Kind[]): Promise<void> {
  for (const k of kinds) {
    await sql
      .raw(
        `insert into ${q(DAY_FIGURES_TABLE, mysql)} (${columnsOf(mysql)})
         select '${k.kind}', ${dayOf(null, mysql)}, ${k.value(null, mysql)}, count(*) from enquiries
         where ${k.counted(null, mysql)} group by ${dayOf(null, mysql)}, ${k.value(null, mysql)}`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await db.schema.dropTable(DAY_FIGURES_TABLE).execute();
}
