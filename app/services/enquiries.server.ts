import { inTransaction } from "~db/client.server";
import { formatDateTime, siteDateTimeToUtc } from "~/util/dates";
import { deleteAttachments } from "~/infra/uploads.server";
import {
  clearEnquiryReferences,
  deleteEnquiryRow,
  getEnquiry,
  touchEnquiry,
  unlinkDuplicates,
  updateEnquiryRow,
  type Enquiry,
  type EnquiryChanges,
} from "~/models/enquiry.server";
import { forgetOutboxMessagesAbout } from "~/models/outbox.server";
import { claimFormKey } from "~/models/form-submission.server";
import { addTakenSeat, countUpcomingOfCourse, getSchedule, returnSeat, takeSeat } from "~/models/schedule.server";
import { openOfferOfEnquiry } from "~/models/waitlist.server";
import { deletePrivacyLinks } from "~/models/privacy-links.server";
import { deleteTimeline, insertTimelineEntry, listTimeline, type TimelineEntry } from "~/models/timeline.server";
import { getUser } from "~/models/user.server";
import { enquiryStatusSchema } from "~/schemas/enquiry";
import {
  activitySchema,
  assignSchema,
  batchSchema,
  bulkSchema,
  COURSE_CHANGE_CODE,
  enquiryPipelineUpdateSchema,
  FOLLOW_UP_MESSAGE,
  followUpSchema,
  noteSchema,
  NOTHING_TO_LOG,
} from "~/schemas/enquiry-pipeline";
import { EDIT_CONFLICT_CODE, writeGuardSchema } from "~/schemas/write-guard";
import { ENQUIRY_FIELD_LABELS, ENQUIRY_STATUS_LABELS, type EnquiryStatus } from "~/schemas/values";
import type { StaffActor } from "./actor";
import { record } from "./audit.server";
import { queueEnquiryStatusChange, queueEnrolmentConfirmation } from "./notifications.server";
import { insertNote } from "./timeline.server";
import {
  batchTitle,
  claimOfferedSeat,
  seatOfferText,
  WAITLIST_ACTOR,
  waitlistAfterChange,
  waitlistBatchesDeleted,
  waitlistEnquiryDeleted,
  type SeatOffer,
} from "./waitlist.server";
import { conflict, invalid, notFound, ServiceError } from "./service-error";
import { changedMeanwhile, editConflict, guardedWrite, type GuardedRecord, type WriteGuard } from "./write-guard.server";
import { parseInput } from "./validation";
import { forgetPrivacyOf, timelineWithConsents } from "./privacy-records.server";
import { endFeeAccount, openFeeAccount, readEnrolmentFeeChoice } from "./fee-ledger.server";
import { byArrival } from "~/util/arrival-order";

/**
 * Following an enquiry up (the pipeline): an owner, a next follow-up, a batch whose seats an enrolment takes, the
 * status, notes, and one timeline of every change; bulk changes and deletion. A visitor sending one is
 * enquiry-submissions.server.ts; lists, details and exports are enquiry-lists.server.ts.
 */

export const BATCH_FULL = "This batch is full: no seats are left. Choose another batch, or add a seat for this student.";
export const ASSIGNEE_UNKNOWN = "Choose a staff member";
export const BATCH_UNKNOWN = "Choose a batch";
export const ENROL_NEEDS_BATCH = "Choose the batch this student joins before marking the enquiry Enrolled: the course has upcoming batches.";
const FIELDS = ["fullName", "email", "phone", "preferredCourse", "preferredMode", "message", "whatsappNotifications"] as const;

// ---------------------------------------------------------------- following up

export type EnquiryChange = {
  fields?: Partial<Pick<Enquiry, (typeof FIELDS)[number]>>;
  status?: EnquiryStatus;
  assigneeId?: string | null;
  followUpAt?: string | null;
  scheduleId?: string | null;
  /** Becoming Enrolled with a seat already held for it (an accepted waitlist offer, a seat staff added): no seat is taken. */
  heldSeat?: boolean;
  /** Becoming Enrolled: the fee plan staff chose (else the batch's or course's default) and the student's state for invoices. */
  fees?: { feePlanId?: string | null; billingState?: string };
  /** A batch of another course is meant (see courseChangeQuestion). */
  confirmCourseChange?: boolean;
};

/** An enquiry as a change left it, and who was offered the seat it gave up (an enrolment left, an offer withdrawn). */
export type ChangedEnquiry = Enquiry & { seatOffers: SeatOffer[] };

/** "Enrol Ravi Kumar (SOC Analyst Training Program) in a Cloud Security Practitioner batch?" */
export function courseChangeQuestion(name: string, course: string, batchCourse: string, enrolling: boolean): string {
  return `${enrolling ? "Enrol" : "Put"} ${name} (${course}) in a ${batchCourse} batch?`;
}

/** "Their seat was offered to Keerthi Rao (waitlist 1)." for a screen's confirmation; null when nobody was offered one. */
export function seatOffersMessage(offers: readonly SeatOffer[]): string | null {
  return offers.length ? `Their seat was offered to ${offers.map(seatOfferText).join(", ")}.` : null;
}

/** Someone working the desk, as opposed to the waitlist acting by itself: their changes count as touching the lead. */
const isPerson = (actor: StaffActor) => actor.user.id !== WAITLIST_ACTOR.user.id;

/** An enquiry under the write rule (write-guard.server.ts): "This enquiry was changed by … at … IST. Here is what it holds now." */
const enquiryRecord = (id: string): GuardedRecord<Enquiry> => ({ thing: "enquiry", scope: "enquiry", read: () => getEnquiry(id), notFoundName: "Enquiry" });

/**
 * Applies a set of changes to one enquiry inside the caller's transaction: the seat rules (an Enrolled enquiry
 * holds one seat of its batch; leaving Enrolled or changing the batch gives it back; Enrolled needs a batch when
 * its course has upcoming ones), a follow-up on an unassigned lead makes it the setter's, the first answer, one
 * timeline line per change, one audit row and, when the status changed, the `enquiry.status_changed` webhooks.
 * The row is written only if it still has the version `before` was read at, so a change read meanwhile by someone
 * else is refused (editConflict) rather than written over. Refuses (and so rolls everything back) when the batch is full.
 */
async function applyChange(actor: StaffActor, before: Enquiry, requested: EnquiryChange): Promise<ChangedEnquiry> {
  const change = { ...requested };
  if (change.followUpAt && !before.assigneeId && change.assigneeId === undefined && isPerson(actor)) change.assigneeId = actor.user.id;
  const status = change.status ?? before.status;
  const scheduleId = change.scheduleId === undefined ? before.scheduleId : change.scheduleId;
  if (scheduleId && scheduleId !== before.scheduleId && isPerson(actor) && !change.confirmCourseChange) {
    // Asked before any seat is taken or any e-mail queued (the waitlist enrols in the batch its list is for).
    const batch = await getSchedule(scheduleId);
    const course = change.fields?.preferredCourse ?? before.preferredCourse;
    if (batch && batch.courseName !== course) {
      const question = courseChangeQuestion(change.fields?.fullName ?? before.fullName, course, batch.courseName, status === "enrolled");
      throw new ServiceError(
        "invalid",
        `${question} Send confirmCourseChange to choose another course's batch.`,
        { confirmCourseChange: question },
        undefined,
        COURSE_CHANGE_CODE,
      );
    }
  }
  if (status === "enrolled" && before.status !== "enrolled" && !scheduleId && (await countUpcomingOfCourse(before.preferredCourse)) > 0) {
    throw invalid({ scheduleId: ENROL_NEEDS_BATCH }, ENROL_NEEDS_BATCH);
  }
  const wasHolding = before.status === "enrolled" && before.scheduleId !== null;
  const holds = status === "enrolled" && scheduleId !== null;
  if (wasHolding && (!holds || scheduleId !== before.scheduleId)) await returnSeat(before.scheduleId!, actor.user.name);
  if (
    holds &&
    (!wasHolding || scheduleId !== before.scheduleId) &&
    !change.heldSeat &&
    !(await claimOfferedSeat(before.id, scheduleId!)) &&
    !(await takeSeat(scheduleId!, actor.user.name))
  ) {
    throw conflict(`${BATCH_FULL}`, { status: BATCH_FULL }, "batch_full");
  }

  const now = new Date().toISOString();
  const row: EnquiryChanges = { ...change.fields };
  if (change.status !== undefined && change.status !== before.status) {
    row.status = change.status;
    if (!before.firstStatusChangeAt) row.firstStatusChangeAt = now;
  }
  if (change.assigneeId !== undefined && change.assigneeId !== before.assigneeId) row.assigneeId = change.assigneeId;
  if (change.followUpAt !== undefined && change.followUpAt !== before.followUpAt) row.followUpAt = change.followUpAt;
  if (change.scheduleId !== undefined && change.scheduleId !== before.scheduleId) row.scheduleId = change.scheduleId;
  if (isPerson(actor)) row.touchedAt = now;
  const saved = await updateEnquiryRow(before.id, row, { version: before.version, updatedBy: actor.user.name });
  if (!saved) return changedMeanwhile(enquiryRecord(before.id));

  // A /me link opens the address it was mailed to; one on this record must not follow the new address.
  if (saved.email.toLowerCase() !== before.email.toLowerCase()) await deletePrivacyLinks("enquiry", [before.id], "me");

  const who = { userId: actor.user.id, userName: actor.user.name, text: null };
  const line = (kind: TimelineEntry["kind"], fromValue: string | null, toValue: string | null) =>
    insertTimelineEntry("enquiry", before.id, { ...who, kind, fromValue, toValue });
  if (row.status) {
    await line("status", before.status, saved.status);
    await record(actor, "status", "enquiry", before.id, `${saved.fullName}: ${ENQUIRY_STATUS_LABELS[before.status]} → ${ENQUIRY_STATUS_LABELS[saved.status]}`);
    await queueEnquiryStatusChange(actor, before, saved);
    // Only a real change to Enrolled (the screen, the bulk action, the API, a waitlist acceptance): once per enrolment.
    if (saved.status === "enrolled") await queueEnrolmentConfirmation(saved, saved.scheduleId ? await getSchedule(saved.scheduleId) : null);
    // The student's fee account and dues open with the enrolment and end with it (app/services/fee-ledger.server.ts).
    if (saved.status === "enrolled") await openFeeAccount(actor, saved, change.fees);
    else if (before.status === "enrolled") await endFeeAccount(actor, saved);
  } else if (row.scheduleId !== undefined && saved.status === "enrolled") {
    await openFeeAccount(actor, saved, change.fees);
  }
  const owner = row.assigneeId !== undefined ? { from: await staffName(before.assigneeId), to: await staffName(saved.assigneeId) } : null;
  const batch = row.scheduleId !== undefined ? { from: await batchName(before.scheduleId), to: await batchName(saved.scheduleId) } : null;
  if (owner) await line("assignee", owner.from, owner.to);
  if (row.followUpAt !== undefined) await line("follow_up", before.followUpAt, saved.followUpAt);
  if (batch) await line("batch", batch.from, batch.to);
  const given = await waitlistAfterChange(before, saved);
  // Staff are told who got the seat (the screen's message); the audit log keeps it with the batch.
  for (const { scheduleId: freed, offers } of given) {
    if (offers.length)
      await record(
        actor,
        "update",
        "schedule",
        freed,
        `${await batchName(freed)}: the seat ${saved.fullName} held was offered to ${offers.map(seatOfferText).join(", ")}`,
      );
  }
  // The audit log reads as the screens do: labels, names and Hyderabad times, never column names or ids.
  const other = [
    ...describeFieldChanges(before, saved),
    ...(owner ? [`Owner: ${owner.from ?? "Unassigned"} → ${owner.to ?? "Unassigned"}`] : []),
    ...(row.followUpAt !== undefined ? [`Follow-up: ${when(before.followUpAt)} → ${when(saved.followUpAt)}`] : []),
    ...(batch ? [`Batch: ${batch.from ?? "None"} → ${batch.to ?? "None"}`] : []),
  ];
  if (other.length) await record(actor, "update", "enquiry", before.id, `${saved.fullName}: ${other.join("; ")}`);
  return { ...saved, seatOffers: given.flatMap((g) => g.offers) };
}

const when = (iso: string | null) => (iso ? `${formatDateTime(iso)} IST` : "none");

/** The visitor's own fields corrected by staff, by their labels on the screen. */
function describeFieldChanges(before: Enquiry, after: Enquiry): string[] {
  const out: string[] = [];
  for (const field of FIELDS) {
    const a = before[field];
    const b = after[field];
    if (a === b) continue;
    const shown = (v: unknown) =>
      typeof v === "boolean" ? (v ? "Yes" : "No") : String(v).length > 40 ? `${String(v).slice(0, 37)}...` : String(v) || "(empty)";
    out.push(field === "message" ? "Message edited" : `${ENQUIRY_FIELD_LABELS[field]}: ${shown(a)} → ${shown(b)}`);
  }
  return out;
}

async function staffName(id: string | null): Promise<string | null> {
  if (!id) return null;
  return (await getUser(id))?.name ?? "(deleted user)";
}

async function batchName(id: string | null): Promise<string | null> {
  if (!id) return null;
  const s = await getSchedule(id);
  return s ? batchTitle(s) : "(deleted batch)";
}

/** The enquiry as it is now, inside a transaction, or notFound. */
async function current(id: string): Promise<Enquiry> {
  const enquiry = await getEnquiry(id);
  if (!enquiry) throw notFound("Enquiry");
  return enquiry;
}

/**
 * One staff write to one enquiry, in one transaction: a repeat of the same form post (its key already used) changes
 * nothing and answers the enquiry as it is; a form drawn from an older version is refused with what it holds now.
 */
async function guarded(id: string, guard: WriteGuard, work: (before: Enquiry) => Promise<ChangedEnquiry>): Promise<ChangedEnquiry> {
  return guardedWrite(enquiryRecord(id), guard, work, (before) => ({ ...before, seatOffers: [] }));
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
export async function setEnquiryStatus(actor: StaffActor, id: string, input: unknown): Promise<ChangedEnquiry> {
  const { status } = parseInput(enquiryStatusSchema, input);
  const fees = readEnrolmentFeeChoice(input);
  return guarded(id, parseInput(writeGuardSchema, input), (before) => applyChange(actor, before, { status, fees }));
}

export async function assignEnquiry(actor: StaffActor, id: string, input: unknown): Promise<Enquiry> {
  const { assigneeId } = parseInput(assignSchema, input);
  await checkAssignee(assigneeId);
  return guarded(id, parseInput(writeGuardSchema, input), (before) => applyChange(actor, before, { assigneeId: assigneeId ?? null }));
}

export async function setFollowUp(actor: StaffActor, id: string, input: unknown): Promise<Enquiry> {
  const followUpAt = followUpInstant(parseInput(followUpSchema, input).followUpAt) ?? null;
  return guarded(id, parseInput(writeGuardSchema, input), (before) => applyChange(actor, before, { followUpAt }));
}

export async function setEnquiryBatch(actor: StaffActor, id: string, input: unknown): Promise<ChangedEnquiry> {
  const { scheduleId, confirmCourseChange } = parseInput(batchSchema, input);
  await checkBatch(scheduleId);
  return guarded(id, parseInput(writeGuardSchema, input), (before) => applyChange(actor, before, { scheduleId: scheduleId ?? null, confirmCourseChange }));
}

/**
 * Logging a call in one save (the details' Log activity form): the outcome (a status, or unchanged), a note, the
 * next follow-up (kept, cleared, a preset or typed), the owner and the batch, applied together in one transaction
 * with one timeline line per change. Something must change or a note be written.
 */
export async function logActivity(actor: StaffActor, id: string, input: unknown): Promise<ChangedEnquiry & { seatAdded: boolean }> {
  const values = parseInput(activitySchema, input);
  const guard = parseInput(writeGuardSchema, input);
  const fees = readEnrolmentFeeChoice(input);
  const preset = values.followUp;
  let followUpAt: string | null | undefined;
  // A time typed without ticking "Pick a date and time" (a browser without JavaScript cannot tick it for you) counts as picked.
  if (preset === "none") followUpAt = null;
  else if (preset === "custom" || (preset === "keep" && values.followUpAt)) {
    if (!values.followUpAt) throw invalid({ followUpAt: FOLLOW_UP_MESSAGE });
    followUpAt = followUpInstant(values.followUpAt);
  } else if (preset !== "keep") followUpAt = followUpInstant(preset);
  await checkAssignee(values.assigneeId);
  await checkBatch(values.scheduleId);
  let seatAdded = false;
  const saved = await guarded(id, guard, async (before) => {
    const change: EnquiryChange = {
      status: values.status,
      followUpAt,
      assigneeId: values.assigneeId === undefined ? undefined : (values.assigneeId ?? null),
      scheduleId: values.scheduleId === undefined ? undefined : (values.scheduleId ?? null),
      fees,
      confirmCourseChange: values.confirmCourseChange,
    };
    let saved: ChangedEnquiry;
    if (values.addSeat) {
      // "Add a seat for <name>" beside a full batch's refusal: the same save, enrolled with a seat added for them.
      const batchId = change.scheduleId === undefined ? before.scheduleId : change.scheduleId;
      if (!batchId) throw invalid({ scheduleId: BATCH_UNKNOWN });
      const enrolled = await enrolAddingSeat(actor, before, batchId, change);
      seatAdded = enrolled.added;
      saved = enrolled.enquiry;
    } else {
      const changes =
        (change.status !== undefined && change.status !== before.status) ||
        (change.followUpAt !== undefined && change.followUpAt !== before.followUpAt) ||
        (change.assigneeId !== undefined && change.assigneeId !== before.assigneeId) ||
        (change.scheduleId !== undefined && change.scheduleId !== before.scheduleId);
      if (!changes && !values.text) throw invalid({ text: NOTHING_TO_LOG }, NOTHING_TO_LOG);
      saved = changes ? await applyChange(actor, before, change) : { ...before, seatOffers: [] };
    }
    if (values.text) await noteOnEnquiry(actor, before.id, values.text);
    return saved;
  });
  return { ...saved, seatAdded };
}

async function noteOnEnquiry(actor: StaffActor, id: string, text: string): Promise<void> {
  const entry = await insertNote(actor, "enquiry", id, text);
  if (isPerson(actor)) await touchEnquiry(id, entry.at);
}

/** A waitlist offer just accepted (inside its transaction): Enrolled in the offer's batch, with the seat the offer held. */
export async function enrolWithHeldSeat(actor: StaffActor, id: string, scheduleId: string): Promise<ChangedEnquiry> {
  return applyChange(actor, await current(id), { status: "enrolled", scheduleId, heldSeat: true });
}

/**
 * "Add a seat for <name>": staff enrol the student they chose into a batch even when it is full. When a seat is free
 * (or the student holds the waitlist's offer for it) it is an ordinary enrolment; when it is full, the batch gets
 * one seat more, taken at once by this student, so nobody on its waitlist is offered it (raising the seats would).
 */
export async function enrolWithAddedSeat(actor: StaffActor, id: string, input: unknown): Promise<{ enquiry: ChangedEnquiry; added: boolean }> {
  const { scheduleId, confirmCourseChange } = parseInput(batchSchema, input);
  if (!scheduleId) throw invalid({ scheduleId: BATCH_UNKNOWN });
  await checkBatch(scheduleId);
  let added = false;
  const enquiry = await guarded(id, parseInput(writeGuardSchema, input), async (before) => {
    const enrolled = await enrolAddingSeat(actor, before, scheduleId, { confirmCourseChange });
    added = enrolled.added;
    return enrolled.enquiry;
  });
  return { enquiry, added };
}

/**
 * Inside the caller's transaction: `change` with the enquiry Enrolled in `scheduleId`, one seat added to the batch
 * for them when it is full (an ordinary enrolment when a seat is free or their waitlist offer holds one).
 */
async function enrolAddingSeat(
  actor: StaffActor,
  before: Enquiry,
  scheduleId: string,
  change: EnquiryChange,
): Promise<{ enquiry: ChangedEnquiry; added: boolean }> {
  const enrol: EnquiryChange = { ...change, status: "enrolled", scheduleId };
  const batch = await getSchedule(scheduleId);
  if (!batch) throw invalid({ scheduleId: BATCH_UNKNOWN });
  const holdsOffer = (await openOfferOfEnquiry(before.id))?.scheduleId === scheduleId;
  if (batch.seats > 0 || holdsOffer || (before.status === "enrolled" && before.scheduleId === scheduleId)) {
    return { enquiry: await applyChange(actor, before, enrol), added: false };
  }
  if (!(await addTakenSeat(scheduleId, actor.user.name))) throw invalid({ scheduleId: BATCH_UNKNOWN });
  await record(
    actor,
    "update",
    "schedule",
    scheduleId,
    `${batchTitle(batch)}: a seat added for ${before.fullName} (total ${batch.totalSeats} → ${batch.totalSeats + 1})`,
  );
  // A batch of another course is refused here (applyChange) before anything commits: the added seat goes with it.
  return { enquiry: await applyChange(actor, before, { ...enrol, heldSeat: true }), added: true };
}

/** PUT /api/enquiries/:id: correct the fields and set status, owner, follow-up and batch in one go (all or nothing). */
export async function updateEnquiry(actor: StaffActor, id: string, input: unknown): Promise<ChangedEnquiry> {
  const values = parseInput(enquiryPipelineUpdateSchema, input);
  const guard = parseInput(writeGuardSchema, input);
  // Every field the body itself refuses is named before anything is looked up (the fee choice too).
  const fees = readEnrolmentFeeChoice(input);
  await checkAssignee(values.assigneeId);
  await checkBatch(values.scheduleId);
  const followUpAt = followUpInstant(values.followUpAt);
  const { fullName, email, phone, preferredCourse, preferredMode, message, whatsappNotifications } = values;
  return guarded(id, guard, (before) =>
    applyChange(actor, before, {
      fields: { fullName, email, phone, preferredCourse, preferredMode, message: message ?? "", whatsappNotifications },
      status: values.status,
      assigneeId: values.assigneeId,
      followUpAt,
      scheduleId: values.scheduleId,
      fees,
      confirmCourseChange: values.confirmCourseChange,
    }),
  );
}

/**
 * Several enquiries at once, all or nothing: one full batch (or one row changed since the list was drawn, when the
 * ticks carry versions) refuses the whole change, naming the enquiry.
 */
export async function bulkUpdateEnquiries(actor: StaffActor, input: unknown): Promise<number> {
  const { ids: ticks, status, assigneeId: rawAssignee } = parseInput(bulkSchema, input);
  const assigneeId = rawAssignee === undefined ? undefined : rawAssignee === "none" ? null : rawAssignee;
  await checkAssignee(assigneeId);
  const { formKey } = parseInput(writeGuardSchema, input);
  const versions = new Map<string, number | undefined>();
  for (const tick of ticks) {
    const [id, v] = tick.split("@");
    versions.set(id, v && /^\d{1,9}$/.test(v) ? Number(v) : undefined);
  }
  return inTransaction(async () => {
    if (formKey && !(await claimFormKey(`bulk:${formKey}`))) return versions.size;
    const ticked: { before: Awaited<ReturnType<typeof current>>; version: number | undefined }[] = [];
    for (const [id, version] of versions) ticked.push({ before: await current(id), version });
    // Oldest first, whatever order they were ticked in: every writer of several enquiries takes the dashboard's
    // running totals (migration 0170, one row per day) in the order of their days, so two bulk changes never wait for
    // each other's rows in opposite orders (a deadlock).
    ticked.sort((a, b) => byArrival(a.before, b.before));
    for (const { before, version } of ticked) {
      try {
        if (version !== undefined && version !== before.version) throw editConflict("enquiry", before);
        await applyChange(actor, before, { status, assigneeId });
      } catch (error) {
        if (error instanceof ServiceError && (error.code === "batch_full" || error.code === EDIT_CONFLICT_CODE || error.kind === "invalid"))
          throw new ServiceError(error.kind, `${before.fullName}: ${error.message}`, { status: `${before.fullName}: ${error.message}` }, undefined, error.code);
        throw error;
      }
    }
    return versions.size;
  });
}

/** A note on the enquiry's timeline; a repeat of the same form post adds nothing and answers the newest note. */
export async function addEnquiryNote(actor: StaffActor, id: string, input: unknown): Promise<TimelineEntry> {
  const { text } = parseInput(noteSchema, input);
  const { formKey } = parseInput(writeGuardSchema, input);
  return inTransaction(async () => {
    await current(id);
    if (formKey && !(await claimFormKey(`enquiry:${formKey}`))) return (await listTimeline("enquiry", id)).find((l) => l.kind === "note")!;
    const entry = await insertNote(actor, "enquiry", id, text);
    if (isPerson(actor)) await touchEnquiry(id, entry.at);
    return entry;
  });
}

export async function enquiryTimeline(id: string): Promise<TimelineEntry[]> {
  if (!(await getEnquiry(id))) throw notFound("Enquiry");
  return timelineWithConsents("enquiry", id, await listTimeline("enquiry", id));
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
    if (enquiry.status === "enrolled" && enquiry.scheduleId) await returnSeat(enquiry.scheduleId, actor.user.name);
    // Invoices and payments stay (tax records hold their own copy of the name); unbilled dues go with the enrolment.
    if (enquiry.status === "enrolled") await endFeeAccount(actor, enquiry);
    await waitlistEnquiryDeleted(enquiry);
    await deleteTimeline("enquiry", id);
    await forgetPrivacyOf("enquiry", id);
    await unlinkDuplicates(id);
    await forgetOutboxMessagesAbout("enquiry", id);
    await record(
      actor,
      "delete",
      "enquiry",
      id,
      `${enquiry.fullName} (${enquiry.preferredCourse})${enquiry.filePaths.length ? `, ${enquiry.filePaths.length} file(s)` : ""}`,
    );
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
