import { dueFilterChoices, eachOpenDueRow, listOpenDueRows, sumLeftOnOpenDues, type DueListFilter, type DueRowView } from "~/models/fees.server";
import { sumReceivedBetween } from "~/models/payments.server";
import { siteToday } from "~/util/dates";
import { addDays } from "~/util/fee-schedule";
import type { StaffActor } from "./actor";
import { dueState } from "./fee-ledger.server";
import type { DueState, FeeView } from "~/schemas/fee-values";

/**
 * What staff see of everyone's fees (the Fees screen, its CSV, the dashboard and the daily digest): open dues due
 * today, overdue (with how many days), upcoming, by batch and by course; what came in this month; what is
 * outstanding and overdue.
 */

export type FeeListQuery = { view: FeeView; scheduleId?: string; course?: string; page: number; limit: number };
export type FeeRow = DueRowView & { state: DueState; leftPaise: number; daysOverdue: number };

function range(view: FeeView, today: string): Pick<DueListFilter, "from" | "to"> {
  if (view === "overdue") return { to: addDays(today, -1) };
  if (view === "today") return { from: today, to: today };
  if (view === "upcoming") return { from: addDays(today, 1), to: addDays(today, 30) };
  return {};
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

function toRow(d: DueRowView, today: string): FeeRow {
  return { ...d, state: dueState(d, today), leftPaise: d.amountPaise - d.paidPaise, daysOverdue: Math.max(0, daysBetween(d.dueDate, today)) };
}

export async function listFees(_actor: StaffActor, query: FeeListQuery, today = siteToday()) {
  const filter = { ...range(query.view, today), scheduleId: query.scheduleId, courseTitle: query.course };
  const page = await listOpenDueRows({ ...filter, page: query.page, limit: query.limit });
  return { rows: page.data.map((d) => toRow(d, today)), total: page.total, sumLeftPaise: page.sumLeftPaise, choices: await dueFilterChoices() };
}

export async function* exportFees(_actor: StaffActor, query: Omit<FeeListQuery, "page" | "limit">, today = siteToday()): AsyncGenerator<FeeRow[]> {
  for await (const rows of eachOpenDueRow({ ...range(query.view, today), scheduleId: query.scheduleId, courseTitle: query.course }))
    yield rows.map((d) => toRow(d, today));
}

export type FeeFigures = { collectedThisMonthPaise: number; outstandingPaise: number; overduePaise: number };

/** The dashboard's and the digest's fee figures: collected this month (Hyderabad), outstanding, overdue. */
export async function feeFigures(today = siteToday()): Promise<FeeFigures> {
  const [collectedThisMonthPaise, outstandingPaise, overduePaise] = await Promise.all([
    sumReceivedBetween(`${today.slice(0, 8)}01`, today),
    sumLeftOnOpenDues(),
    sumLeftOnOpenDues(today),
  ]);
  return { collectedThisMonthPaise, outstandingPaise, overduePaise };
}
