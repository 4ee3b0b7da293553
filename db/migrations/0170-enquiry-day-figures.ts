import { MysqlAdapter, sql, type Kysely } from "kysely";

/**
 * Issue 39, item 3: the dashboard's figures kept as running totals. Its funnels (30 and 90 days), its course and
 * source tables and its weekly chart counted the enquiries of the window one by one: 8,000 index entries at 100,000
 * enquiries over three years, 80 at 1,000, so the dashboard cost 3 to 5 times more. `enquiry_day_figures` holds, per
 * Hyderabad day of arrival, how many enquiries (not held for a guardian) have each status, each course and each
 * source now: at most a few dozen rows a day, however many enquiries came that day.
 *
 * Kept by triggers in the same transaction as every write, on both databases, so nothing that writes enquiries can
 * leave it behind: the site's code, a restore, a migration, a script or SQL typed by hand. The insert trigger adds
 * one to the enquiry's three rows, the delete trigger takes one off, and the update trigger moves it only when one of
 * the figures' columns changes (MySQL/MariaDB fire on every update: a follow-up date or a note touches nothing here).
 * A status change locks its old and new rows in the table's key order (kind, then value), and an insert its rows in
 * key order, so two writers never wait for each other's rows in opposite orders (no deadlock).
 *
 * The day is Hyderabad's (UTC+05:30, no daylight saving): the one app/util/dates.ts siteToday() gives.
 */
export const DAY_FIGURES_TABLE = "enquiry_day_figures";

/** The three figures per day, in the table's key order, with the enquiries column each counts. */
const KINDS = [
  { kind: "course", column: "preferredCourse" },
  { kind: "source", column: "sourceLabel" },
  { kind: "status", column: "status" },
] as const;

const TRIGGERS = ["enquiry_day_figures_insert", "enquiry_day_figures_update", "enquiry_day_figures_delete"];

/** The Hyderabad day (YYYY-MM-DD) of a row's createdAt (ISO UTC); its first 10 characters if it is no instant. */
function dayOf(row: "new" | "old" | null, mysql: boolean): string {
  const createdAt = row ? `${row}.${q("createdAt", mysql)}` : q("createdAt", mysql);
  return mysql
    ? `coalesce(date_format(str_to_date(left(${createdAt}, 19), '%Y-%m-%dT%H:%i:%s') + interval 330 minute, '%Y-%m-%d'), left(${createdAt}, 10))`
    : `coalesce(date(${createdAt}, '+330 minutes'), substr(${createdAt}, 1, 10))`;
}

function q(name: string, mysql: boolean): string {
  return mysql ? `\`${name}\`` : `"${name}"`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  await db.schema
    .createTable(DAY_FIGURES_TABLE)
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("kind", "varchar(10)", (c) => c.notNull())
    .addColumn("value", "varchar(200)", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("enquiry_day_figures_pk", ["day", "kind", "value"])
    .execute();
  for (const statement of mysql ? mysqlTriggers() : sqliteTriggers()) await sql.raw(statement).execute(db);
  await fill(db, mysql);
}

const held = (row: "new" | "old", mysql: boolean) => `(${row}.${q("privacyState", mysql)} = 'held')`;
const columnsOf = (mysql: boolean) => ["day", "kind", "value", "n"].map((c) => q(c, mysql)).join(", ");

/** One off the old row's figure of this kind. */
function minusOne(kind: string, column: string, mysql: boolean): string {
  const where = `${q("day", mysql)} = ${dayOf("old", mysql)} and ${q("kind", mysql)} = '${kind}' and ${q("value", mysql)} = old.${q(column, mysql)}`;
  return `update ${q(DAY_FIGURES_TABLE, mysql)} set n = n - 1 where ${where}`;
}

function mysqlTriggers(): string[] {
  const t = q(DAY_FIGURES_TABLE, true);
  const plusOne = (kinds: readonly (typeof KINDS)[number][]) =>
    `insert into ${t} (${columnsOf(true)}) values ${kinds
      .map(({ kind, column }) => `(${dayOf("new", true)}, '${kind}', new.${q(column, true)}, 1)`)
      .join(", ")} on duplicate key update n = n + 1`;
  // Per kind whose row changes: the row first in key order (day, then value) first, taking one off the old row when
  // it was counted and adding one to the new one when it is.
  const moved = ({ kind, column }: (typeof KINDS)[number]) => {
    const c = q(column, true);
    const [oldDay, newDay] = [dayOf("old", true), dayOf("new", true)];
    const changed = `not (old.${c} <=> new.${c} and old.\`createdAt\` <=> new.\`createdAt\` and ${held("old", true)} <=> ${held("new", true)})`;
    const off = `if not ${held("old", true)} then ${minusOne(kind, column, true)}; end if;`;
    const on = `if not ${held("new", true)} then ${plusOne(KINDS.filter((k) => k.kind === kind))}; end if;`;
    return `if ${changed} then
        if ${oldDay} < ${newDay} or (${oldDay} = ${newDay} and old.${c} <= new.${c}) then ${off} ${on} else ${on} ${off} end if;
      end if;`;
  };
  return [
    `create trigger enquiry_day_figures_insert after insert on enquiries for each row
      begin if not ${held("new", true)} then ${plusOne(KINDS)}; end if; end`,
    `create trigger enquiry_day_figures_delete after delete on enquiries for each row
      begin if not ${held("old", true)} then ${KINDS.map(({ kind, column }) => `${minusOne(kind, column, true)};`).join(" ")} end if; end`,
    `create trigger enquiry_day_figures_update after update on enquiries for each row
      begin ${KINDS.map(moved).join("\n")} end`,
  ];
}

/** SQLite has one writer at a time: no lock order to keep. */
function sqliteTriggers(): string[] {
  const t = q(DAY_FIGURES_TABLE, false);
  const plusOne = ({ kind, column }: (typeof KINDS)[number], when = "true") =>
    `insert into ${t} (${columnsOf(false)}) select ${dayOf("new", false)}, '${kind}', new."${column}", 1 where ${when}
      on conflict ("day", "kind", "value") do update set n = n + 1`;
  const changed = [...KINDS.map(({ column }) => column), "createdAt"]
    .map((c) => `old."${c}" is not new."${c}"`)
    .concat(`${held("old", false)} is not ${held("new", false)}`)
    .join(" or ");
  return [
    `create trigger enquiry_day_figures_insert after insert on enquiries when not ${held("new", false)}
      begin ${KINDS.map((k) => `${plusOne(k)};`).join(" ")} end`,
    `create trigger enquiry_day_figures_delete after delete on enquiries when not ${held("old", false)}
      begin ${KINDS.map(({ kind, column }) => `${minusOne(kind, column, false)};`).join(" ")} end`,
    // Every kind's rows, whether or not its value changed: one off and one back on the same row leaves it as it was.
    `create trigger enquiry_day_figures_update after update of "status", "preferredCourse", "sourceLabel", "createdAt", "privacyState" on enquiries
      when ${changed}
      begin
        ${KINDS.map(({ kind, column }) => `${minusOne(kind, column, false)} and not ${held("old", false)};`).join(" ")}
        ${KINDS.map((k) => `${plusOne(k, `not ${held("new", false)}`)};`).join(" ")}
      end`,
  ];
}

/** The totals of the enquiries already there (made before this migration, or loaded before the triggers). */
async function fill(db: Kysely<unknown>, mysql: boolean): Promise<void> {
  for (const { kind, column } of KINDS) {
    const statement = sql.raw(
      `insert into ${q(DAY_FIGURES_TABLE, mysql)} (${q("day", mysql)}, ${q("kind", mysql)}, ${q("value", mysql)}, ${q("n", mysql)})
       select ${dayOf(null, mysql)}, '${kind}', ${q(column, mysql)}, count(*) from enquiries
       where ${q("privacyState", mysql)} <> 'held' group by ${dayOf(null, mysql)}, ${q(column, mysql)}`,
    );
    await statement.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await db.schema.dropTable(DAY_FIGURES_TABLE).execute();
}
