import { sql } from "kysely";
import { db, dialect } from "~db/client.server";
import { DAY_FIGURES_TABLE } from "~db/migrations/0170-enquiry-day-figures";
import type { LIST_KINDS } from "~db/migrations/0200-list-count-figures";
import { SHOWN_TO_STAFF } from "~/schemas/values";
import { siteDayStartUtc, siteToday } from "~/util/dates";

/**
 * The dashboard's counts of enquiries received (not held for a guardian), read from the running totals of migration
 * 0170: per Hyderabad day, how many have each status, course and source now, and how many are still unanswered. A
 * window of 90 days is at most 90 days of a few dozen rows each, whatever the number of enquiries (issue 39: counting
 * the window's enquiries one by one read 8,000 index entries at 100,000 enquiries, 80 at 1,000). A window that starts
 * at an instant inside a day reads that day's enquiries themselves, so the figures are exactly those of the instants
 * asked for.
 */

export type FigureKind = "status" | "course" | "source";
/** How many of the window's enquiries have this value of this kind now, and how many of them are recent. */
export type WindowFigure = { kind: FigureKind; value: string; count: number; recentCount: number };

const DAY_MS = 86_400_000;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * The enquiries received since `since` (an instant), by status, by course and by source, with how many of each came
 * since `recentSince` (a later instant): whole days from the totals, and the two days the instants fall in from the
 * enquiries of those days (the window's covering index, migration 0050). Added up in one statement, so the database
 * decides which values are one (MariaDB's collation takes "Python" and "python" for one course, as its GROUP BY of
 * the enquiries did).
 */
export async function countFiguresSince(since: string, recentSince: string): Promise<WindowFigure[]> {
  const sinceDay = siteToday(new Date(since));
  const recentDay = siteToday(new Date(recentSince));
  const edgeDays = [...new Set([sinceDay, recentDay])];
  const [kind, value, day, n, createdAt] = [sql.ref("kind"), sql.ref("value"), sql.ref("day"), sql.ref("n"), sql.ref("createdAt")];
  const index = sql.id("enquiries_created_figures");
  const enquiries = dialect() === "mysql" ? sql`${sql.table("enquiries")} force index (${index})` : sql`${sql.table("enquiries")} indexed by ${index}`;
  // Each edge day's enquiries, from the window's start (the first day) or the day's start, to the day's end.
  const edges = sql.join(
    edgeDays.map((d) => sql`(${createdAt} >= ${d === sinceDay ? since : siteDayStartUtc(d)} and ${createdAt} < ${siteDayStartUtc(nextDay(d))})`),
    sql` or `,
  );
  const ofEdgeDays = (figure: FigureKind, column: string) =>
    sql`select ${figure} as ${kind}, ${sql.ref(column)} as ${value}, 1 as ${n}, case when ${createdAt} >= ${recentSince} then 1 else 0 end as ${sql.id("recent")}
      from ${enquiries} where (${edges}) and ${sql.ref("privacyState")} <> ${"held"}`;
  const { rows } = await sql<{ kind: FigureKind; value: string; n: number | string; recent: number | string }>`
    select ${kind}, ${value}, sum(${n}) as ${n}, sum(${sql.id("recent")}) as ${sql.id("recent")} from (
      select ${kind}, ${value}, ${n}, case when ${day} > ${recentDay} then ${n} else 0 end as ${sql.id("recent")}
      from ${sql.table(DAY_FIGURES_TABLE)}
      where ${kind} in (${sql.join(["course", "source", "status"])}) and ${day} > ${sinceDay} and ${day} not in (${sql.join(edgeDays)})
      union all ${ofEdgeDays("status", "status")}
      union all ${ofEdgeDays("course", "preferredCourse")}
      union all ${ofEdgeDays("source", "sourceLabel")}
    ) ${sql.id("figures")}
    group by ${kind}, ${value}`.execute(db());
  // A value every enquiry has left (its last one changed status) keeps a row at 0.
  return rows.map((r) => ({ kind: r.kind, value: r.value, count: Number(r.n), recentCount: Number(r.recent) })).filter((f) => f.count > 0);
}

/** Enquiries received (not held) per Hyderabad day from `fromDay` to `toDay` (both YYYY-MM-DD, both included); days with none left out. */
export async function countPerDay(fromDay: string, toDay: string): Promise<Map<string, number>> {
  const rows = await db()
    .selectFrom(DAY_FIGURES_TABLE)
    .where("day", ">=", fromDay)
    .where("day", "<=", toDay)
    .where("kind", "=", "status")
    .groupBy("day")
    .select((eb) => ["day", eb.fn.sum<number | string>("n").as("n")])
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

/**
 * The enquiries staff may see that are New and were never answered, received before `before` (an instant): the
 * dashboard's "new for more than 24 hours". Whole days from the totals, the day `before` falls in from its enquiries
 * (the (status, firstStatusChangeAt, privacyState, createdAt) index of migration 0090). Counting them all from that
 * index read every unanswered enquiry ever received (25,000 entries at 100,000 enquiries, 9 ms on MariaDB).
 */
export async function countUnansweredBefore(before: string): Promise<number> {
  const day = siteToday(new Date(before));
  const [whole, partDay] = await Promise.all([
    db()
      .selectFrom(DAY_FIGURES_TABLE)
      .where("kind", "=", "unanswered")
      .where("day", "<", day)
      .select((eb) => eb.fn.sum<number | string>("n").as("n"))
      .executeTakeFirst(),
    db()
      .selectFrom("enquiries")
      .where("status", "=", "new")
      .where("firstStatusChangeAt", "is", null)
      .where("privacyState", "=", SHOWN_TO_STAFF)
      .where("createdAt", ">=", siteDayStartUtc(day))
      .where("createdAt", "<", before)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return Number(whole?.n ?? 0) + Number(partDay.n);
}

/**
 * How many enquiries (not held for a guardian) have this status now, whenever they came: the sidebar's count of New
 * ones, on every staff screen. Added up over the days from the totals' (kind, value, day, n) index: about one entry a
 * day, where counting the enquiries read every New one (25,000 entries at 100,000 enquiries), so it is exact at once
 * after any write, on every instance, without being kept between requests.
 */
export async function countEnquiriesWithStatus(status: string): Promise<number> {
  const r = await db()
    .selectFrom(DAY_FIGURES_TABLE)
    .where("kind", "=", "status")
    .where("value", "=", status)
    .select((eb) => eb.fn.sum<number | string>("n").as("n"))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** A list's figure in the running totals (migration 0200): its kind and the value it counts. */
export type ListFigure = { kind: ListFigureKind; value: string };
export type ListFigureKind = (typeof LIST_KINDS)[number]["kind"];

/** A pair's value in the totals (status and mode, course and source): "<length of the first>|<first>|<second>" (migration 0200). */
export function listPairValue(first: string, second: string): string {
  return `${[...first].length}|${first}|${second}`;
}

/**
 * How many enquiries staff may see a list of one of the kept kinds holds (all, or one status, course, source, mode,
 * form, owner, batch, follow-up state, status and mode, course and source): its value's days added up from the
 * (kind, value, day, n) index, about one entry a day of the site's life, exact at once after any write on any
 * instance. Counting the list's own index entries read up to 10,001 of them at 100,000 enquiries (then "10,000+").
 */
export async function countListFigure({ kind, value }: ListFigure): Promise<number> {
  const r = await db()
    .selectFrom(DAY_FIGURES_TABLE)
    .where("kind", "=", kind)
    .where("value", "=", value)
    .select((eb) => eb.fn.sum<number | string>("n").as("n"))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
