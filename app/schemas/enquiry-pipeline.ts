import * as z from "zod/mini";
import { blankToUndefined, choice, flag, optionalText, preprocess, requiredText } from "./fields";
import { ENQUIRY_STATUSES, oneOf } from "./values";
import { enquiryUpdateSchema } from "./enquiry";

/**
 * Following enquiries up: owner, next follow-up, batch, notes, bulk changes, and the source an integration may
 * pass on. Staff-only (screens and API), so kept apart from the public form's schema that ships to visitors.
 */

/** "" or null clears; anything else is an id (checked against the database by the service). */
const optionalId = (label: string) =>
  preprocess(
    (v) => (v === "" ? null : v),
    z.nullable(z.optional(z.string({ error: `${label} must be an id` }).check(z.maxLength(36, `${label} must be an id`)))),
  );

export const FOLLOW_UP_MESSAGE = "Enter the follow-up date and time";

/** A datetime-local value (Hyderabad time) or an ISO 8601 instant with its offset; "" or null clears. The service reads it. */
const followUp = preprocess(
  (v) => (v === "" ? null : v),
  z.nullable(z.optional(z.string({ error: FOLLOW_UP_MESSAGE }).check(z.trim(), z.maxLength(40, FOLLOW_UP_MESSAGE)))),
);

/**
 * A batch of a course other than the enquiry's is a slip more often than a choice (the student enrols in, and is
 * e-mailed about, the wrong course): it is refused unless this says it is meant. The screens ask first.
 */
export const confirmCourseChange = flag(false).check(
  z.describe("true: scheduleId may be a batch of a course other than the enquiry's preferredCourse (else a 400 naming confirmCourseChange)"),
);

/** The API's error codes for a batch of another course not confirmed, and for a full batch. */
export const COURSE_CHANGE_CODE = "course_change_unconfirmed";
export const BATCH_FULL_CODE = "batch_full";

export const assignSchema = z.object({ assigneeId: optionalId("Assignee") });
export const followUpSchema = z.object({ followUpAt: followUp });
export const batchSchema = z.object({ scheduleId: optionalId("Batch"), confirmCourseChange });
export const noteSchema = z.object({ text: requiredText("Note text is required", 5000, "Note", "multi") });

/** The Log activity form's next follow-up: keep it, clear it, a preset (a datetime-local value the form computed) or typed. */
export const FOLLOW_UP_PRESETS = ["keep", "none", "custom"] as const;
export const NOTHING_TO_LOG = "Write a note or change something to log";

/** One save for a call: the outcome (status; "" keeps it), a note, the next follow-up, the owner and the batch. */
export const activitySchema = z.object({
  status: preprocess(blankToUndefined, z.optional(choice(ENQUIRY_STATUSES, `Status must be one of ${oneOf(ENQUIRY_STATUSES)}`))),
  text: optionalText(5000, "Note", "multi"),
  followUp: z._default(z.string().check(z.maxLength(40)), "keep"),
  followUpAt: followUp,
  assigneeId: z.optional(optionalId("Assignee")),
  scheduleId: z.optional(optionalId("Batch")),
  confirmCourseChange,
  /** The batch is full: add a seat to it for this student ("Add a seat for <name>" beside the refusal). */
  addSeat: flag(false),
});

export const BULK_MAX = 200;
export const BULK_NOTHING_CHOSEN = "Choose one or more enquiries first";
export const BULK_NO_CHANGE = "Choose a status or an assignee to apply";

/** Several enquiries at once: a status, an assignee ("none" unassigns), or both. */
export const bulkSchema = z
  .object({
    // "<id>" or, from the list's ticks, "<id>@<version>": the version the row showed (an older one is refused).
    ids: preprocess(
      (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
      z.array(z.string().check(z.maxLength(48))).check(z.minLength(1, BULK_NOTHING_CHOSEN), z.maxLength(BULK_MAX, `At most ${BULK_MAX} enquiries at once`)),
    ),
    status: preprocess(blankToUndefined, z.optional(choice(ENQUIRY_STATUSES, `Status must be one of ${oneOf(ENQUIRY_STATUSES)}`))),
    assigneeId: preprocess(blankToUndefined, z.optional(z.string().check(z.maxLength(36)))),
  })
  .check(z.refine((v) => v.status !== undefined || v.assigneeId !== undefined, { path: ["status"], message: BULK_NO_CHANGE }));

/** Where a lead came from, as an integration forwarding enquiries may say (the API; the pages read their cookie). */
export const sourceSchema = z.optional(
  z
    .object({
      utmSource: optionalText(100, "utmSource"),
      utmMedium: optionalText(100, "utmMedium"),
      utmCampaign: optionalText(100, "utmCampaign"),
      referrer: optionalText(500, "referrer"),
    })
    .check(z.describe("Where the lead came from, as an integration forwarding it knows; left out: direct")),
);

/** PUT /api/enquiries/:id: the record's fields plus owner, follow-up and batch (each optional; null clears). */
export const enquiryPipelineUpdateSchema = z.extend(enquiryUpdateSchema, {
  assigneeId: z.optional(assignSchema.shape.assigneeId),
  followUpAt: z.optional(followUpSchema.shape.followUpAt),
  scheduleId: z.optional(batchSchema.shape.scheduleId),
  confirmCourseChange,
});
