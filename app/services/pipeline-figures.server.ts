import { siteDayStartUtc, siteToday } from "~/util/dates";
import { countByColumnSince, countByStatusSince, countInWindows, countMatching, countUnansweredSince, listEnquiryRows } from "~/models/enquiry.server";
import type { StaffActor } from "./actor";
import { resolveEnquiryFilter, RESPONSE_PROMISE_MS } from "./enquiry-lists.server";
import { myOverdueCount } from "./staff-counts.server";

/**
 * The dashboard's figures of the enrolment pipeline, all counted in SQL: each is one indexed query, so the
 * dashboard stays fast with 100,000 enquiries.
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
  const counts = await countInWindows(starts.map((start) => ({ from: siteDayStartUtc(start), before: siteDayStartUtc(addDays(start, 7)) })));
  return starts.map((start, i) => ({ weekStart: start, count: counts[i] }));
}

/**
 * Of the enquiries received in the last `days` days: how many got an answer (their status moved on from New),
 * how many are Enrolled and how many Closed now, and the share that enrolled.
 */
export async function funnel(days: number, now = new Date()): Promise<Funnel> {
  const byStatus = await countByStatusSince(new Date(now.getTime() - days * DAY_MS).toISOString());
  const received = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const enrolled = byStatus.enrolled ?? 0;
  return {
    days,
    received,
    contacted: received - (byStatus.new ?? 0),
    enrolled,
    closed: byStatus.closed ?? 0,
    conversion: received ? Math.round((enrolled / received) * 1000) / 10 : 0,
  };
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
 * Each figure once: the follow-up lists read their first five rows without a count, and the overdue count is
 * the sidebar's (shared within the request through `scope`, the request's load context).
 */
export async function pipelineFigures(actor: StaffActor, now = new Date(), scope?: object): Promise<PipelineFigures> {
  const since90 = new Date(now.getTime() - 90 * DAY_MS).toISOString();
  // The same filters as the list's "Due today" and "Overdue" tabs for "mine", so the two never disagree.
  const dueFilter = resolveEnquiryFilter(actor, { assignee: "mine", followUp: "due", limit: 5 }, now);
  const overdueFilter = resolveEnquiryFilter(actor, { assignee: "mine", followUp: "overdue", limit: 5 }, now);
  const [unansweredOver24h, weekly, f30, f90, byCourse, bySource, due, dueCount, overdue, overdueCount] = await Promise.all([
    countUnansweredSince(new Date(now.getTime() - RESPONSE_PROMISE_MS).toISOString()),
    enquiriesPerWeek(now),
    funnel(30, now),
    funnel(90, now),
    countByColumnSince("preferredCourse", since90),
    countByColumnSince("sourceLabel", since90),
    listEnquiryRows(dueFilter),
    countMatching(dueFilter),
    listEnquiryRows(overdueFilter),
    myOverdueCount(actor, now, scope),
  ]);
  const next = [...overdue, ...due.filter((d) => !overdue.some((o) => o.id === d.id))]
    .slice(0, 5)
    .map((e) => ({ id: e.id, fullName: e.fullName, followUpAt: e.followUpAt! }));
  return { unansweredOver24h, weekly, funnels: [f30, f90], byCourse, bySource, myFollowUps: { dueToday: dueCount, overdue: overdueCount, next } };
}
