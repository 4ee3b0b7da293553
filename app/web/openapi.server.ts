import { z } from "zod";
import { createDocument, type ZodOpenApiObject, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from "zod-openapi";
import { noteSchema } from "~/schemas/enquiry-pipeline";
import {
  auditLogListParams,
  contactQueryListParams,
  courseListParams,
  enquiryListParams,
  outboxListParams,
  reviewListParams,
  scheduleListParams,
  userListParams,
} from "~/schemas/list-params";
import { loginSchema } from "~/schemas/login";
import { reviewSchema } from "~/schemas/review";
import { userCreateSchema } from "~/schemas/user";
import { MAX_BODY_BYTES } from "~/infra/uploads.server";
import { SITE } from "~/config/site";
import { sessionCookieName } from "./session.server";
import {
  text,
  Course,
  Schedule,
  Review,
  Enquiry,
  EnquiryReceipt,
  TimelineEntry,
  ContactQuery,
  User,
  AuditEntry,
  OutboxMessage,
  ApiError,
  mb,
  CourseJson,
  CourseMultipart,
  courseMultipartEncoding,
  EnquiryInput,
  EnquiryStatusUpdate,
  EnquiryUpdate,
  ContactStatusUpdate,
  ScheduleInput,
  ScheduleUpdate,
  ReviewUpdate,
  CourseUpdateJson,
  CourseUpdateMultipart,
  UserUpdate,
  PasswordChange,
  ContactQueryInput,
  SiteSettings,
  SiteSettingsUpdate,
  ErasureResult,
} from "./openapi-schemas.server";
import { eraseRequestSchema } from "~/schemas/privacy-requests";
import { dueListParams, invoiceListParams, paymentListParams, refundListParams } from "~/schemas/list-params";
import { feePlanVersion } from "./openapi-schemas.server";
import {
  Concession,
  ConcessionDecision,
  ConcessionInput,
  CreditNoteInput,
  DueRow,
  FeeLedger,
  FeePlan,
  FeePlanInput,
  Invoice,
  Payment,
  PaymentInput,
  Refund,
  RefundInput,
  ReversalInput,
} from "./openapi-fees.server";

/**
 * The OpenAPI 3.1 description of /api, generated from the zod schemas that check the requests (app/schemas), so
 * the document cannot drift from the rules: their checks become the JSON Schema keywords (lengths, patterns,
 * formats, ranges, enums, defaults). Request bodies are those schemas read as input; records are the same
 * schemas read as output plus the stored fields. Nothing here restates a limit.
 */

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
  /**
   * Why a request the schemas admit is still refused: rules JSON Schema cannot state (an order of dates, a record
   * that must exist, the caller's own password). Listed in the operation's description and in its 400/409 answers.
   */
  refusals?: { 400?: string[]; 409?: string[] };
  /**
   * The record carries a version: its success answer sends it as the ETag, and a write (put) takes If-Match (or
   * `version` in the body) and is refused with 409 edit_conflict when it is older than the stored one.
   */
  versioned?: boolean;
};

const EDIT_CONFLICT =
  "the version sent (If-Match, or version in the body) is older than the stored one: edit_conflict, nothing written; `current` holds the record as stored now and the ETag header its version";
const etagHeader = z.object({
  ETag: z.string().meta({ description: 'The record\'s version in quotes ("3"): send it back in If-Match to write only over what you read' }),
});
const ifMatchHeader = z.object({
  "If-Match": z
    .string()
    .regex(/^\s*(?:\*|(?:W\/)?"[1-9]\d{0,8}")\s*$/)
    .optional()
    .meta({
      description:
        'The ETag of the version you read ("3"; W/"3" and * are accepted): older than the stored version, the write is refused with 409 edit_conflict. Left out (and no version in the body): the write applies to what is stored.',
    }),
});

const error = (description: string, headers?: Record<string, z.ZodType>): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers: z.object(headers) } : {}),
  content: { "application/json": { schema: ApiError } },
});
const retryAfter = { "Retry-After": z.string().optional().meta({ description: "Seconds to wait" }) };

/** The causes of a 400, in words: the schema's, then the operation's own rules. */
function invalidCauses(o: Op): string[] {
  const takesBody = Boolean(o.body || o.multipart);
  return [
    ...(takesBody ? ["a body field breaks its schema (`fields` names each)", "the body is malformed JSON or of a type the API does not read"] : []),
    ...(o.query ? ["a query parameter breaks its schema (an empty number, choice or day among them; `fields` names each)"] : []),
    ...(o.refusals?.[400] ?? []),
  ];
}

const sentence = (lead: string, causes: string[]) => `${lead} ${causes.join("; ")}.`;

function errors(method: string, o: Op): Record<number, ZodOpenApiResponseObject> {
  const takesBody = Boolean(o.body || o.multipart);
  const out: Record<number, ZodOpenApiResponseObject> = {};
  if (takesBody || o.query) out[400] = error(sentence("Invalid input, when", invalidCauses(o)));
  out[401] = error(
    o.unauthorized ??
      (o.access === "public" || o.access === "optional"
        ? "A token was sent but is invalid or has expired (none is needed)"
        : "No token, or an invalid or expired one"),
    { "WWW-Authenticate": z.string().optional() },
  );
  if (o.access === "admin" || method !== "get")
    out[403] = error(o.access === "admin" ? "Not an admin, or a cross-site write with the session cookie" : "A cross-site write with the session cookie");
  if (o.path) out[404] = error("No record with this id");
  if (takesBody) out[413] = error(`Body too large: ${mb(MAX_BODY_BYTES)} for JSON and forms${o.multipart ? "; a file over its limit" : ""}`);
  for (const code of o.extra ?? [])
    out[code] = code === 409 && o.refusals?.[409] ? error(sentence("Conflicts with what is stored:", o.refusals[409])) : EXTRA[code];
  if (o.versioned && method === "put")
    out[409] = error(sentence("Conflicts with what is stored:", [...(o.refusals?.[409] ?? []), EDIT_CONFLICT]), { ETag: z.string().optional() });
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
  z.object({
    data: z.array(item),
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    total: z.number().int().min(0),
    pages: z.number().int().min(1),
  });

function op(method: string, o: Op): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  const answer = o.answer ?? (o.list ? listOf(o.data!) : o.data ? z.object({ data: o.data }) : z.object({}));
  responses[String(o.ok)] =
    o.ok === 204
      ? { description: "Done" }
      : { description: "Success", ...(o.versioned ? { headers: etagHeader } : {}), content: { "application/json": { schema: answer } } };
  const errs = errors(method, o);
  for (const code of Object.keys(errs).map(Number).sort()) responses[String(code)] = errs[code];
  const content: Record<string, { schema: z.core.$ZodType; encoding?: Record<string, { contentType: string }> }> = {};
  if (o.body) content["application/json"] = { schema: o.body };
  if (o.multipart) content["multipart/form-data"] = { schema: o.multipart, encoding: courseMultipartEncoding };
  const access = {
    public: "Anyone may call it; no token is needed.",
    optional: "Anyone may call it; a staff token (or the back office's session) changes what it answers, as said here.",
    staff: "Staff only (admin or editor): a bearer token or the back office's session.",
    admin: "Admins only.",
  }[o.access];
  const invalid = invalidCauses(o);
  const description = [
    access,
    o.description ?? "",
    invalid.length ? sentence("400 when", invalid) : "",
    o.refusals?.[409]?.length || (o.versioned && method === "put")
      ? sentence("409 when", [...(o.refusals?.[409] ?? []), ...(o.versioned && method === "put" ? [EDIT_CONFLICT] : [])])
      : "",
  ]
    .filter(Boolean)
    .join(" ");
  return {
    summary: o.summary,
    description,
    ...(o.access === "public" ? { security: [] } : o.access === "optional" ? { security: [{}, { bearer: [] }, { cookie: [] }] } : {}),
    ...(o.query || o.path || (o.versioned && method === "put")
      ? {
          requestParams: {
            ...(o.query ? { query: o.query } : {}),
            ...(o.path ? { path: z.object({ id: text }) } : {}),
            ...(o.versioned && method === "put" ? { header: ifMatchHeader } : {}),
          },
        }
      : {}),
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
  /** The replace's multipart body, when it differs from the create's (it carries the version). */
  updateMultipart?: Schema;
  createExtra?: number[];
  /** What a create answers, when it is not the record. */
  created?: Schema;
  createDescription?: string;
  writeDescription?: string;
  /** Refusals of a create and a replace alike. */
  writeRefusals?: string[];
  updateRefusals?: Op["refusals"];
  /** Records with a version (ETag on reads and writes, If-Match on a replace). */
  versioned?: boolean;
};

function crud(c: Crud): ZodOpenApiPathsObject {
  const files = c.multipart ? [415] : [];
  return {
    [`/api/${c.name}`]: {
      get: op("get", { summary: `List ${c.name}, newest first`, access: c.read, ok: 200, data: c.record, list: true, query: c.query }),
      post: op("post", {
        summary: `Create a ${c.one}`,
        description: [c.createDescription, c.writeDescription].filter(Boolean).join(" ") || undefined,
        refusals: { 400: c.writeRefusals },
        access: c.create,
        ok: 201,
        data: c.created ?? c.record,
        body: c.body,
        multipart: c.multipart,
        extra: [...files, ...(c.createExtra ?? [])],
        versioned: c.versioned && !c.created,
      }),
    },
    [`/api/${c.name}/{id}`]: {
      get: op("get", { summary: `Read a ${c.one}`, access: c.read, ok: 200, data: c.record, path: true, versioned: c.versioned }),
      put: op("put", {
        summary: `Replace a ${c.one}`,
        description: [c.updateDescription, c.writeDescription].filter(Boolean).join(" ") || undefined,
        refusals: { ...c.updateRefusals, 400: [...(c.writeRefusals ?? []), ...(c.updateRefusals?.[400] ?? [])] },
        access: "staff",
        ok: 200,
        data: c.record,
        body: c.update ?? c.body,
        multipart: c.updateMultipart ?? c.multipart,
        path: true,
        extra: [...files, ...(c.updateExtra ?? [])],
        versioned: c.versioned,
      }),
      delete: op("delete", {
        summary: `Delete a ${c.one}`,
        description: c.versioned ? "Takes no version: a delete removes the record whatever it holds now." : undefined,
        access: "staff",
        ok: 204,
        path: true,
      }),
    },
  };
}

const SCHEDULED_IN_PAST = "state is scheduled and publishAt is missing, not a date-time, or not in the future";
const FULL_BATCH = "the status becomes enrolled and the enquiry's batch has no seat left (the seat an open waitlist offer holds counts as its own)";

const FORM_LIMIT =
  "Anonymous callers are limited per IP address like the site's form (FORM_RATE_LIMIT per FORM_RATE_WINDOW: 429 with Retry-After); a caller with a staff token is not counted.";

const PRIVACY_FIELDS =
  "Privacy (DPDP Act): `marketingConsent` (default false) is the separate consent to marketing; `noticeVersion` the privacy notice version the caller showed (default: the current one); `under18: true` needs `guardianName` and `guardianEmail` (an address other than `email`, else 400 naming the field): the record is then held (no staff alert, no webhook, not in staff lists) until the guardian follows the consent link e-mailed to them, and erased after 7 days without it. Each submission records a consent row for the notice shown (and for marketing when given).";

const INFO = `JSON REST API of the institute's website and back office.

- **Errors** answer \`{ "error": { "code", "message", "fields"? } }\`; \`fields\` holds the rule's message per invalid field.
- **Text** is cleaned before it is checked: control characters (U+0000–U+001F except tab, line feed and carriage return; U+007F–U+009F), Unicode noncharacters (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF) and lone surrogates (\\ud800 without its pair) are removed, single-line fields turn line breaks into spaces, and surrounding white space is trimmed. Lengths count Unicode characters after that, so a value the schema admits is never refused for its length; a required text must keep at least one visible character (its \`pattern\`): one made only of spaces or invisible characters (U+200B, U+00AD, U+2060, U+3164 …) is missing.
- **JSON bodies** are held to this document exactly, every keyword of the operation's schema (400 naming each field otherwise): a boolean is \`true\` or \`false\`, a number a JSON number, a list a JSON array (a text is not a list of one) of at most \`maxItems\` entries, none of them \`null\`; \`null\` only where a field is nullable; and \`""\` only where the field's schema takes it: an optional free text (\`""\` is no value), an enquiry's owner, batch or follow-up (\`""\` clears it), a course's image or syllabus file (\`""\` removes it). A field with a minimum length, a pattern or a format (an e-mail, a phone, a link, a day, a password) refuses \`""\`: leave it out instead. Unknown fields are ignored, so a client cannot set an id, a status on create, dates or a role it may not.
- **Form bodies** (URL-encoded or multipart) are read as the site's forms send them: booleans also as "true"/"false"/"on"/"off"/"1"/"0"/"yes"/"no", numbers as numeric text, a whole number's fraction is dropped, one value of a list field is a list of one and its blank entries are dropped, and "" in an optional field means absent. A file part is taken only where the operation takes a file; sent for a text field it is a 400.
- **Lists** take \`page\` (1 to 1,000,000) and \`limit\` (1 to 100, default 20), and answer \`{ data, page, limit, total, pages }\`, newest first. A query parameter is taken as sent: a number, a choice or a day sent empty (\`status=\`, \`from=\`) is a 400 as its schema says (leave a filter out for none); a text filter sent empty is no filter.
- **Publication**: courses, schedules and reviews have a \`state\` (draft, scheduled, published) and a \`publishAt\`. Anonymous reads (lists and by id) see published records only (reviews: approved and published; schedules: of a published course): anything else is a 404 for them. Staff see every state and may filter lists with \`?state=\`. A create without \`state\` is published; an update without it keeps it. \`scheduled\` needs \`publishAt\` in the future (an ISO 8601 instant with offset, or a Hyderabad date-time YYYY-MM-DDTHH:mm); it becomes published at that time, within about 15 seconds.
- **Methods** a path does not list answer 405 with \`Allow\`; unknown paths under /api answer 404.
- **Rate limits**: sign-in is throttled per address and per account; creating an enquiry or a contact query anonymously is limited per IP address, and a staff token is not counted.`;

/** Each operation's group (its tag), by the start of its path; the first match wins. */
const TAGS = [
  {
    prefix: "/api/courses",
    name: "Courses",
    description: "The course catalogue: public reads, staff writes (JSON or multipart with an image and a syllabus file)",
  },
  { prefix: "/api/schedules", name: "Schedules", description: "Batches of a course (dates, mode, seats): public reads, staff writes" },
  { prefix: "/api/reviews", name: "Reviews", description: "Student reviews: approved ones are public; staff write and approve" },
  {
    prefix: "/api/enquiries",
    name: "Enquiries",
    description: "Enrolment enquiries: anyone sends one; staff follow them up (status, owner, follow-up, batch, notes)",
  },
  { prefix: "/api/contact-queries", name: "Contact queries", description: "Contact messages: anyone sends one; staff answer them" },
  { prefix: "/api/auth/register", name: "Users", description: "Staff accounts (admins only, but everyone changes their own password)" },
  { prefix: "/api/auth/users", name: "Users", description: "" },
  { prefix: "/api/users", name: "Users", description: "" },
  { prefix: "/api/auth", name: "Sign-in", description: "Bearer tokens: sign in, sign out, who am I" },
  { prefix: "/api/audit-log", name: "Audit log", description: "Who changed what, signed in or out (admins only)" },
  { prefix: "/api/outbox", name: "Outbox", description: "E-mails and webhooks waiting, sent or failed (admins only)" },
  { prefix: "/api/settings", name: "Settings", description: "The site's configurable facts that public pages show (admins only)" },
  { prefix: "/api/people", name: "Privacy", description: "A person's requests about their data (DPDP Act): erasure by e-mail (staff)" },
  {
    prefix: "/api/fee-plans",
    name: "Fees",
    description: "Fee plans, dues, invoices, credit notes, payments, refunds and concessions (staff only; amounts in paise)",
  },
  { prefix: "/api/dues", name: "Fees", description: "" },
  { prefix: "/api/invoices", name: "Fees", description: "" },
  { prefix: "/api/payments", name: "Fees", description: "" },
  { prefix: "/api/refunds", name: "Fees", description: "" },
  { prefix: "/api/concessions", name: "Fees", description: "" },
];

/** The zod schema of each operation's JSON request body, by "METHOD /path/{template}" (as the document was last built from). */
let jsonBodies: Map<string, Schema> | undefined;

/** createDocument, noting on the way which zod schema each JSON request body was made from. */
function createDocumentNotingBodies(input: ZodOpenApiObject) {
  jsonBodies = new Map();
  for (const [template, item] of Object.entries(input.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, ZodOpenApiOperationObject | undefined>)) {
      const schema = operation?.requestBody?.content?.["application/json"]?.schema;
      if (schema) jsonBodies.set(`${method.toUpperCase()} ${template}`, schema as Schema);
    }
  }
  return createDocument(input);
}

/**
 * The zod schemas the document's JSON request bodies were generated from, by "METHOD /path/{template}": the JSON
 * body check (json-body-contract.server.ts) uses their messages for what both the document and they refuse.
 */
export function jsonBodySchemas(): ReadonlyMap<string, Schema> {
  if (!jsonBodies) buildOpenApiDocument();
  return jsonBodies!;
}

export function buildOpenApiDocument(serverUrl = "/") {
  return withOperationIds(
    createDocumentNotingBodies({
      openapi: "3.1.0",
      info: {
        title: "SOC Analyst training institute API",
        version: "1.0.0",
        description: INFO,
        contact: { name: SITE.name, email: SITE.email },
        license: { name: `Proprietary: © ${SITE.name}, all rights reserved`, identifier: "LicenseRef-Proprietary" },
      },
      servers: [{ url: serverUrl }],
      tags: TAGS.filter((t) => t.description).map(({ name, description }) => ({ name, description })),
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
          update: CourseUpdateJson,
          updateMultipart: CourseUpdateMultipart,
          writeDescription: "JSON, or multipart/form-data to send an image or a syllabus file. Modes other than online, offline and hybrid are dropped.",
          versioned: true,
          writeRefusals: [
            'image or syllabusFile is text other than "", null or the current URL (new files come as multipart parts)',
            "a file part is sent for a text field",
            SCHEDULED_IN_PAST,
          ],
        }),
        ...crud({
          name: "schedules",
          one: "schedule",
          record: Schedule,
          query: scheduleListParams,
          read: "public",
          create: "staff",
          body: ScheduleInput,
          update: ScheduleUpdate,
          versioned: true,
          writeDescription:
            "totalSeats is the batch's capacity; seats left are counted from enrolled enquiries and open waitlist offers and never written (a seats sent is ignored). Raising totalSeats offers the new seats to the batch's waitlist in order; a seat taken or given back makes a new version.",
          writeRefusals: [
            "endDate is before startDate",
            "course is not the id of an existing course",
            "totalSeats is below the seats taken (enrolled students and open waitlist offers)",
            SCHEDULED_IN_PAST,
          ],
        }),
        ...crud({
          name: "reviews",
          one: "review",
          record: Review,
          query: reviewListParams,
          read: "optional",
          create: "staff",
          body: reviewSchema,
          update: ReviewUpdate,
          versioned: true,
          writeRefusals: [SCHEDULED_IN_PAST],
        }),
        "/api/reviews/{id}/approve": {
          put: op("put", {
            summary: "Approve a review (no body)",
            description: "Takes no version: approving is the same whatever the review holds, and makes a new version.",
            access: "staff",
            ok: 200,
            data: Review,
            path: true,
          }),
        },
        ...crud({
          name: "enquiries",
          one: "enquiry",
          record: Enquiry,
          query: enquiryListParams,
          read: "staff",
          create: "optional",
          body: EnquiryInput,
          update: EnquiryUpdate,
          versioned: true,
          updateExtra: [409],
          updateRefusals: {
            400: [
              "assigneeId is not the id of a staff user",
              "scheduleId is not the id of a batch",
              "scheduleId is a batch of a course other than the enquiry's preferredCourse and confirmCourseChange is not true (code course_change_unconfirmed, fields.confirmCourseChange asks the question)",
              "followUpAt is neither an ISO 8601 instant with its offset nor a Hyderabad date-time YYYY-MM-DDTHH:mm",
            ],
            409: [FULL_BATCH],
          },
          createExtra: [429],
          created: z.union([Enquiry, EnquiryReceipt]),
          createDescription: `Anyone may enrol. ${FORM_LIMIT} A staff caller gets the whole Enquiry back; anyone else gets an EnquiryReceipt (what it sent, as stored, and the id). The phone is stored as its 10 digits. preferredCourse must be the title of a published course (GET /api/courses; case does not matter, the catalogue's spelling is stored) or one of the five titles the form falls back to: anything else is a 400 on preferredCourse ("Please select a course"). Enquiries with the same phone or e-mail within 90 days are linked as possible duplicates, never refused. ${PRIVACY_FIELDS}`,
          updateDescription:
            "assigneeId, followUpAt (an ISO 8601 instant with its offset, or a Hyderabad date-time YYYY-MM-DDTHH:mm) and scheduleId may each be null to clear or left out to keep. A follow-up set on an unassigned enquiry makes it the caller's. Enrolled takes a seat of the batch: 409 batch_full when it is full; 400 on scheduleId when it is left without a batch while its course has upcoming batches. A batch of another course than preferredCourse (a new scheduleId) is a 400 course_change_unconfirmed naming confirmCourseChange, with nothing written or sent, unless confirmCourseChange is true. With If-Match (or version) older than the stored version: 409 edit_conflict, nothing written.",
        }),
        "/api/enquiries/{id}/status": {
          put: op("put", {
            summary: "Set the status",
            description:
              "Enrolled takes a seat of the enquiry's batch (the seat its open waitlist offer holds, if any): 409 batch_full when it is full; 400 on scheduleId when the enquiry has no batch while its course has upcoming batches; leaving Enrolled gives it back, and a seat given back is offered to the first one on the batch's waitlist.",
            access: "staff",
            ok: 200,
            data: Enquiry,
            body: EnquiryStatusUpdate,
            path: true,
            versioned: true,
            extra: [409],
            refusals: { 409: [FULL_BATCH] },
          }),
        },
        "/api/enquiries/{id}/timeline": {
          get: op("get", { summary: "Notes and every recorded change, newest first", access: "staff", ok: 200, data: z.array(TimelineEntry), path: true }),
        },
        "/api/enquiries/{id}/notes": {
          post: op("post", { summary: "Add a note to the timeline", access: "staff", ok: 201, data: TimelineEntry, body: noteSchema, path: true }),
        },
        "/api/contact-queries": {
          get: op("get", {
            summary: "List contact queries, newest first",
            access: "staff",
            ok: 200,
            data: ContactQuery,
            list: true,
            query: contactQueryListParams,
          }),
          post: op("post", {
            summary: "Send a contact query",
            description: `${FORM_LIMIT} ${PRIVACY_FIELDS}`,
            access: "optional",
            ok: 201,
            data: ContactQuery,
            body: ContactQueryInput,
            extra: [429],
          }),
        },
        "/api/contact-queries/{id}": {
          get: op("get", { summary: "Read a contact query", access: "staff", ok: 200, data: ContactQuery, path: true, versioned: true }),
          delete: op("delete", { summary: "Delete a contact query", access: "staff", ok: 204, path: true }),
        },
        "/api/contact-queries/{id}/status": {
          put: op("put", {
            summary: "Set the status",
            access: "staff",
            ok: 200,
            data: ContactQuery,
            body: ContactStatusUpdate,
            path: true,
            versioned: true,
          }),
        },
        "/api/contact-queries/{id}/timeline": {
          get: op("get", { summary: "Notes and status changes, newest first", access: "staff", ok: 200, data: z.array(TimelineEntry), path: true }),
        },
        "/api/contact-queries/{id}/notes": {
          post: op("post", { summary: "Add a note to the timeline", access: "staff", ok: 201, data: TimelineEntry, body: noteSchema, path: true }),
        },
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
              answer: z.object({
                token: text,
                expiresIn: z.number().int().meta({ description: "Seconds" }),
                user: User.pick({ id: true, name: true, email: true, role: true }),
              }),
            }),
          },
        },
        "/api/auth/register": {
          post: op("post", {
            summary: "Create a staff user",
            access: "admin",
            ok: 201,
            data: User,
            body: userCreateSchema,
            extra: [409],
            refusals: { 400: ["password is one of the 10,000 most common passwords"], 409: ["a user with this email exists"] },
          }),
        },
        "/api/auth/me": { get: op("get", { summary: "The signed-in user", access: "staff", ok: 200, data: User }) },
        "/api/auth/logout": {
          post: op("post", { summary: "Sign out: ends the token sent (or this browser session); other sessions go on", access: "staff", ok: 204 }),
        },
        "/api/auth/users/{id}": { get: op("get", { summary: "Read a user", access: "admin", ok: 200, data: User, path: true, versioned: true }) },
        "/api/audit-log": {
          get: op("get", {
            summary: "List the audit log, newest first: who changed what, signed in or out",
            refusals: { 400: ["to is before from"] },
            access: "admin",
            ok: 200,
            data: AuditEntry,
            list: true,
            query: auditLogListParams,
          }),
        },
        "/api/outbox": {
          get: op("get", {
            summary: "List the outbox, newest first: e-mails and webhooks for new enquiries and contact queries",
            access: "admin",
            ok: 200,
            data: OutboxMessage,
            list: true,
            query: outboxListParams,
          }),
        },
        "/api/settings": {
          get: op("get", {
            summary: "The site settings (the privacy and grievance contact shown on /privacy)",
            description: "The settings have one version together, answered as the ETag.",
            access: "admin",
            ok: 200,
            data: SiteSettings,
            versioned: true,
          }),
          put: op("put", {
            summary: "Change site settings",
            description:
              "Keys left out keep their value. Public pages show the new values within a second, on every instance. Audited. A save drawn from an older version of the settings is refused, whichever keys it changes.",
            access: "admin",
            ok: 200,
            data: SiteSettings,
            body: SiteSettingsUpdate,
            versioned: true,
          }),
        },
        "/api/people/erase": {
          post: op("post", {
            summary: "Erase a person's personal data on their request",
            description:
              "Every enquiry and contact query with this e-mail (as the sender, or as a minor's parent or guardian) loses its personal data in one transaction: name, e-mail, phone, messages, attachments (deleted from disk), waitlist places, the outbox's unsent messages and copies, and mentions in notes and the audit log. The rows stay, without identifiers, for the dashboard's counts; the erasure is audited with record ids only. An address with no records erases nothing (200 with empty lists).",
            access: "staff",
            ok: 200,
            data: ErasureResult,
            body: eraseRequestSchema,
          }),
        },
        "/api/fee-plans": {
          get: op("get", { summary: "List the fee plans (not archived)", access: "staff", ok: 200, data: FeePlan, list: true }),
          post: op("post", {
            summary: "Create a fee plan",
            description:
              "Instalments each have a percentBp (basis points: 4000 = 40 %; together 10000) or each an amountPaise (the last takes the rest); dueFrom enrolment or batch_start with dueDays after (negative: before). isDefault makes it the default of its batch (scheduleId) or course (courseId). Amounts in paise.",
            refusals: { 400: ["courseId or scheduleId is not the id of a course or batch", "the percentages do not add up to 100 %"] },
            access: "staff",
            ok: 201,
            data: FeePlan,
            body: FeePlanInput,
          }),
        },
        "/api/fee-plans/{id}": {
          get: op("get", { summary: "Read a fee plan", access: "staff", ok: 200, data: FeePlan, path: true }),
          put: op("put", {
            summary: "Replace a fee plan's terms",
            description:
              "Enrolments already made keep their dues. With If-Match (or version) older than the stored version: 409 edit_conflict, nothing written.",
            refusals: { 400: ["courseId or scheduleId is not the id of a course or batch", "the percentages do not add up to 100 %"] },
            access: "staff",
            ok: 200,
            data: FeePlan,
            body: FeePlanInput.extend(feePlanVersion),
            path: true,
            extra: [409],
          }),
          delete: op("delete", { summary: "Archive a fee plan (enrolments made on it keep their dues)", access: "staff", ok: 204, path: true }),
        },
        "/api/enquiries/{id}/fees": {
          get: op("get", {
            summary: "The student's fees: account, dues, invoices, payments, totals (paise)",
            access: "staff",
            ok: 200,
            data: FeeLedger,
            path: true,
          }),
        },
        "/api/enquiries/{id}/payments": {
          post: op("post", {
            summary: "Record money received (cash, bank transfer, cheque, UPI)",
            description:
              "Settles the student's dues oldest first; what is left is kept as credit. A due money reaches gets its invoice. The receipt e-mail and the payment.received webhook are queued.",
            refusals: {
              400: ["the student has no fee account (not enrolled)", "reference is missing for a method other than cash", "receivedOn is in the future"],
              409: ["the same formKey was posted before"],
            },
            access: "staff",
            ok: 201,
            data: Payment,
            body: PaymentInput,
            path: true,
            extra: [409],
          }),
        },
        "/api/enquiries/{id}/concessions": {
          post: op("post", {
            summary: "Ask for a scholarship or concession (applied when an admin approves it)",
            refusals: { 400: ["the student has no fee account (not enrolled)"] },
            access: "staff",
            ok: 201,
            data: Concession,
            body: ConcessionInput,
            path: true,
          }),
        },
        "/api/concessions/{id}": {
          put: op("put", {
            summary: "Approve or reject a concession (admins)",
            description: "Approved, it lowers the dues not yet invoiced or paid, the latest first.",
            refusals: { 400: ["the concession is more than the dues not yet invoiced or paid"], 409: ["it was already decided"] },
            access: "staff",
            ok: 200,
            data: Concession,
            body: ConcessionDecision,
            path: true,
            extra: [403, 409],
          }),
        },
        "/api/dues": {
          get: op("get", {
            summary: "Open dues of enrolled students, oldest date first",
            access: "staff",
            ok: 200,
            data: DueRow,
            list: true,
            query: dueListParams,
          }),
        },
        "/api/invoices": {
          get: op("get", { summary: "Invoices and credit notes, newest first", access: "staff", ok: 200, data: Invoice, list: true, query: invoiceListParams }),
        },
        "/api/invoices/{id}": { get: op("get", { summary: "Read an invoice or credit note", access: "staff", ok: 200, data: Invoice, path: true }) },
        "/api/invoices/{id}/credit-note": {
          post: op("post", {
            summary: "Cancel an invoice with a credit note and a reason (admins); answers the credit note",
            description: "The due is left without an invoice, so a corrected one can be issued.",
            refusals: { 409: ["the invoice is already cancelled"] },
            access: "staff",
            ok: 201,
            data: Invoice,
            body: CreditNoteInput,
            path: true,
            extra: [403, 409],
          }),
        },
        "/api/payments": {
          get: op("get", { summary: "Payments, newest first", access: "staff", ok: 200, data: Payment, list: true, query: paymentListParams }),
        },
        "/api/payments/{id}": { get: op("get", { summary: "Read a payment", access: "staff", ok: 200, data: Payment, path: true }) },
        "/api/payments/{id}/reversal": {
          post: op("post", {
            summary: "Reverse a payment with a reason (never edited)",
            refusals: { 409: ["it was already reversed, or it has refunds, or it came through Razorpay (refund it instead)"] },
            access: "staff",
            ok: 200,
            data: Payment,
            body: ReversalInput,
            path: true,
            extra: [409],
          }),
        },
        "/api/payments/{id}/refunds": {
          post: op("post", {
            summary: "Give money back on a payment: recorded (given by bank or in cash), or for a Razorpay payment refunded at Razorpay",
            refusals: { 400: ["amountPaise is more than is left of the payment", "Razorpay refused the refund"], 409: ["the payment was reversed"] },
            access: "staff",
            ok: 201,
            data: Refund,
            body: RefundInput,
            path: true,
            extra: [409],
          }),
        },
        "/api/refunds": { get: op("get", { summary: "Refunds, newest first", access: "staff", ok: 200, data: Refund, list: true, query: refundListParams }) },
        "/api/users": { get: op("get", { summary: "List users, newest first", access: "admin", ok: 200, data: User, list: true, query: userListParams }) },
        "/api/users/{id}": {
          get: op("get", { summary: "Read a user", access: "admin", ok: 200, data: User, path: true, versioned: true }),
          put: op("put", {
            summary: "Edit a user (admins), or change a password (currentPassword + password, without name and email)",
            description:
              "Any signed-in user may change their own password, with no version; everything else is for admins (403). When the caller's own password changed, the answer carries a fresh token: the old ones no longer work.",
            access: "staff",
            ok: 200,
            body: z.union([UserUpdate, PasswordChange]),
            answer: z.object({ data: User, token: text.optional().meta({ description: "Present when the caller changed their own password" }) }),
            path: true,
            versioned: true,
            extra: [403, 409, 429],
            refusals: {
              400: [
                "the caller changes their own password and currentPassword is missing or wrong (wrong ones are throttled like a sign-in: 429)",
                "confirmPassword is sent and differs from password",
                "the new password is one of the 10,000 most common passwords",
              ],
              409: ["another user has this email"],
            },
          }),
          delete: op("delete", { summary: "Delete a user", description: "Never one's own account (403).", access: "admin", ok: 204, path: true }),
        },
      },
    }),
  );
}

/**
 * Every operation gets its tag (TAGS; a path none of them covers stops the build, as Spectral's operation-tags
 * rule would flag it) and an operationId (code generators and Schemathesis name things by it): the method and the
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
    const tag = TAGS.find((t) => path.startsWith(t.prefix))?.name;
    if (!tag) throw new Error(`No tag in TAGS covers ${path}`);
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (["get", "put", "post", "delete", "patch"].includes(method) && operation && typeof operation === "object") {
        const o = operation as { operationId?: string; tags?: string[] };
        o.operationId ??= `${method}${words}`;
        o.tags ??= [tag];
      }
    }
  }
  return doc;
}
