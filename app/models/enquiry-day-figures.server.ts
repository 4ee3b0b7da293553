import { sql } from "kysely";
import { db, dialect } from "~db/client.server";
import { DAY_FIGURES_TABLE } from "~db/migrations/0170-enquiry-day-figures";
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
 * enquiries of those days (the window's covering index, migration 0050).
 */
export async function countFiguresSince(since: string, recentSince: string): Promise<WindowFigure[]> {
  const sinceDay = siteToday(new Date(since));
  const recentDay = siteToday(new Date(recentSince));
  const edgeDays = [...new Set([sinceDay, recentDay])];
  const [whole, ...edges] = await Promise.all([
    db()
      .selectFrom(DAY_FIGURES_TABLE)
      .where("kind", "in", ["course", "source", "status"])
      .where("day", ">", sinceDay)
      .where("day", "not in", edgeDays)
      .groupBy(["kind", "value"])
      .select((eb) => [
        "kind",
        "value",
        eb.fn.sum<number | string>("n").as("n"),
        eb.fn.sum<number | string>(eb.case().when("day", ">", recentDay).then(eb.ref("n")).else(0).end()).as("recent"),
      ])
      .execute(),
    ...edgeDays.map((day) => countEnquiriesOfDay(day === sinceDay ? since : siteDayStartUtc(day), siteDayStartUtc(nextDay(day)), recentSince)),
  ]);
  const totals = new Map<string, WindowFigure>();
  const add = (kind: FigureKind, value: string, count: number, recentCount: number) => {
    const key = `${kind}\u0000${value}`;
    const figure = totals.get(key) ?? { kind, value, count: 0, recentCount: 0 };
    figure.count += count;
    figure.recentCount += recentCount;
    totals.set(key, figure);
  };
  for (const r of whole) add(r.kind as FigureKind, r.value, Number(r.n), Number(r.recent));
  for (const groups of edges)
    for (const g of groups) {
      add("status", g.status, g.count, g.recentCount);
      add("course", g.preferredCourse, g.count, g.recentCount);
      add("source", g.sourceLabel, g.count, g.recentCount);
    }
  // A value every enquiry has left (its last one changed status) keeps a row at 0.
  return [...totals.values()].filter((f) => f.count > 0);
}

/**
 * The enquiries received in [from, before) (within one day), counted by status, course and source, with how many came
 * since `recentSince`: read from the window's range of an index that holds every column it needs (named: without
 * statistics SQLite would pick another).
 */
async function countEnquiriesOfDay(from: string, before: string, recentSince: string) {
  const index = sql.id("enquiries_created_figures");
  const table = dialect() === "mysql" ? sql`${sql.table("enquiries")} force index (${index})` : sql`${sql.table("enquiries")} indexed by ${index}`;
  const [status, course, source, createdAt] = [sql.ref("status"), sql.ref("preferredCourse"), sql.ref("sourceLabel"), sql.ref("createdAt")];
  const { rows } = await sql<{ status: string; preferredCourse: string; sourceLabel: string; recent: number | string; n: number | string }>`
    select ${status}, ${course}, ${source}, sum(case when ${createdAt} >= ${recentSince} then 1 else 0 end) as ${sql.id("recent")}, count(*) as ${sql.id("n")}
    from ${table}
    where ${createdAt} >= ${from} and ${createdAt} < ${before} and ${sql.ref("privacyState")} <> ${"held"}
    group by ${status}, ${course}, ${source}`.execute(db());
  return rows.map((r) => ({
    status: r.status,
    preferredCourse: r.preferredCourse,
    sourceLabel: r.sourceLabel,
    count: Number(r.n),
    recentCount: Number(r.recent),
  }));
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
