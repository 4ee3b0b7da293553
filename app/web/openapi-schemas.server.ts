import { z } from "zod";
import {
  AUDIT_ACTIONS,
  AUDIT_ENTITY_TYPES,
  CONSENT_ACTIONS,
  CONSENT_CHANNELS,
  CONSENT_PURPOSES,
  DELIVERY_MODES,
  ENQUIRY_FORMS,
  OUTBOX_EVENTS,
  OUTBOX_KINDS,
  OUTBOX_STATUSES,
  PUBLICATION_STATES,
  TIMELINE_KINDS,
  USER_ROLES,
} from "~/schemas/values";
import { contactFields } from "~/schemas/contact";
import { privacyFields } from "~/schemas/privacy";
import { siteSettingsSchema, siteSettingsUpdateSchema } from "~/schemas/site-settings";
import { contactStatusSchema } from "~/schemas/contact-query";
import { courseSchema, IMAGE_MAX_BYTES, SYLLABUS_MAX_BYTES } from "~/schemas/course";
import { ENQUIRY_RECEIPT_FIELDS, enquiryApiSchema, enquiryStatusSchema, enquiryUpdateSchema } from "~/schemas/enquiry";
import { enquiryPipelineUpdateSchema, sourceSchema } from "~/schemas/enquiry-pipeline";
import { enrolmentFeeSchema } from "~/schemas/fees";
import { DATE_PATTERN } from "~/schemas/fields";
import { reviewSchema } from "~/schemas/review";
import { scheduleSchema } from "~/schemas/schedule";
import type { UploadKind } from "~/schemas/uploads";
import { mediaTypes } from "~/schemas/upload-media-types";
import { changePasswordSchema, userCreateSchema, userUpdateSchema } from "~/schemas/user";

/**
 * The records and request bodies of the OpenAPI document (openapi.server.ts builds the operations from them),
 * made from the same zod schemas that check the requests, so the document cannot drift from what the server takes.
 */

export const text = z.string();
const fee = z.number().int().min(1).nullable();
const stored = { id: text, createdAt: text.meta({ format: "date-time" }), updatedAt: text.meta({ format: "date-time" }) };
// Courses, batches and reviews: always carry their publication (anonymous callers only ever see published ones).
const publication = {
  state: z.enum(PUBLICATION_STATES).meta({ description: "draft, scheduled or published; anonymous callers only ever see published records" }),
  publishAt: text
    .nullable()
    .meta({ format: "date-time", description: "UTC: when a scheduled record goes public (or when it did); null for drafts and records published directly" }),
};

/** Every record staff edit: one more on every change; also the ETag of its GET and of a write's answer. */
const VERSION_DESCRIPTION =
  'One more on every change; also the record\'s ETag ("3"). Send it back (If-Match: "3", or version in the body) to write only over what you read: 409 edit_conflict when someone changed it since.';
/** Courses, batches and reviews: `updatedBy` is for staff callers (an anonymous caller gets no staff names). */
const catalogueVersioned = {
  version: z
    .number()
    .int()
    .min(1)
    .meta({ description: `${VERSION_DESCRIPTION} Publishing a scheduled record makes a new version too.` }),
  updatedBy: text
    .nullable()
    .optional()
    .meta({ description: "Staff callers only: who made the stored version (a staff member's name, System for a scheduled publish, Waitlist), or null" }),
};

// ---------------------------------------------------------------- records

export const Course = z
  .object({
    ...courseSchema.shape,
    ...stored,
    slug: text,
    // Optional on input; stored as "" when left out.
    duration: text,
    syllabus: text.meta({ description: "Markdown" }),
    syllabusFileName: text,
    modes: z.array(z.enum(DELIVERY_MODES)).meta({ description: "Only these modes are kept; other values sent are dropped" }),
    image: text.nullable().meta({ description: "URL of the course image (stored as WebP), or null" }),
    syllabusFile: text.nullable().meta({ description: "URL of the syllabus file, or null" }),
    fee: fee.meta({ description: 'Whole rupees (INR), or null: the site says "Fee on request"' }),
    feeIncludesGst: z.boolean().meta({ description: "Whether GST is included in the fee (and in its batches' own fees)" }),
    ...publication,
    ...catalogueVersioned,
  })
  .meta({ id: "Course" });
export const Schedule = z
  .object({
    ...scheduleSchema.shape,
    ...stored,
    courseName: text.meta({ description: "Copied from the course's title on save" }),
    seats: z.number().int().min(0).meta({
      description:
        "Read only: seats left, counted (totalSeats minus seatsTaken). Never set by a write: enrolments, open waitlist offers and a changed totalSeats move it.",
    }),
    seatsTaken: z.number().int().min(0).meta({
      description:
        "Read only: seats taken, counted: enrolled enquiries holding the batch, open waitlist offers (each holds a seat) and seats taken before enrolments were recorded",
    }),
    ...catalogueVersioned,
    fee: fee.meta({ description: "The batch's own price in whole rupees (e.g. early-bird), or null: the course's fee applies" }),
    feeLabel: text.meta({ description: 'What the batch\'s own price is, e.g. "Early-bird"; "" when none' }),
    courseFee: fee.meta({ description: "Read only: the course's fee in whole rupees, or null (fee on request)" }),
    feeIncludesGst: z.boolean().meta({ description: "Read only: whether GST is included (the course's setting)" }),
    ...publication,
  })
  .meta({ id: "Schedule" });
export const Review = z
  .object({ ...reviewSchema.shape, ...stored, linkedin: text.nullable(), videoThumbnail: text.nullable(), ...publication, ...catalogueVersioned })
  .meta({ id: "Review" });
const instant = (description: string) => text.nullable().meta({ format: "date-time", description });
/** Enquiries and contact queries: one more on every change; also the ETag of GET and of a write's answer. */
const versioned = {
  version: z.number().int().min(1).meta({ description: VERSION_DESCRIPTION }),
  updatedBy: text
    .nullable()
    .meta({ description: "Who made the stored version (a staff member's name, Waitlist, System), or null for the visitor's own submission" }),
};
export const Consent = z
  .object({
    id: text,
    purpose: z
      .enum(CONSENT_PURPOSES)
      .meta({ description: "notice: the privacy notice shown with the form; marketing; guardian: a parent's or guardian's consent for someone under 18" }),
    action: z.enum(CONSENT_ACTIONS),
    channel: z.enum(CONSENT_CHANNELS).meta({ description: "Where: the form it came with, the API, the person's own page (me), the guardian's link, or staff" }),
    noticeVersion: text.meta({ description: "The privacy notice version in force (shown with the form, for a submission)" }),
    at: text.meta({ format: "date-time" }),
  })
  .meta({ id: "Consent", description: "One consent given or withdrawn" });
/** The privacy fields every record carries (the person's answers as stored). */
const privacyRecord = {
  under18: z.boolean().meta({ description: "The sender said they are under 18; staff see the record once a parent or guardian consented" }),
  guardianName: text.nullable().meta({ description: "The parent's or guardian's name (under 18 only), or null" }),
  guardianEmail: text.nullable().meta({ description: "The parent's or guardian's e-mail (under 18 only), or null" }),
  guardianConsentAt: instant("When the parent or guardian consented (under 18 only), or null"),
  marketingConsent: z
    .boolean()
    .meta({ description: "Consent to marketing (newsletters, other courses, WhatsApp promotions) as it stands now; the consents list has its history" }),
  noticeVersion: text.meta({ description: "The privacy notice version shown with the form" }),
};
export const Enquiry = z
  .object({
    ...enquiryUpdateSchema.shape,
    ...stored,
    message: text,
    status: enquiryStatusSchema.shape.status,
    filePaths: z.array(text).meta({ description: "Attachments sent from the /enquiry page; not settable through the API" }),
    assigneeId: text.nullable().meta({ description: "The staff user following it up, or null" }),
    followUpAt: instant("The next follow-up (UTC), or null"),
    scheduleId: text.nullable().meta({ description: "The batch (schedule) it is for, or null; Enrolled holds one of its seats" }),
    source: z
      .object({
        utmSource: text.nullable(),
        utmMedium: text.nullable(),
        utmCampaign: text.nullable(),
        referrer: text.nullable().meta({ description: "The external page the visitor came from" }),
        form: z.enum([...ENQUIRY_FORMS, ""]).meta({ description: 'Which form sent it ("" for enquiries from before this was kept)' }),
      })
      .meta({ description: "Where the lead came from: the visitor's first UTM parameters or external referrer, or what an integration passed on" }),
    sourceLabel: text.meta({ description: "One word for lists and charts: the UTM source, else the referring site, else direct" }),
    firstStatusChangeAt: instant("When its status first changed from New (the 24-hour promise), or null"),
    ...versioned,
    touchedAt: instant("The last time staff did anything to it (a note, a status, a follow-up, an owner), or null"),
    escalatedAt: instant("When it was escalated to the admins for having had no reply for ESCALATION_HOURS, or null"),
    duplicateOf: z.array(text).meta({ description: "Enquiries with the same phone digits or e-mail within 90 days (possible duplicates); both are kept" }),
    ...privacyRecord,
    consents: z.array(Consent).meta({ description: "Every consent given or withdrawn, oldest first: the notice shown with the form, marketing, a guardian's" }),
  })
  .meta({ id: "Enquiry" });
/** What an anonymous POST /api/enquiries gets back (ENQUIRY_RECEIPT_FIELDS): no pipeline fields, no duplicate links. */
export const EnquiryReceipt = z
  .object(
    Object.fromEntries(ENQUIRY_RECEIPT_FIELDS.map((key) => [key, Enquiry.shape[key]])) as Pick<typeof Enquiry.shape, (typeof ENQUIRY_RECEIPT_FIELDS)[number]>,
  )
  .strict()
  .meta({ id: "EnquiryReceipt", description: "What an anonymous caller sent, as stored, with its id" });
export const TimelineEntry = z
  .object({
    id: text,
    at: text.meta({ format: "date-time" }),
    userId: text.nullable().meta({ description: "Who did it; null for the visitor's own submission or a deleted user" }),
    userName: text.meta({ description: 'The name at the time ("" for the visitor\'s submission)' }),
    kind: z.enum(TIMELINE_KINDS),
    fromValue: text.nullable(),
    toValue: text.nullable(),
    text: text.nullable().meta({ description: "A note's text, or a description of the change" }),
  })
  .meta({ id: "TimelineEntry" });
export const ContactQuery = z
  .object({
    ...contactFields,
    ...stored,
    phone: text.nullable(),
    subject: text.nullable(),
    status: contactStatusSchema.shape.status,
    ...versioned,
    ...privacyRecord,
    consents: z.array(Consent).optional().meta({ description: "Reading one message: every consent given or withdrawn, oldest first" }),
  })
  .meta({ id: "ContactQuery" });
export const User = z
  .object({
    ...stored,
    name: userCreateSchema.shape.name,
    email: userCreateSchema.shape.email,
    role: z.enum(USER_ROLES),
    dailyDigest: z.boolean().meta({ description: "Gets the daily digest e-mail (on by default); each user switches it at /admin/users/me/digest" }),
    takesEnquiries: z
      .boolean()
      .meta({ description: "Given new enquiries by the round-robin on arrival (on by default); admins switch it at /admin/users/:id/edit" }),
    version: z
      .number()
      .int()
      .min(1)
      .meta({ description: `${VERSION_DESCRIPTION} A password change makes no new version.` }),
    updatedBy: text.nullable().meta({ description: "The admin who made the stored version, or null (never edited)" }),
  })
  .meta({ id: "User" });
export const AuditEntry = z
  .object({
    id: text,
    at: text.meta({ format: "date-time", description: "When it happened (UTC)" }),
    userId: text.nullable().meta({ description: "Who did it; null when no account is known (e.g. a failed sign-in for an unknown e-mail)" }),
    userName: text.meta({ description: "The name at the time, kept after a rename or deletion" }),
    ip: text,
    requestId: text.meta({ description: "Matches the X-Request-Id header and the server's log" }),
    action: z.enum(AUDIT_ACTIONS),
    entityType: z.enum(AUDIT_ENTITY_TYPES),
    entityId: text.nullable(),
    summary: text,
  })
  .meta({ id: "AuditEntry" });
export const OutboxMessage = z
  .object({
    id: text.meta({ description: "Also the e-mail's Message-ID (<id@domain>) and the webhook's webhook-id (msg_<id>), the same on every retry" }),
    kind: z.enum(OUTBOX_KINDS),
    event: z.enum(OUTBOX_EVENTS),
    recipient: text.meta({ description: "E-mail addresses (comma-separated), or the webhook's URL" }),
    subject: text.meta({ description: "The e-mail's subject, or the webhook's event" }),
    entityType: text.nullable().meta({ description: "enquiry or contact_query: what the message is about" }),
    entityId: text.nullable(),
    status: z.enum(OUTBOX_STATUSES).meta({ description: "waiting: an e-mail made while SMTP_URL was unset; it goes out once the app runs with it" }),
    attempts: z.number().int(),
    lastError: text.nullable(),
    nextAttemptAt: text.meta({ format: "date-time" }),
    lastAttemptAt: text.nullable().meta({ format: "date-time" }),
    sentAt: text.nullable().meta({ format: "date-time" }),
    createdAt: text.meta({ format: "date-time" }),
    updatedAt: text.meta({ format: "date-time" }),
  })
  .meta({ id: "OutboxMessage" });

export const ApiError = z
  .object({
    error: z.object({
      code: text.meta({ example: "invalid_input" }),
      message: text,
      fields: z.record(z.string(), z.string()).optional().meta({ description: "The rule's message per invalid field" }),
      current: z.record(z.string(), z.unknown()).optional().meta({
        description:
          "409 edit_conflict on a course, schedule, review, user or the settings: the record as stored now, as its GET answers it (its version is also the answer's ETag)",
      }),
    }),
  })
  .meta({ id: "Error" });

// ---------------------------------------------------------------- request bodies

export const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const types = (kind: UploadKind) => [...new Set(Object.values(mediaTypes(kind)))];

/** A staff write may say which version it was drawn from (or send If-Match). */
const versionInput = {
  version: z.number().int().min(1).max(999_999_999).optional().meta({
    description:
      'The version you read (the record\'s version, or its ETag). Left out: the write applies to what is stored. Older than the stored one: 409 edit_conflict, nothing written. The If-Match header ("3") does the same.',
  }),
};

export const CourseJson = z
  .object({
    ...courseSchema.shape,
    image: text
      .nullable()
      .optional()
      .meta({ description: 'Absent or the current URL keeps the image; "" or null removes it; any other value is a 400. New files go in a multipart body.' }),
    syllabusFile: text
      .nullable()
      .optional()
      .meta({ description: 'Absent or the current URL keeps the file; "" or null removes it; any other value is a 400.' }),
  })
  .meta({ id: "CourseInput" });
const fileField = (what: string, kind: UploadKind, max: number) =>
  text.optional().meta({
    contentMediaType: "application/octet-stream",
    description: `A new ${what} file: ${types(kind).join(", ")} (judged by its content: 415 otherwise), at most ${mb(max)} (413 beyond). A text value "" removes the ${what}; the current URL keeps it; leaving the field out keeps it.`,
  });
export const CourseMultipart = z
  .object({
    ...courseSchema.shape,
    image: fileField("image", "image", IMAGE_MAX_BYTES),
    syllabusFile: fileField("syllabus", "syllabus", SYLLABUS_MAX_BYTES),
  })
  .meta({
    description:
      "Lists are repeated parts (highlights, highlights …) or indexed entries (highlights[0], highlights[1] …). The whole body may not exceed the two files plus 1 MB.",
  });
/** Replacing a course: the same bodies with the version they were drawn from. */
export const CourseUpdateJson = z.object({ ...CourseJson.shape, ...versionInput }).meta({ id: "CourseUpdate" });
export const CourseUpdateMultipart = z.object({ ...CourseMultipart.shape, ...versionInput }).meta({ description: CourseMultipart.meta()?.description });
export const courseMultipartEncoding = { image: { contentType: types("image").join(", ") }, syllabusFile: { contentType: types("syllabus").join(", ") } };

export const EnquiryInput = z
  .object({
    ...enquiryApiSchema.shape,
    ...privacyFields,
    source: sourceSchema,
    batchDate: z.string().regex(DATE_PATTERN).optional().meta({
      format: "date",
      description:
        "Start day (YYYY-MM-DD, a real day) of one of the preferred course's batches: the enquiry is for that batch (of several starting that day, the one in preferredMode, else one with a seat left). A day no batch of the course starts on is ignored; anything that is not a day is a 400. When that batch is full (no seat left), the enquiry joins its waitlist, in order of joining: when a seat frees, the first one waiting is e-mailed a link that holds the seat for WAITLIST_OFFER_HOURS (48 by default) and enrols them when they accept; staff see the list on the batch's edit screen and the enquiry's timeline shows each step (kind waitlist).",
    }),
  })
  .meta({ id: "EnquiryInput" });

const SCHEDULE_CHECKS =
  "Also checked: both dates are real days, endDate is not before startDate, course is the id of an existing course, and totalSeats is not below the seats taken (400 naming the field otherwise). A new batch has every seat left; a raised totalSeats offers the new seats to the waitlist in order.";
export const ScheduleInput = z.object(scheduleSchema.shape).meta({ id: "ScheduleInput", description: SCHEDULE_CHECKS });
export const ScheduleUpdate = z.object({ ...scheduleSchema.shape, ...versionInput }).meta({ id: "ScheduleUpdate", description: SCHEDULE_CHECKS });
export const ReviewUpdate = z.object({ ...reviewSchema.shape, ...versionInput }).meta({ id: "ReviewUpdate" });

export const EnquiryUpdate = z.object({ ...enquiryPipelineUpdateSchema.shape, ...enrolmentFeeSchema.shape, ...versionInput }).meta({ id: "EnquiryUpdate" });
export const EnquiryStatusUpdate = z.object({ ...enquiryStatusSchema.shape, ...enrolmentFeeSchema.shape, ...versionInput });
/** A fee plan's replacement, with the version read (If-Match does the same). */
export const feePlanVersion = versionInput;
export const ContactStatusUpdate = z.object({ ...contactStatusSchema.shape, ...versionInput });

export const UserUpdate = z.object({ ...userUpdateSchema.shape, ...versionInput }).meta({
  id: "UserUpdate",
  description:
    "An admin editing a user: leaving password out keeps it; nobody changes their own role; setting one's own password here also needs currentPassword. Drawn from an older version (If-Match or version): 409 edit_conflict.",
});
const absent = z.never().optional().meta({ description: "Must be left out: with name or email the body is an edit" });
export const PasswordChange = z
  .object({
    name: absent,
    email: absent,
    currentPassword: changePasswordSchema.shape.currentPassword,
    password: changePasswordSchema.shape.newPassword,
    confirmPassword: z.optional(changePasswordSchema.shape.confirmPassword).meta({ description: "When sent, must equal password" }),
  })
  .meta({
    id: "PasswordChange",
    description:
      "Without name and email: a password change. One's own needs the right currentPassword (a wrong one is a 400 on currentPassword, throttled like a sign-in); an admin setting another user's password sends any currentPassword. newPassword is accepted in place of password.",
  });

/** POST /api/contact-queries: the message and the privacy fields. */
export const ContactQueryInput = z.object({ ...contactFields, ...privacyFields }).meta({ id: "ContactQueryInput" });

export const SiteSettings = z
  .object({
    ...siteSettingsSchema.shape,
    version: z
      .number()
      .int()
      .min(1)
      .meta({ description: `The settings have one version together. ${VERSION_DESCRIPTION}` }),
    updatedAt: text.meta({ format: "date-time", description: "When the stored version was made" }),
    updatedBy: text.nullable().meta({ description: "The admin who made the stored version, or null" }),
  })
  .meta({ id: "SiteSettings", description: "The site's configurable facts, as public pages show them" });
export const SiteSettingsUpdate = z.object({ ...siteSettingsUpdateSchema.shape, ...versionInput }).meta({
  id: "SiteSettingsUpdate",
  description: "The settings to change; keys left out keep their value. Drawn from an older version of the settings (If-Match or version): 409 edit_conflict.",
});

export const ErasureResult = z
  .object({
    enquiries: z
      .array(text)
      .meta({ description: "Ids of the enquiries whose personal data was erased (the rows stay for the dashboard's counts, without identifiers)" }),
    contactQueries: z.array(text).meta({ description: "Ids of the contact queries erased" }),
    files: z.number().int().min(0).meta({ description: "Attachments deleted from disk" }),
  })
  .meta({ id: "ErasureResult" });
