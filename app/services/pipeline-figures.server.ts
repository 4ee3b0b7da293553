import { siteToday } from "~/util/dates";
import { countFiguresSince, countPerDay, countUnansweredBefore, type FigureKind, type WindowFigure } from "~/models/enquiry-day-figures.server";
import { countMatching, firstEnquiries } from "~/models/enquiry.server";
import type { StaffActor } from "./actor";
import { resolveEnquiryFilter, RESPONSE_PROMISE_MS } from "./enquiry-lists.server";
import { myOverdueCount } from "./staff-counts.server";

/**
 * The dashboard's figures of the enrolment pipeline, all counted in SQL: the windows' counts from the running totals
 * per day (migration 0170), the rest each one indexed query, so the dashboard costs the same at 100,000 enquiries as
 * at 1,000.
 */

export type WeekCount = { weekStart: string; count: number };
export type Funnel = { days: number; received: number; contacted: number; enrolled: number; closed: number; conversion: number };
export type FollowUpItem = { id: string; fullName: string; followUpAt: string };

const DAY_MS = 86_400_000;

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Monday of the Hyderabad week that holds `day`. */
function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** Enquiries received per Hyderabad week (Monday to Sunday), the last `weeks` weeks, this one included. */
export async function enquiriesPerWeek(now = new Date(), weeks = 12): Promise<WeekCount[]> {
  const thisWeek = weekStart(siteToday(now));
  const starts = Array.from({ length: weeks }, (_, i) => addDays(thisWeek, -7 * (weeks - 1 - i)));
  const perDay = await countPerDay(starts[0], addDays(thisWeek, 6));
  const weekOf = (start: string) => Array.from({ length: 7 }, (_, d) => perDay.get(addDays(start, d)) ?? 0).reduce((sum, n) => sum + n, 0);
  return starts.map((start) => ({ weekStart: start, count: weekOf(start) }));
}

/**
 * Of the enquiries received in the window (all of them, or the recent ones), by status: how many got an answer (their
 * status moved on from New), how many are Enrolled and how many Closed now, and the share that enrolled.
 */
function funnel(days: number, figures: WindowFigure[], which: "count" | "recentCount" = "count"): Funnel {
  const byStatus = figures.filter((f) => f.kind === "status");
  const count = (status?: string) => byStatus.filter((f) => !status || f.value === status).reduce((n, f) => n + f[which], 0);
  const received = count();
  const enrolled = count("enrolled");
  return {
    days,
    received,
    contacted: received - count("new"),
    enrolled,
    closed: count("closed"),
    conversion: received ? Math.round((enrolled / received) * 1000) / 10 : 0,
  };
}

/** The most common values of a kind in the window, most first (then by name), at most `limit`. */
function topValues(figures: WindowFigure[], kind: Exclude<FigureKind, "status">, limit = 8): { value: string; count: number }[] {
  return figures
    .filter((f) => f.kind === kind)
    .map(({ value, count }) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, limit);
}

export type PipelineFigures = {
  unansweredOver24h: number;
  weekly: WeekCount[];
  funnels: Funnel[];
  byCourse: { value: string; count: number }[];
  bySource: { value: string; count: number }[];
  myFollowUps: { dueToday: number; overdue: number; next: FollowUpItem[] };
};

/**
 * Each figure once: the funnels and the course and source tables from the running totals, the follow-up lists'
 * first five rows without a count, and the overdue count the sidebar's (shared within the request through
 * `scope`, the request's load context).
 */
export async function pipelineFigures(actor: StaffActor, now = new Date(), scope?: object): Promise<PipelineFigures> {
  const since90 = new Date(now.getTime() - 90 * DAY_MS).toISOString();
  // The same filters as the list's "Due today" and "Overdue" tabs for "mine", so the two never disagree.
  const dueFilter = resolveEnquiryFilter(actor, { assignee: "mine", followUp: "due", limit: 5 }, now);
  const overdueFilter = resolveEnquiryFilter(actor, { assignee: "mine", followUp: "overdue", limit: 5 }, now);
  const since30 = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const [unansweredOver24h, weekly, figures, due, dueCount, overdue, overdueCount] = await Promise.all([
    countUnansweredBefore(new Date(now.getTime() - RESPONSE_PROMISE_MS).toISOString()),
    enquiriesPerWeek(now),
    countFiguresSince(since90, since30),
    firstEnquiries(dueFilter),
    countMatching(dueFilter),
    firstEnquiries(overdueFilter),
    myOverdueCount(actor, now, scope),
  ]);
  const next = [...overdue, ...due.filter((d) => !overdue.some((o) => o.id === d.id))]
    .slice(0, 5)
    .map((e) => ({ id: e.id, fullName: e.fullName, followUpAt: e.followUpAt! }));
  const funnels = [funnel(30, figures, "recentCount"), funnel(90, figures)];
  return {
    unansweredOver24h,
    weekly,
    funnels,
    byCourse: topValues(figures, "course"),
    bySource: topValues(figures, "source"),
    myFollowUps: { dueToday: dueCount, overdue: overdueCount, next },
  };
}
