import { formatDate, nextDay, siteDayStartUtc, siteToday } from "~/util/dates";
import { referenceIdPrefix } from "~/util/enquiry-reference";
import { duplicatesOf, eachEnquiry, getEnquiry, pageEnquiries, nextInQueue, type Enquiry, type EnquiryFilter } from "~/models/enquiry.server";
import type { Schedule } from "~/models/schedule.server";
import type { Page } from "~/models/paging.server";
import { consentsOf, type Consent } from "~/models/consents.server";
import { DAY_MESSAGE, isCalendarDate } from "~/schemas/fields";
import { DELIVERY_MODE_LABELS, OPEN_ENQUIRY_STATUSES, type EnquirySort, type FollowUpFilter } from "~/schemas/values";
import { batchTitle } from "./waitlist.server";
import type { StaffActor } from "./actor";
import { invalid, notFound } from "./service-error";

/**
 * Enquiries as the screens and the API list, show and export them (with their possible duplicates), and the
 * 24-hour promise and follow-up rules the lists mark. Sending one is enquiry-submissions.server.ts; following it
 * up is enquiries.server.ts.
 */

// ---------------------------------------------------------------- lists, details, exports

/** The list's filters as the screen's URL and the API's query string carry them. */
export type EnquiryListQuery = {
  page?: number;
  limit?: number;
  status?: string;
  q?: string;
  course?: string;
  mode?: string;
  /** "mine", "none" (unassigned) or a user id; absent: anyone. */
  assignee?: string;
  followUp?: FollowUpFilter;
  source?: string;
  form?: string;
  /** A batch (schedule id): the enquiries for it. */
  batch?: string;
  /** Hyderabad days (YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
  sort?: EnquirySort;
  /** "queue": the actor's queue (their overdue follow-ups, then New ones theirs or nobody's, oldest first). */
  view?: "queue";
};

/** The query with every relative value turned into ids and instants (mine → the actor, today → Hyderabad's day). */
export function resolveEnquiryFilter(actor: StaffActor, query: EnquiryListQuery, now = new Date()): EnquiryFilter {
  const bad: Record<string, string> = {};
  // Callers check first (the API with its schema, the screens dropping what the form does not offer); this is
  // the service's own guard for any other caller, since a bad day would become an invalid instant in the SQL.
  for (const key of ["from", "to"] as const) if (query[key] && !isCalendarDate(query[key]!)) bad[key] = DAY_MESSAGE;
  if (Object.keys(bad).length) throw invalid(bad);
  const today = siteToday(now);
  const followUp: EnquiryFilter["followUp"] =
    query.followUp === "none"
      ? "none"
      : query.followUp === "due"
        ? { due: { from: siteDayStartUtc(today), before: siteDayStartUtc(nextDay(today)) } }
        : query.followUp === "overdue"
          ? { overdueBefore: now.toISOString() }
          : undefined;
  // A reference the visitor quotes ("ENQ-3F9A12BC") finds exactly the enquiry it names, not names or e-mails like it.
  const idPrefix = referenceIdPrefix(query.q) ?? undefined;
  return {
    page: query.page,
    limit: query.limit,
    status: query.status,
    q: idPrefix ? undefined : query.q,
    idPrefix,
    course: query.course,
    mode: query.mode,
    assigneeId: query.assignee === "mine" ? actor.user.id : query.assignee === "none" ? null : query.assignee || undefined,
    followUp,
    source: query.source,
    form: query.form,
    scheduleId: query.batch || undefined,
    createdFrom: query.from ? siteDayStartUtc(query.from) : undefined,
    createdBefore: query.to ? siteDayStartUtc(nextDay(query.to)) : undefined,
    sort: query.sort,
    queue: query.view === "queue" ? { userId: actor.user.id, now: now.toISOString() } : undefined,
  };
}

/** How many enquiries saved one after the other ("Save and open next") a run of calls remembers: its URL stays short. */
export const QUEUE_RUN_MAX = 20;

/**
 * The next enquiry of the actor's queue (the details' Next in queue, "Save and open next"): never the one open
 * (`currentId`) nor one saved earlier in this run of calls (`run`, the ids the screens carry along, at most
 * QUEUE_RUN_MAX), so two unanswered calls never send the counsellor back and forth between them. Null when nothing is left.
 */
export async function nextInMyQueue(actor: StaffActor, currentId: string, run: readonly string[] = [], now = new Date()): Promise<string | null> {
  return nextInQueue({ userId: actor.user.id, now: now.toISOString() }, [currentId, ...run.slice(-QUEUE_RUN_MAX)]);
}

/** A batch as the enquiry's batch choices show it: its label and seats left, and whether it is of the enquiry's own course. */
export type BatchChoice = { id: string; label: string; full: boolean; ownCourse: boolean; courseName: string };

/**
 * The batches an enquiry can be put in: those still to come, and the one it names whatever its dates. The enquiry's
 * own course's batches come first (named by their start, "Jan 11, 2027 (Online) · 3 seats left"), soonest first,
 * then the other courses' (named by course too), so a counsellor picks from the right course and sees which are full.
 */
export function upcomingBatchChoices(schedules: Schedule[], currentId: string | null, course: string, today = siteToday()): BatchChoice[] {
  const seats = (s: Schedule) => (s.seats <= 0 ? "full" : `${s.seats} ${s.seats === 1 ? "seat" : "seats"} left`);
  const choice = (s: Schedule, ownCourse: boolean): BatchChoice => ({
    id: s.id,
    label: `${ownCourse ? `${formatDate(s.startDate)} (${DELIVERY_MODE_LABELS[s.mode] ?? s.mode})` : batchTitle(s)} · ${seats(s)}`,
    full: s.seats <= 0,
    ownCourse,
    courseName: s.courseName,
  });
  const shown = schedules.filter((s) => s.endDate >= today || s.id === currentId).sort((a, b) => a.startDate.localeCompare(b.startDate));
  return [
    ...shown.filter((s) => s.courseName === course).map((s) => choice(s, true)),
    ...shown.filter((s) => s.courseName !== course).map((s) => choice(s, false)),
  ];
}

export type EnquiryRecord = Enquiry & { duplicateOf: string[]; consents: Consent[] };

/** Records as the API and the screens show them: with the enquiries each is a possible duplicate of, and its consent rows. */
export async function withDuplicates(rows: Enquiry[]): Promise<EnquiryRecord[]> {
  const ids = rows.map((e) => e.id);
  const [links, consents] = await Promise.all([duplicatesOf(ids), consentsOf("enquiry", ids)]);
  return rows.map((e) => ({ ...e, duplicateOf: links.get(e.id) ?? [], consents: consents.get(e.id) ?? [] }));
}

export async function listEnquiries(actor: StaffActor, query: EnquiryListQuery): Promise<Page<EnquiryRecord>> {
  const page = await pageEnquiries(resolveEnquiryFilter(actor, query));
  return { ...page, data: await withDuplicates(page.data) };
}

export async function getEnquiryRecord(id: string): Promise<EnquiryRecord> {
  const enquiry = await getEnquiry(id);
  if (!enquiry) throw notFound("Enquiry");
  return (await withDuplicates([enquiry]))[0];
}

/** Every enquiry the list's filters match, a page of rows at a time (CSV export). */
export async function* exportEnquiries(actor: StaffActor, query: EnquiryListQuery): AsyncGenerator<EnquiryRecord[]> {
  const { page: _p, limit: _l, ...filter } = resolveEnquiryFilter(actor, query);
  for await (const rows of eachEnquiry(filter)) yield await withDuplicates(rows);
}

// ---------------------------------------------------------------- the 24-hour promise and follow-ups

/** Spec §9: a counsellor calls back within 24 hours. */
export const RESPONSE_PROMISE_MS = 24 * 60 * 60 * 1000;

/** How long a New enquiry has waited for its first answer (null once its status has changed). */
export function waitingMs(e: Pick<Enquiry, "status" | "firstStatusChangeAt" | "createdAt">, now = Date.now()): number | null {
  return e.status === "new" && !e.firstStatusChangeAt ? now - Date.parse(e.createdAt) : null;
}

/** Waited (see waitingMs) longer than the 24 hours promised: the screens mark such a lead late. */
export function pastResponsePromise(waiting: number | null): boolean {
  return waiting !== null && waiting > RESPONSE_PROMISE_MS;
}

/** A follow-up that is past while the lead is still open (New or Contacted). */
export function followUpOverdue(e: Pick<Enquiry, "status" | "followUpAt">, now = Date.now()): boolean {
  return e.followUpAt !== null && Date.parse(e.followUpAt) < now && (OPEN_ENQUIRY_STATUSES as readonly string[]).includes(e.status);
}
