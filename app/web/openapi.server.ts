import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from "zod-openapi";
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, DELIVERY_MODES, ENQUIRY_FORMS, OUTBOX_EVENTS, OUTBOX_KINDS, OUTBOX_STATUSES, PUBLICATION_STATES, TIMELINE_KINDS, USER_ROLES } from "~/schemas/values";
import { contactSchema } from "~/schemas/contact";
import { contactStatusSchema } from "~/schemas/contact-query";
import { courseSchema, IMAGE_MAX_BYTES, SYLLABUS_MAX_BYTES } from "~/schemas/course";
import { ENQUIRY_RECEIPT_FIELDS, enquiryApiSchema, enquiryStatusSchema, enquiryUpdateSchema } from "~/schemas/enquiry";
import { enquiryPipelineUpdateSchema, noteSchema, sourceSchema } from "~/schemas/enquiry-pipeline";
import { auditLogListParams, contactQueryListParams, courseListParams, enquiryListParams, outboxListParams, reviewListParams, scheduleListParams, userListParams } from "~/schemas/list-params";
import { loginSchema } from "~/schemas/login";
import { reviewSchema } from "~/schemas/review";
import { scheduleSchema } from "~/schemas/schedule";
import { UPLOAD_TYPES, type UploadKind } from "~/schemas/uploads";
import { changePasswordSchema, userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { MAX_BODY_BYTES } from "~/infra/uploads.server";
import { sessionCookieName } from "./session.server";

/**
 * The OpenAPI 3.1 description of /api, generated from the zod schemas that check the requests (app/schemas), so
 * the document cannot drift from the rules: their checks become the JSON Schema keywords (lengths, patterns,
 * formats, ranges, enums, defaults). Request bodies are those schemas read as input; records are the same
 * schemas read as output plus the stored fields. Nothing here restates a limit.
 */

const text = z.string();
const stored = { id: text, createdAt: text.meta({ format: "date-time" }), updatedAt: text.meta({ format: "date-time" }) };
// Courses, batches and reviews: always carry their publication (anonymous callers only ever see published ones).
const publication = {
  state: z.enum(PUBLICATION_STATES).meta({ description: "draft, scheduled or published; anonymous callers only ever see published records" }),
  publishAt: text.nullable().meta({ format: "date-time", description: "UTC: when a scheduled record goes public (or when it did); null for drafts and records published directly" }),
};

// ---------------------------------------------------------------- records

const Course = z
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
    ...publication,
  })
  .meta({ id: "Course" });
const Schedule = z.object({ ...scheduleSchema.shape, ...stored, courseName: text.meta({ description: "Copied from the course's title on save" }), ...publication }).meta({ id: "Schedule" });
const Review = z.object({ ...reviewSchema.shape, ...stored, linkedin: text.nullable(), videoThumbnail: text.nullable(), ...publication }).meta({ id: "Review" });
const instant = (description: string) => text.nullable().meta({ format: "date-time", description });
const Enquiry = z
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
        form: z.enum([...ENQUIRY_FORMS, ""]).meta({ description: "Which form sent it (\"\" for enquiries from before this was kept)" }),
      })
      .meta({ description: "Where the lead came from: the visitor's first UTM parameters or external referrer, or what an integration passed on" }),
    sourceLabel: text.meta({ description: "One word for lists and charts: the UTM source, else the referring site, else direct" }),
    firstStatusChangeAt: instant("When its status first changed from New (the 24-hour promise), or null"),
    duplicateOf: z.array(text).meta({ description: "Enquiries with the same phone digits or e-mail within 90 days (possible duplicates); both are kept" }),
  })
  .meta({ id: "Enquiry" });
/** What an anonymous POST /api/enquiries gets back (ENQUIRY_RECEIPT_FIELDS): no pipeline fields, no duplicate links. */
const EnquiryReceipt = z
  .object(Object.fromEntries(ENQUIRY_RECEIPT_FIELDS.map((key) => [key, Enquiry.shape[key]])) as Pick<typeof Enquiry.shape, (typeof ENQUIRY_RECEIPT_FIELDS)[number]>)
  .strict()
  .meta({ id: "EnquiryReceipt", description: "What an anonymous caller sent, as stored, with its id" });
const TimelineEntry = z
  .object({
    id: text,
    at: text.meta({ format: "date-time" }),
    userId: text.nullable().meta({ description: "Who did it; null for the visitor's own submission or a deleted user" }),
    userName: text.meta({ description: "The name at the time (\"\" for the visitor's submission)" }),
    kind: z.enum(TIMELINE_KINDS),
    fromValue: text.nullable(),
    toValue: text.nullable(),
    text: text.nullable().meta({ description: "A note's text, or a description of the change" }),
  })
  .meta({ id: "TimelineEntry" });
const ContactQuery = z
  .object({ ...contactSchema.shape, ...stored, phone: text.nullable(), subject: text.nullable(), status: contactStatusSchema.shape.status })
  .meta({ id: "ContactQuery" });
const User = z
  .object({
    ...stored,
    name: userCreateSchema.shape.name,
    email: userCreateSchema.shape.email,
    role: z.enum(USER_ROLES),
    dailyDigest: z.boolean().meta({ description: "Gets the daily digest e-mail (on by default); each user switches it at /admin/users/me/digest" }),
  })
  .meta({ id: "User" });
const AuditEntry = z
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
const OutboxMessage = z
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

const ApiError = z
  .object({
    error: z.object({
      code: text.meta({ example: "invalid_input" }),
      message: text,
      fields: z.record(z.string(), z.string()).optional().meta({ description: "The rule's message per invalid field" }),
    }),
  })
  .meta({ id: "Error" });

// ---------------------------------------------------------------- request bodies

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const types = (kind: UploadKind) => [...new Set(UPLOAD_TYPES[kind].map((t) => t.mime))];

const CourseJson = z
  .object({
    ...courseSchema.shape,
    image: text.nullable().optional().meta({ description: "Absent or the current URL keeps the image; \"\" or null removes it; any other value is a 400. New files go in a multipart body." }),
    syllabusFile: text.nullable().optional().meta({ description: "Absent or the current URL keeps the file; \"\" or null removes it; any other value is a 400." }),
  })
  .meta({ id: "CourseInput" });
const fileField = (what: string, kind: UploadKind, max: number) =>
  text.optional().meta({
    contentMediaType: "application/octet-stream",
    description: `A new ${what} file: ${types(kind).join(", ")} (judged by its content: 415 otherwise), at most ${mb(max)} (413 beyond). A text value "" removes the ${what}; the current URL keeps it; leaving the field out keeps it.`,
  });
const CourseMultipart = z
  .object({ ...courseSchema.shape, image: fileField("image", "image", IMAGE_MAX_BYTES), syllabusFile: fileField("syllabus", "syllabus", SYLLABUS_MAX_BYTES) })
  .meta({ description: "Lists are repeated parts (highlights, highlights …) or indexed entries (highlights[0], highlights[1] …). The whole body may not exceed the two files plus 1 MB." });
const courseMultipartEncoding = { image: { contentType: types("image").join(", ") }, syllabusFile: { contentType: types("syllabus").join(", ") } };

const EnquiryInput = z
  .object({
    ...enquiryApiSchema.shape,
    source: sourceSchema,
    batchDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional()
      .meta({
        format: "date",
        description: "Start day (YYYY-MM-DD, a real day) of one of the preferred course's batches: the enquiry is for that batch (of several starting that day, the one in preferredMode, else one with a seat left). A day no batch of the course starts on is ignored; anything that is not a day is a 400. When that batch is full (no seat left), the enquiry joins its waitlist, in order of joining: when a seat frees, the first one waiting is e-mailed a link that holds the seat for WAITLIST_OFFER_HOURS (48 by default) and enrols them when they accept; staff see the list on the batch's edit screen and the enquiry's timeline shows each step (kind waitlist).",
      }),
  })
  .meta({ id: "EnquiryInput" });

const UserUpdate = z.object(userUpdateSchema.shape).meta({
  id: "UserUpdate",
  description: "An admin editing a user: an empty or absent password keeps it; nobody changes their own role; setting one's own password here also needs currentPassword.",
});
const absent = z.never().optional().meta({ description: "Must be left out: with name or email the body is an edit" });
const PasswordChange = z
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

// ---------------------------------------------------------------- operations

type Access = "public" | "optional" | "staff" | "admin";
/** A classic zod schema of this file or a zod/mini one of app/schemas. */
type Schema = z.core.$ZodType;
type Op = {
  summary: string;
  description?: string;
  access: Access;
  ok: number;
  data?: Schema;
  list?: boolean;
  /** The 2xx body when it is not { data }. */
  answer?: Schema;
  body?: Schema;
  multipart?: Schema;
  query?: z.core.$ZodObject;
  path?: boolean;
  extra?: number[];
  /** What a 401 means here, when not a missing or bad token. */
  unauthorized?: string;
};

const error = (description: string, headers?: Record<string, z.ZodType>): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers: z.object(headers) } : {}),
  content: { "application/json": { schema: ApiError } },
});
const retryAfter = { "Retry-After": z.string().optional().meta({ description: "Seconds to wait" }) };

function errors(method: string, o: Op): Record<number, ZodOpenApiResponseObject> {
  const takesBody = Boolean(o.body || o.multipart);
  const out: Record<number, ZodOpenApiResponseObject> = {};
  if (takesBody || o.query) out[400] = error(`Invalid input: \`fields\` holds the message per field${takesBody ? "; or a malformed JSON body, or a body type the API does not read" : ""}`);
  out[401] = error(
    o.unauthorized ?? (o.access === "public" || o.access === "optional" ? "A token was sent but is invalid or has expired (none is needed)" : "No token, or an invalid or expired one"),
    { "WWW-Authenticate": z.string().optional() },
  );
  if (o.access === "admin" || method !== "get") out[403] = error(o.access === "admin" ? "Not an admin, or a cross-site write with the session cookie" : "A cross-site write with the session cookie");
  if (o.path) out[404] = error("No record with this id");
  if (takesBody) out[413] = error(`Body too large: ${mb(MAX_BODY_BYTES)} for JSON and forms${o.multipart ? "; a file over its limit" : ""}`);
  for (const code of o.extra ?? []) out[code] = EXTRA[code];
  out[503] = error("The database is unavailable; try again after Retry-After", retryAfter);
  return out;
}

const EXTRA: Record<number, ZodOpenApiResponseObject> = {
  403: error("Not allowed for this user (the description says when), or a cross-site write with the session cookie"),
  409: error("Conflicts with what is stored: an e-mail already in use, or a full batch (the description says which)"),
  415: error("A file of a type not accepted (judged by its content)"),
  429: error("Rate limited: try again after Retry-After", retryAfter),
};

const listOf = (item: Schema) =>
  z.object({ data: z.array(item), page: z.number().int().min(1), limit: z.number().int().min(1), total: z.number().int().min(0), pages: z.number().int().min(1) });

function op(method: string, o: Op): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  const answer = o.answer ?? (o.list ? listOf(o.data!) : o.data ? z.object({ data: o.data }) : z.object({}));
  responses[String(o.ok)] = o.ok === 204 ? { description: "Done" } : { description: "Success", content: { "application/json": { schema: answer } } };
  const errs = errors(method, o);
  for (const code of Object.keys(errs).map(Number).sort()) responses[String(code)] = errs[code];
  const content: Record<string, { schema: z.core.$ZodType; encoding?: Record<string, { contentType: string }> }> = {};
  if (o.body) content["application/json"] = { schema: o.body };
  if (o.multipart) content["multipart/form-data"] = { schema: o.multipart, encoding: courseMultipartEncoding };
  const description = [o.access === "admin" ? "Admins only." : "", o.description ?? ""].filter(Boolean).join(" ");
  return {
    summary: o.summary,
    ...(description ? { description } : {}),
    ...(o.access === "public" ? { security: [] } : o.access === "optional" ? { security: [{}, { bearer: [] }, { cookie: [] }] } : {}),
    ...(o.query || o.path ? { requestParams: { ...(o.query ? { query: o.query } : {}), ...(o.path ? { path: z.object({ id: text }) } : {}) } } : {}),
    ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
}

type Crud = {
  name: string;
  one: string;
  record: Schema;
  query: z.core.$ZodObject;
  read: Access;
  create: Op["access"];
  body: Schema;
  update?: Schema;
  updateExtra?: number[];
  updateDescription?: string;
  multipart?: Schema;
  createExtra?: number[];
  /** What a create answers, when it is not the record. */
  created?: Schema;
  createDescription?: string;
  writeDescription?: string;
};

function crud(c: Crud): ZodOpenApiPathsObject {
  const files = c.multipart ? [415] : [];
  return {
    [`/api/${c.name}`]: {
      get: op("get", { summary: `List ${c.name}, newest first`, access: c.read, ok: 200, data: c.record, list: true, query: c.query }),
      post: op("post", {
        summary: `Create a ${c.one}`,
        description: [c.createDescription, c.writeDescription].filter(Boolean).join(" ") || undefined,
        access: c.create,
        ok: 201,
        data: c.created ?? c.record,
        body: c.body,
        multipart: c.multipart,
        extra: [...files, ...(c.createExtra ?? [])],
      }),
    },
    [`/api/${c.name}/{id}`]: {
      get: op("get", { summary: `Read a ${c.one}`, access: c.read, ok: 200, data: c.record, path: true }),
      put: op("put", {
        summary: `Replace a ${c.one}`,
        description: [c.updateDescription, c.writeDescription].filter(Boolean).join(" ") || undefined,
        access: "staff",
        ok: 200,
        data: c.record,
        body: c.update ?? c.body,
        multipart: c.multipart,
        path: true,
        extra: [...files, ...(c.updateExtra ?? [])],
      }),
      delete: op("delete", { summary: `Delete a ${c.one}`, access: "staff", ok: 204, path: true }),
    },
  };
}

const FORM_LIMIT =
  "Anonymous callers are limited per IP address like the site's form (FORM_RATE_LIMIT per FORM_RATE_WINDOW: 429 with Retry-After); a caller with a staff token is not counted.";

const INFO = `JSON REST API of the institute's website and back office.

- **Errors** answer \`{ "error": { "code", "message", "fields"? } }\`; \`fields\` holds the rule's message per invalid field.
- **Text** is cleaned before it is checked: control characters (U+0000–U+001F except tab, line feed and carriage return; U+007F–U+009F) and lone surrogates (\\ud800 without its pair) are removed, single-line fields turn line breaks into spaces, and surrounding white space is trimmed. Lengths count Unicode characters after that, so a value the schema admits is never refused for its length; a required text must keep at least one other character (its \`pattern\`).
- **Form-style values** are read too, as the site's forms send them: booleans also as "true"/"false"/"on"/"off"/"1"/"0"/"yes"/"no", numbers as numeric text, a whole number's fraction is dropped, and "" in an optional text field means absent. Unknown fields are ignored, so a client cannot set an id, a status on create, dates or a role it may not.
- **Lists** take \`page\` (1 to 1,000,000) and \`limit\` (1 to 100, default 20), and answer \`{ data, page, limit, total, pages }\`, newest first.
- **Publication**: courses, schedules and reviews have a \`state\` (draft, scheduled, published) and a \`publishAt\`. Anonymous reads (lists and by id) see published records only (reviews: approved and published; schedules: of a published course): anything else is a 404 for them. Staff see every state and may filter lists with \`?state=\`. A create without \`state\` is published; an update without it keeps it. \`scheduled\` needs \`publishAt\` in the future (an ISO 8601 instant with offset, or a Hyderabad date-time YYYY-MM-DDTHH:mm); it becomes published at that time, within about 15 seconds.
- **Methods** a path does not list answer 405 with \`Allow\`; unknown paths under /api answer 404.
- **Rate limits**: sign-in is throttled per address and per account; creating an enquiry or a contact query anonymously is limited per IP address, and a staff token is not counted.`;

export function buildOpenApiDocument(serverUrl = "/") {
  return withOperationIds(createDocument({
    openapi: "3.1.0",
    info: { title: "SOC Analyst training institute API", version: "1.0.0", description: INFO },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }, { cookie: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The token from POST /api/auth/login" },
        cookie: { type: "apiKey", in: "cookie", name: sessionCookieName(), description: "The back office's session; writes must be same-origin" },
      },
    },
    paths: {
      ...crud({
        name: "courses",
        one: "course",
        record: Course,
        query: courseListParams,
        read: "public",
        create: "staff",
        body: CourseJson,
        multipart: CourseMultipart,
        writeDescription: "JSON, or multipart/form-data to send an image or a syllabus file. Modes other than online, offline and hybrid are dropped.",
      }),
      ...crud({ name: "schedules", one: "schedule", record: Schedule, query: scheduleListParams, read: "public", create: "staff", body: scheduleSchema }),
      ...crud({ name: "reviews", one: "review", record: Review, query: reviewListParams, read: "optional", create: "staff", body: reviewSchema }),
      "/api/reviews/{id}/approve": { put: op("put", { summary: "Approve a review (no body)", access: "staff", ok: 200, data: Review, path: true }) },
      ...crud({
        name: "enquiries",
        one: "enquiry",
        record: Enquiry,
        query: enquiryListParams,
        read: "staff",
        create: "optional",
        body: EnquiryInput,
        update: enquiryPipelineUpdateSchema,
        updateExtra: [409],
        createExtra: [429],
        created: z.union([Enquiry, EnquiryReceipt]),
        createDescription: `Anyone may enrol. ${FORM_LIMIT} A staff caller gets the whole Enquiry back; anyone else gets an EnquiryReceipt (what it sent, as stored, and the id). The phone is stored as its 10 digits. Enquiries with the same phone or e-mail within 90 days are linked as possible duplicates, never refused.`,
        updateDescription:
          "assigneeId, followUpAt (an ISO 8601 instant with its offset, or a Hyderabad date-time YYYY-MM-DDTHH:mm) and scheduleId may each be null to clear or left out to keep. Enrolled takes a seat of the batch: 409 when it is full.",
      }),
      "/api/enquiries/{id}/status": {
        put: op("put", { summary: "Set the status", description: "Enrolled takes a seat of the enquiry's batch (the seat its open waitlist offer holds, if any): 409 when it is full; leaving Enrolled gives it back, and a seat given back is offered to the first one on the batch's waitlist.", access: "staff", ok: 200, data: Enquiry, body: enquiryStatusSchema, path: true, extra: [409] }),
      },
      "/api/enquiries/{id}/timeline": { get: op("get", { summary: "Notes and every recorded change, newest first", access: "staff", ok: 200, data: z.array(TimelineEntry), path: true }) },
      "/api/enquiries/{id}/notes": { post: op("post", { summary: "Add a note to the timeline", access: "staff", ok: 201, data: TimelineEntry, body: noteSchema, path: true }) },
      "/api/contact-queries": {
        get: op("get", { summary: "List contact queries, newest first", access: "staff", ok: 200, data: ContactQuery, list: true, query: contactQueryListParams }),
        post: op("post", { summary: "Send a contact query", description: FORM_LIMIT, access: "optional", ok: 201, data: ContactQuery, body: contactSchema, extra: [429] }),
      },
      "/api/contact-queries/{id}": {
        get: op("get", { summary: "Read a contact query", access: "staff", ok: 200, data: ContactQuery, path: true }),
        delete: op("delete", { summary: "Delete a contact query", access: "staff", ok: 204, path: true }),
      },
      "/api/contact-queries/{id}/status": { put: op("put", { summary: "Set the status", access: "staff", ok: 200, data: ContactQuery, body: contactStatusSchema, path: true }) },
      "/api/contact-queries/{id}/timeline": { get: op("get", { summary: "Notes and status changes, newest first", access: "staff", ok: 200, data: z.array(TimelineEntry), path: true }) },
      "/api/contact-queries/{id}/notes": { post: op("post", { summary: "Add a note to the timeline", access: "staff", ok: 201, data: TimelineEntry, body: noteSchema, path: true }) },
      "/api/auth/login": {
        post: {
          ...op("post", {
            summary: "Sign in for a bearer token",
            description: "Wrong credentials are a 401 with one message whether or not the e-mail exists; repeated failures are throttled (429).",
            access: "public",
            unauthorized: "Wrong e-mail or password (a token sent along is ignored)",
            ok: 200,
            body: loginSchema,
            extra: [429],
            answer: z.object({ token: text, expiresIn: z.number().int().meta({ description: "Seconds" }), user: User.pick({ id: true, name: true, email: true, role: true }) }),
          }),
        },
      },
      "/api/auth/register": { post: op("post", { summary: "Create a staff user", access: "admin", ok: 201, data: User, body: userCreateSchema, extra: [409] }) },
      "/api/auth/me": { get: op("get", { summary: "The signed-in user", access: "staff", ok: 200, data: User }) },
      "/api/auth/logout": { post: op("post", { summary: "Sign out: ends the token sent (or this browser session); other sessions go on", access: "staff", ok: 204 }) },
      "/api/auth/users/{id}": { get: op("get", { summary: "Read a user", access: "admin", ok: 200, data: User, path: true }) },
      "/api/audit-log": {
        get: op("get", {
          summary: "List the audit log, newest first: who changed what, signed in or out",
          description: "to may not be before from (400).",
          access: "admin",
          ok: 200,
          data: AuditEntry,
          list: true,
          query: auditLogListParams,
        }),
      },
      "/api/outbox": {
        get: op("get", { summary: "List the outbox, newest first: e-mails and webhooks for new enquiries and contact queries", access: "admin", ok: 200, data: OutboxMessage, list: true, query: outboxListParams }),
      },
      "/api/users": { get: op("get", { summary: "List users, newest first", access: "admin", ok: 200, data: User, list: true, query: userListParams }) },
      "/api/users/{id}": {
        get: op("get", { summary: "Read a user", access: "admin", ok: 200, data: User, path: true }),
        put: op("put", {
          summary: "Edit a user (admins), or change a password (currentPassword + password, without name and email)",
          description: "Any signed-in user may change their own password; everything else is for admins (403). When the caller's own password changed, the answer carries a fresh token: the old ones no longer work.",
          access: "staff",
          ok: 200,
          body: z.union([UserUpdate, PasswordChange]),
          answer: z.object({ data: User, token: text.optional().meta({ description: "Present when the caller changed their own password" }) }),
          path: true,
          extra: [403, 409, 429],
        }),
        delete: op("delete", { summary: "Delete a user", description: "Never one's own account (403).", access: "admin", ok: 204, path: true }),
      },
    },
  }));
}

/**
 * Every operation gets an operationId (code generators and Schemathesis name things by it): the method and the
 * path's words, `{id}` read as "ById": getCourses, putEnquiriesByIdStatus, postAuthLogin.
 */
function withOperationIds<T extends { paths?: object }>(doc: T): T {
  const word = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown> | undefined>)) {
    const words = path
      .replace(/^\/api\//, "")
      .split("/")
      .flatMap((segment) => (segment.startsWith("{") ? [`by-${segment.slice(1, -1)}`] : [segment]))
      .flatMap((segment) => segment.split(/[-_.]/))
      .map(word)
      .join("");
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (["get", "put", "post", "delete", "patch"].includes(method) && operation && typeof operation === "object") {
        (operation as { operationId?: string }).operationId ??= `${method}${words}`;
      }
    }
  }
  return doc;
}
