import { inTransaction } from "~db/client.server";
import { nextDay, siteDateTimeToUtc, siteDayStartUtc, siteToday } from "~/util/dates";
import { sourceLabel, type LeadSource } from "~/util/lead-source";
import { deleteAttachments, discardUploads, type StoredUpload } from "~/infra/uploads.server";
import {
  clearEnquiryReferences,
  deleteEnquiryRow,
  duplicatesOf,
  eachEnquiry,
  findEnquiriesLike,
  getEnquiry,
  insertEnquiry,
  linkDuplicates,
  listEnquiries as listEnquiryRows,
  unlinkDuplicates,
  updateEnquiryRow,
  type Enquiry,
  type EnquiryChanges,
  type EnquiryFilter,
} from "~/models/enquiry.server";
import { forgetOutboxMessagesAbout } from "~/models/outbox.server";
import type { Page } from "~/models/paging.server";
import { findScheduleByCourseAndStart, getSchedule, returnSeat, takeSeat, type Schedule } from "~/models/schedule.server";
import { deleteTimeline, insertTimelineEntry, listTimeline, type TimelineEntry } from "~/models/timeline.server";
import { getUser } from "~/models/user.server";
import { ENQUIRY_RECEIPT_FIELDS, enquiryApiSchema, enquiryFormSchema, enquiryStatusSchema } from "~/schemas/enquiry";
import { DAY_MESSAGE, isCalendarDate } from "~/schemas/fields";
import { assignSchema, batchSchema, bulkSchema, enquiryPipelineUpdateSchema, FOLLOW_UP_MESSAGE, followUpSchema, sourceSchema } from "~/schemas/enquiry-pipeline";
import { OPEN_ENQUIRY_STATUSES, type EnquiryFormName, type EnquiryStatus, type FollowUpFilter } from "~/schemas/values";
import type { Actor, StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { queueEnquiryNotifications, queueEnquiryStatusChange, queueEnrolmentConfirmation } from "./notifications.server";
import { addNote } from "./timeline.server";
import { joinWaitlistIfFull, claimOfferedSeat, waitlistAfterChange, waitlistBatchesDeleted, waitlistEnquiryDeleted } from "./waitlist.server";
import { conflict, invalid, notFound, ServiceError } from "./service-error";
import { fieldErrors, parseInput } from "./validation";

/**
 * Enrolment enquiries: visitors send them (home form, /enquiry, the API); staff follow them up: an owner, a next
 * follow-up, a batch whose seats an enrolment takes, notes, and one timeline of every change.
 */

/** Where an enquiry was sent from. The forms send an unticked WhatsApp box as nothing (false); the API defaults to true (spec §3). */
export type EnquiryChannel = EnquiryFormName;

/** The field that carries an enquiry's attachments (the /enquiry page's file input, and `filePaths` of a record). */
export const ATTACHMENT_FIELD = "filePaths";

export const BATCH_FULL = "This batch is full: no seats are left. Choose another batch, or add seats to it first.";
export const ASSIGNEE_UNKNOWN = "Choose a staff member";
export const BATCH_UNKNOWN = "Choose a batch";
const DUPLICATE_WINDOW_DAYS = 90;
const FIELDS = ["fullName", "email", "phone", "preferredCourse", "preferredMode", "message", "whatsappNotifications"] as const;


// ---------------------------------------------------------------- a visitor's enquiry

export type EnquirySubmission = {
  channel: EnquiryChannel;
  files?: StoredUpload[];
  fileError?: string;
  /** From the visitor's first-party cookie (the pages); an integration may send `source` in the body instead. */
  source?: LeadSource | null;
};

const BATCH_DATE_MESSAGE = "batchDate must be a day as YYYY-MM-DD";

/**
 * Stores a new enquiry with the files already received (attachments come only from the /enquiry page), or
 * refuses it with every field's message at once, a refused file (`fileError`) included. Status is always "new".
 * In the same transaction: the batch named by `batchDate` (the schedule's Enroll Now), where it came from, links
 * to possible duplicates, the first timeline line, and the staff alert, acknowledgement and webhooks, which the
 * outbox delivers after the commit, never while the visitor waits. On any failure the files are removed:
 * nothing is half-saved.
 */
export async function submitEnquiry(actor: Actor, input: unknown, opts: EnquirySubmission): Promise<EnquiryRecord> {
  const files = opts.files ?? [];
  try {
    const body = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
    const parsed = (opts.channel === "api" ? enquiryApiSchema : enquiryFormSchema).safeParse(body);
    const sent = sourceSchema.safeParse(body.source);
    const fields = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...(sent.success ? {} : prefixed("source", fieldErrors(sent.error))) };
    if (opts.fileError) fields[ATTACHMENT_FIELD] = opts.fileError;
    // The API names a batch by its start day and is told when that is no day; the page's hidden field is ours.
    const badBatchDate = opts.channel === "api" ? !isCalendarDate(String(body.batchDate)) : typeof body.batchDate !== "string";
    if (body.batchDate !== undefined && body.batchDate !== null && badBatchDate) fields.batchDate = BATCH_DATE_MESSAGE;
    if (!parsed.success || !sent.success || Object.keys(fields).length) throw invalid(fields);
    const values = parsed.data;
    const lead = { utmSource: null, utmMedium: null, utmCampaign: null, referrer: null, ...(opts.source ?? {}), ...definedOnly(sent.data ?? {}) };
    const batchDate = typeof body.batchDate === "string" && isCalendarDate(body.batchDate) ? body.batchDate : null;
    return await inTransaction(async () => {
      const batch = batchDate ? await findScheduleByCourseAndStart(values.preferredCourse, batchDate, values.preferredMode) : null;
      const enquiry = await insertEnquiry({
        ...values,
        filePaths: files.map((f) => f.storedName),
        scheduleId: batch?.id ?? null,
        source: { ...lead, form: opts.channel },
        sourceLabel: sourceLabel(lead),
      });
      // A full batch: the enquiry joins its waitlist (the schedule's Join waitlist, or the API's batchDate).
      if (batch) await joinWaitlistIfFull(enquiry, batch);
      const since = new Date(Date.parse(enquiry.createdAt) - DUPLICATE_WINDOW_DAYS * 86_400_000).toISOString();
      await linkDuplicates(enquiry.id, await findEnquiriesLike(enquiry.phone, enquiry.email, since, enquiry.id));
      await insertTimelineEntry("enquiry", enquiry.id, {
        userId: actor.user?.id ?? null,
        userName: actor.user?.name ?? "",
        kind: "created",
        fromValue: null,
        toValue: opts.channel,
        text: describeSource(enquiry),
      });
      if (actor.user) await record(actor, "create", "enquiry", enquiry.id, `${enquiry.fullName} (${enquiry.preferredCourse})`);
      // The webhook carries the record as GET /api/enquiries/:id answers it, possible duplicates included.
      const [stored] = await withDuplicates([enquiry]);
      await queueEnquiryNotifications(stored);
      return stored;
    });
  } catch (error) {
    await discardUploads(files);
    throw error;
  }
}

const prefixed = (prefix: string, fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k === "body" ? prefix : `${prefix}.${k}`, v]));
const definedOnly = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

const RECEIVED_FROM: Record<EnquiryFormName, string> = { home: "the home page form", "enquiry-page": "the enquiry page", api: "the API" };

/** "Received from the enquiry page · campaign google / cpc / diwali-offer · referred by https://www.google.com/" */
function describeSource(e: Enquiry): string {
  const parts = [`Received from ${e.source.form ? RECEIVED_FROM[e.source.form] : "a form"}`];
  const tags = [e.source.utmSource, e.source.utmMedium, e.source.utmCampaign].filter(Boolean);
  if (tags.length) parts.push(`campaign ${tags.join(" / ")}`);
  if (e.source.referrer) parts.push(`referred by ${e.source.referrer}`);
  return parts.join(" · ");
}

// ---------------------------------------------------------------- following up

export type EnquiryChange = {
  fields?: Partial<Pick<Enquiry, (typeof FIELDS)[number]>>;
  status?: EnquiryStatus;
  assigneeId?: string | null;
  followUpAt?: string | null;
  scheduleId?: string | null;
  /** Becoming Enrolled with the seat an accepted waitlist offer already holds: no second seat is taken. */
  heldSeat?: boolean;
};

/**
 * Applies a set of changes to one enquiry inside the caller's transaction: the seat rules (an Enrolled enquiry
 * holds one seat of its batch; leaving Enrolled or changing the batch gives it back), the first answer, one
 * timeline line per change, one audit row and, when the status changed, the `enquiry.status_changed` webhooks
 * (the outbox delivers them after the commit). Refuses (and so rolls everything back) when the batch is full.
 */
async function applyChange(actor: StaffActor, before: Enquiry, change: EnquiryChange): Promise<Enquiry> {
  const status = change.status ?? before.status;
  const scheduleId = change.scheduleId === undefined ? before.scheduleId : change.scheduleId;
  const wasHolding = before.status === "enrolled" && before.scheduleId !== null;
  const holds = status === "enrolled" && scheduleId !== null;
  if (wasHolding && (!holds || scheduleId !== before.scheduleId)) await returnSeat(before.scheduleId!);
  if (holds && (!wasHolding || scheduleId !== before.scheduleId) && !change.heldSeat && !(await claimOfferedSeat(before.id, scheduleId!)) && !(await takeSeat(scheduleId!))) {
    throw conflict(`${BATCH_FULL}`, { status: BATCH_FULL }, "batch_full");
  }

  const row: EnquiryChanges = { ...change.fields };
  if (change.status !== undefined && change.status !== before.status) {
    row.status = change.status;
    if (!before.firstStatusChangeAt) row.firstStatusChangeAt = new Date().toISOString();
  }
  if (change.assigneeId !== undefined && change.assigneeId !== before.assigneeId) row.assigneeId = change.assigneeId;
  if (change.followUpAt !== undefined && change.followUpAt !== before.followUpAt) row.followUpAt = change.followUpAt;
  if (change.scheduleId !== undefined && change.scheduleId !== before.scheduleId) row.scheduleId = change.scheduleId;
  const saved = await updateEnquiryRow(before.id, row);
  if (!saved) throw notFound("Enquiry");

  const who = { userId: actor.user.id, userName: actor.user.name, text: null };
  const line = (kind: TimelineEntry["kind"], fromValue: string | null, toValue: string | null) => insertTimelineEntry("enquiry", before.id, { ...who, kind, fromValue, toValue });
  if (row.status) {
    await line("status", before.status, saved.status);
    await record(actor, "status", "enquiry", before.id, `${saved.fullName}: ${before.status} → ${saved.status}`);
    await queueEnquiryStatusChange(actor, before, saved);
    // Only a real change to Enrolled (the screen, the bulk action, the API, a waitlist acceptance): once per enrolment.
    if (saved.status === "enrolled") await queueEnrolmentConfirmation(saved, saved.scheduleId ? await getSchedule(saved.scheduleId) : null);
  }
  if (row.assigneeId !== undefined) await line("assignee", await staffName(before.assigneeId), await staffName(saved.assigneeId));
  if (row.followUpAt !== undefined) await line("follow_up", before.followUpAt, saved.followUpAt);
  if (row.scheduleId !== undefined) await line("batch", await batchName(before.scheduleId), await batchName(saved.scheduleId));
  await waitlistAfterChange(before, saved);
  const other = changeSummary(before, saved, [...FIELDS, "assigneeId", "followUpAt", "scheduleId"]);
  if (other !== "No changes") await record(actor, "update", "enquiry", before.id, other);
  return saved;
}

async function staffName(id: string | null): Promise<string | null> {
  if (!id) return null;
  return (await getUser(id))?.name ?? "(deleted user)";
}

export function batchLabel(s: Pick<Schedule, "courseName" | "startDate" | "mode">): string {
  return `${s.courseName}, starts ${s.startDate} (${s.mode})`;
}

async function batchName(id: string | null): Promise<string | null> {
  if (!id) return null;
  const s = await getSchedule(id);
  return s ? batchLabel(s) : "(deleted batch)";
}

/** The enquiry as it is now, inside a transaction, or notFound. */
async function current(id: string): Promise<Enquiry> {
  const enquiry = await getEnquiry(id);
  if (!enquiry) throw notFound("Enquiry");
  return enquiry;
}

async function checkAssignee(id: string | null | undefined): Promise<void> {
  if (id && !(await getUser(id))) throw invalid({ assigneeId: ASSIGNEE_UNKNOWN });
}

async function checkBatch(id: string | null | undefined): Promise<void> {
  if (id && !(await getSchedule(id))) throw invalid({ scheduleId: BATCH_UNKNOWN });
}

/** A follow-up typed in Hyderabad time (the screens) or as an ISO instant with its offset (the API), as UTC; null clears. */
function followUpInstant(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const utc = siteDateTimeToUtc(value);
  if (!utc) throw invalid({ followUpAt: FOLLOW_UP_MESSAGE });
  return utc;
}

/** Any status may follow any other (spec §4); Enrolled takes a seat of the enquiry's batch. */
export async function setEnquiryStatus(actor: StaffActor, id: string, input: unknown): Promise<Enquiry> {
  const { status } = parseInput(enquiryStatusSchema, input);
  return inTransaction(async () => applyChange(actor, await current(id), { status }));
}

export async function assignEnquiry(actor: StaffActor, id: string, input: unknown): Promise<Enquiry> {
  const { assigneeId } = parseInput(assignSchema, input);
  await checkAssignee(assigneeId);
  return inTransaction(async () => applyChange(actor, await current(id), { assigneeId: assigneeId ?? null }));
}

export async function setFollowUp(actor: StaffActor, id: string, input: unknown): Promise<Enquiry> {
  const followUpAt = followUpInstant(parseInput(followUpSchema, input).followUpAt) ?? null;
  return inTransaction(async () => applyChange(actor, await current(id), { followUpAt }));
}

export async function setEnquiryBatch(actor: StaffActor, id: string, input: unknown): Promise<Enquiry> {
  const { scheduleId } = parseInput(batchSchema, input);
  await checkBatch(scheduleId);
  return inTransaction(async () => applyChange(actor, await current(id), { scheduleId: scheduleId ?? null }));
}

/** A waitlist offer just accepted (inside its transaction): Enrolled in the offer's batch, with the seat the offer held. */
export async function enrolWithHeldSeat(actor: StaffActor, id: string, scheduleId: string): Promise<Enquiry> {
  return applyChange(actor, await current(id), { status: "enrolled", scheduleId, heldSeat: true });
}

/** PUT /api/enquiries/:id: correct the fields and set status, owner, follow-up and batch in one go (all or nothing). */
export async function updateEnquiry(actor: StaffActor, id: string, input: unknown): Promise<Enquiry> {
  const values = parseInput(enquiryPipelineUpdateSchema, input);
  await checkAssignee(values.assigneeId);
  await checkBatch(values.scheduleId);
  const followUpAt = followUpInstant(values.followUpAt);
  const { fullName, email, phone, preferredCourse, preferredMode, message, whatsappNotifications } = values;
  return inTransaction(async () =>
    applyChange(actor, await current(id), {
      fields: { fullName, email, phone, preferredCourse, preferredMode, message: message ?? "", whatsappNotifications },
      status: values.status,
      assigneeId: values.assigneeId,
      followUpAt,
      scheduleId: values.scheduleId,
    }),
  );
}

/** Several enquiries at once, all or nothing: one full batch refuses the whole change, naming the enquiry. */
export async function bulkUpdateEnquiries(actor: StaffActor, input: unknown): Promise<number> {
  const { ids, status, assigneeId: rawAssignee } = parseInput(bulkSchema, input);
  const assigneeId = rawAssignee === undefined ? undefined : rawAssignee === "none" ? null : rawAssignee;
  await checkAssignee(assigneeId);
  return inTransaction(async () => {
    for (const id of new Set(ids)) {
      const before = await current(id);
      try {
        await applyChange(actor, before, { status, assigneeId });
      } catch (error) {
        if (error instanceof ServiceError && error.code === "batch_full") throw conflict(`${before.fullName}: ${BATCH_FULL}`, { status: `${before.fullName}: ${BATCH_FULL}` }, "batch_full");
        throw error;
      }
    }
    return new Set(ids).size;
  });
}

export const addEnquiryNote = (actor: StaffActor, id: string, input: unknown) => addNote(actor, "enquiry", id, input, async (i) => (await getEnquiry(i)) !== null);

export async function enquiryTimeline(id: string): Promise<TimelineEntry[]> {
  if (!(await getEnquiry(id))) throw notFound("Enquiry");
  return listTimeline("enquiry", id);
}

/**
 * Deletes the enquiry (its timeline, its duplicate links, the seat an enrolment held, and its e-mails and
 * webhooks not sent yet go with it; sent ones lose their copy of the record), then its attached files (the row
 * first, so a failure can only leave an unreachable file).
 */
export async function deleteEnquiry(actor: StaffActor, id: string): Promise<void> {
  const deleted = await inTransaction(async () => {
    const enquiry = await deleteEnquiryRow(id);
    if (!enquiry) throw notFound("Enquiry");
    if (enquiry.status === "enrolled" && enquiry.scheduleId) await returnSeat(enquiry.scheduleId);
    await waitlistEnquiryDeleted(enquiry);
    await deleteTimeline("enquiry", id);
    await unlinkDuplicates(id);
    await forgetOutboxMessagesAbout("enquiry", id);
    await record(actor, "delete", "enquiry", id, `${enquiry.fullName} (${enquiry.preferredCourse})${enquiry.filePaths.length ? `, ${enquiry.filePaths.length} file(s)` : ""}`);
    return enquiry;
  });
  await deleteAttachments(deleted.filePaths).catch((error) => console.error("Removing an enquiry's files failed:", error));
}

/** Staff or a batch deleted: enquiries no longer name them (call inside the deleting transaction). */
export const forgetAssignee = (userId: string) => clearEnquiryReferences("assigneeId", [userId]);
export const forgetBatches = async (scheduleIds: string[]) => {
  await clearEnquiryReferences("scheduleId", scheduleIds);
  await waitlistBatchesDeleted(scheduleIds);
};

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
  };
}

export type EnquiryRecord = Enquiry & { duplicateOf: string[] };

export type EnquiryReceipt = Pick<EnquiryRecord, (typeof ENQUIRY_RECEIPT_FIELDS)[number]>;

/**
 * A new enquiry as its sender may see it. Staff get the whole record; anyone else gets back only what they sent:
 * duplicateOf (or the status, the assignee …) would tell a stranger whether an e-mail or phone number enquired
 * in the last 90 days.
 */
export function enquiryAsSeenBy(actor: Actor, record: EnquiryRecord): EnquiryRecord | EnquiryReceipt {
  if (actor.user) return record;
  return Object.fromEntries(ENQUIRY_RECEIPT_FIELDS.map((key) => [key, record[key]])) as EnquiryReceipt;
}

/** Records as the API and the screens show them: with the enquiries each is a possible duplicate of. */
async function withDuplicates(rows: Enquiry[]): Promise<EnquiryRecord[]> {
  const links = await duplicatesOf(rows.map((e) => e.id));
  return rows.map((e) => ({ ...e, duplicateOf: links.get(e.id) ?? [] }));
}

export async function listEnquiries(actor: StaffActor, query: EnquiryListQuery): Promise<Page<EnquiryRecord>> {
  const page = await listEnquiryRows(resolveEnquiryFilter(actor, query));
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
