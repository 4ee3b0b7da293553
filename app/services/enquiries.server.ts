import { inTransaction } from "~db/client.server";
import { siteDateTimeToUtc } from "~/util/dates";
import { deleteAttachments } from "~/infra/uploads.server";
import {
  clearEnquiryReferences,
  deleteEnquiryRow,
  getEnquiry,
  unlinkDuplicates,
  updateEnquiryRow,
  type Enquiry,
  type EnquiryChanges,
} from "~/models/enquiry.server";
import { forgetOutboxMessagesAbout } from "~/models/outbox.server";
import { getSchedule, returnSeat, takeSeat, type Schedule } from "~/models/schedule.server";
import { deleteTimeline, insertTimelineEntry, listTimeline, type TimelineEntry } from "~/models/timeline.server";
import { getUser } from "~/models/user.server";
import { enquiryStatusSchema } from "~/schemas/enquiry";
import { assignSchema, batchSchema, bulkSchema, enquiryPipelineUpdateSchema, FOLLOW_UP_MESSAGE, followUpSchema } from "~/schemas/enquiry-pipeline";
import type { EnquiryStatus } from "~/schemas/values";
import type { StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { queueEnquiryStatusChange, queueEnrolmentConfirmation } from "./notifications.server";
import { addNote } from "./timeline.server";
import { claimOfferedSeat, waitlistAfterChange, waitlistBatchesDeleted, waitlistEnquiryDeleted } from "./waitlist.server";
import { conflict, invalid, notFound, ServiceError } from "./service-error";
import { parseInput } from "./validation";
import { forgetPrivacyOf, timelineWithConsents } from "./privacy-records.server";

/**
 * Following an enquiry up (the pipeline): an owner, a next follow-up, a batch whose seats an enrolment takes, the
 * status, notes, and one timeline of every change; bulk changes and deletion. A visitor sending one is
 * enquiry-submissions.server.ts; lists, details and exports are enquiry-lists.server.ts.
 */

export const BATCH_FULL = "This batch is full: no seats are left. Choose another batch, or add seats to it first.";
export const ASSIGNEE_UNKNOWN = "Choose a staff member";
export const BATCH_UNKNOWN = "Choose a batch";
const FIELDS = ["fullName", "email", "phone", "preferredCourse", "preferredMode", "message", "whatsappNotifications"] as const;

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
  if (
    holds &&
    (!wasHolding || scheduleId !== before.scheduleId) &&
    !change.heldSeat &&
    !(await claimOfferedSeat(before.id, scheduleId!)) &&
    !(await takeSeat(scheduleId!))
  ) {
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
  const line = (kind: TimelineEntry["kind"], fromValue: string | null, toValue: string | null) =>
    insertTimelineEntry("enquiry", before.id, { ...who, kind, fromValue, toValue });
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
        if (error instanceof ServiceError && error.code === "batch_full")
          throw conflict(`${before.fullName}: ${BATCH_FULL}`, { status: `${before.fullName}: ${BATCH_FULL}` }, "batch_full");
        throw error;
      }
    }
    return new Set(ids).size;
  });
}

export const addEnquiryNote = (actor: StaffActor, id: string, input: unknown) =>
  addNote(actor, "enquiry", id, input, async (i) => (await getEnquiry(i)) !== null);

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
    if (enquiry.status === "enrolled" && enquiry.scheduleId) await returnSeat(enquiry.scheduleId);
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
