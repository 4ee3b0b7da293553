import { nextDay, siteDayStartUtc, siteToday } from "~/util/dates";
import { duplicatesOf, eachEnquiry, getEnquiry, pageEnquiries, nextInQueue, type Enquiry, type EnquiryFilter } from "~/models/enquiry.server";
import type { Schedule } from "~/models/schedule.server";
import type { Page } from "~/models/paging.server";
import { consentsOf, type Consent } from "~/models/consents.server";
import { DAY_MESSAGE, isCalendarDate } from "~/schemas/fields";
import { OPEN_ENQUIRY_STATUSES, type EnquirySort, type FollowUpFilter } from "~/schemas/values";
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
  return {
    page: query.page,
    limit: query.limit,
    status: query.status,
    q: query.q,
    course: query.course,
    mode: query.mode,
    assigneeId: query.assignee === "mine" ? actor.user.id : query.assignee === "none" ? null : query.assignee || undefined,
    followUp,
    source: query.source,
    form: query.form,
    createdFrom: query.from ? siteDayStartUtc(query.from) : undefined,
    createdBefore: query.to ? siteDayStartUtc(nextDay(query.to)) : undefined,
    sort: query.sort,
    queue: query.view === "queue" ? { userId: actor.user.id, now: now.toISOString() } : undefined,
  };
}

/** The enquiry after `currentId` in the actor's queue (the details' Next in queue), or null when it is empty. */
export async function nextInMyQueue(actor: StaffActor, currentId: string, now = new Date()): Promise<string | null> {
  return nextInQueue({ userId: actor.user.id, now: now.toISOString() }, currentId);
}

/** The batches an enquiry can be put in: those still to come, and the one it names whatever its dates, soonest first. */
export function upcomingBatchChoices(schedules: Schedule[], currentId: string | null, today = siteToday()): { id: string; label: string; full: boolean }[] {
  return schedules
    .filter((s) => s.endDate >= today || s.id === currentId)
    .sort((a, b) => a.startDate.localeCompare(b.startDate))
    .map((s) => ({ id: s.id, label: batchTitle(s), full: s.seats <= 0 }));
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
