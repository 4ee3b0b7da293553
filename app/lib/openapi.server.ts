import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from "zod-openapi";
import { contactSchema } from "~/schemas/contact";
import { CONTACT_STATUSES, contactStatusSchema } from "~/schemas/contact-query";
import { COURSE_CATEGORIES, courseSchema } from "~/schemas/course";
import { ENQUIRY_STATUSES, enquiryApiSchema, enquiryStatusSchema, enquiryUpdateSchema, PREFERRED_MODES } from "~/schemas/enquiry";
import { loginSchema } from "~/schemas/login";
import { reviewSchema } from "~/schemas/review";
import { SCHEDULE_MODES, scheduleSchema } from "~/schemas/schedule";
import { USER_ROLES, userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { MAX_LIMIT } from "~/models/paging.server";

/**
 * The OpenAPI 3.1 description of /api, generated from the same zod schemas that validate the requests,
 * so the document cannot drift from the rules. Records are those schemas plus the stored fields.
 */

/** A classic zod object over one of app/schemas' zod/mini objects, for classic's .extend/.partial/.meta (the document only). */
const classic = <Shape extends z.core.$ZodLooseShape>(schema: { shape: Shape }) => z.object(schema.shape);

const stored = { id: z.string(), createdAt: z.string().meta({ format: "date-time" }), updatedAt: z.string().meta({ format: "date-time" }) };
const text = z.string();
// Request schemas lower-case the e-mail with a transform, which has no JSON Schema form on the output side.
const email = z.string().meta({ format: "email" });

const Course = classic(courseSchema)
  .extend({ ...stored, slug: text, duration: text, syllabus: text, syllabusFileName: text, image: text.nullable(), syllabusFile: text.nullable() })
  .meta({ id: "Course" });
const Schedule = z
  .object({ ...scheduleSchema.shape, ...stored, courseName: text.meta({ description: "Copied from the course's title on save" }) })
  .meta({ id: "Schedule" });
const Review = classic(reviewSchema).extend({ ...stored, linkedin: text.nullable(), videoThumbnail: text.nullable() }).meta({ id: "Review" });
const Enquiry = classic(enquiryApiSchema)
  .extend({
    ...stored,
    email,
    message: text,
    status: enquiryStatusSchema.shape.status,
    filePaths: z.array(text).meta({ description: "Attachments sent from the /enquiry page; not settable through the API" }),
  })
  .meta({ id: "Enquiry" });
const ContactQuery = classic(contactSchema).extend({ ...stored, email, phone: text.nullable(), subject: text.nullable(), status: contactStatusSchema.shape.status }).meta({ id: "ContactQuery" });
const User = z.object({ ...stored, name: text, email, role: z.enum(USER_ROLES) }).meta({ id: "User" });

const ApiError = z
  .object({
    error: z.object({
      code: text.meta({ example: "invalid_input" }),
      message: text,
      fields: z.record(z.string(), z.string()).optional().meta({ description: "The rule's message per invalid field" }),
    }),
  })
  .meta({ id: "Error" });

// Fields the server fills in when they are missing, so a client may leave them out.
const CourseInput = classic(courseSchema).partial({ featured: true, highlights: true, modes: true, schedules: true }).meta({ id: "CourseInput" });
// modes: online, offline, hybrid (others are dropped, as on the Manage Courses screen).
const CourseMultipart = CourseInput.extend({
  image: z.string().meta({ format: "binary", description: "A new image (JPEG, PNG, GIF, WebP; under 5 MB), or text: \"\" removes the image" }).optional(),
  syllabusFile: z.string().meta({ format: "binary", description: "A new syllabus (PDF, DOC, DOCX; under 10 MB), or text: \"\" removes it" }).optional(),
}).meta({ description: "Lists are sent as indexed entries: highlights[0], highlights[1], modes[0], schedules[0] …" });
const CourseJson = CourseInput.extend({
  image: text.nullable().optional().meta({ description: "Absent or the current URL keeps the image; \"\" or null removes it. New files go in a multipart body." }),
  syllabusFile: text.nullable().optional().meta({ description: "Absent or the current URL keeps the file; \"\" or null removes it." }),
});
const EnquiryInput = classic(enquiryApiSchema).partial({ whatsappNotifications: true }).meta({ id: "EnquiryInput" });
const EnquiryUpdate = classic(enquiryUpdateSchema).partial({ whatsappNotifications: true }).meta({ id: "EnquiryUpdate" });
const ReviewInput = classic(reviewSchema).partial({ type: true, approved: true }).meta({ id: "ReviewInput" });
const UserCreate = classic(userCreateSchema).partial({ role: true });
const UserUpdate = classic(userUpdateSchema)
  .partial({ role: true })
  .extend({
    currentPassword: text.optional().meta({ description: "With password: the caller changes their own password; other fields are then ignored" }),
    newPassword: text.optional().meta({ description: "Accepted in place of password when changing one's own password" }),
    confirmPassword: text.optional().meta({ description: "When sent with a password change, must equal the new password" }),
  });

const idParam = z.object({ id: z.string() });
const paging = { page: z.coerce.number().int().min(1).optional(), limit: z.coerce.number().int().min(1).max(MAX_LIMIT).optional() };

type Access = "public" | "optional" | "staff" | "admin";
type Op = {
  summary: string;
  access: Access;
  ok: number;
  data?: z.ZodType;
  list?: boolean;
  body?: z.ZodType;
  multipart?: z.ZodType;
  query?: z.ZodObject;
  path?: boolean;
  extra?: number[];
};

const ERRORS: Record<number, string> = {
  400: "Invalid input: fields carry the messages",
  401: "No or bad credentials",
  403: "Wrong role",
  404: "Unknown id",
  409: "E-mail already taken",
  413: "Too large",
  415: "Wrong file type (judged by the content)",
  429: "Rate limited (see Retry-After)",
};

const listOf = (item: z.ZodType) => z.object({ data: z.array(item), page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() });

function op(o: Op): ZodOpenApiOperationObject {
  const codes = new Set<number>(o.extra ?? []);
  if (o.body || o.multipart || o.query) codes.add(400);
  if (o.access !== "public") codes.add(401);
  if (o.access === "admin") codes.add(403);
  if (o.path) codes.add(404);
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  responses[String(o.ok)] =
    o.ok === 204
      ? { description: "Done" }
      : { description: "Success", content: { "application/json": { schema: o.list ? listOf(o.data!) : o.data ? z.object({ data: o.data }) : z.object({}) } } };
  for (const code of [...codes].sort()) responses[String(code)] = { description: ERRORS[code], content: { "application/json": { schema: ApiError } } };
  const content: Record<string, { schema: z.ZodType }> = {};
  if (o.body) content["application/json"] = { schema: o.body };
  if (o.multipart) content["multipart/form-data"] = { schema: o.multipart };
  return {
    summary: o.summary,
    ...(o.access === "public" ? { security: [] } : o.access === "optional" ? { security: [{}, { bearer: [] }, { cookie: [] }] } : {}),
    ...(o.access === "admin" ? { description: "Admins only." } : {}),
    ...(o.query || o.path ? { requestParams: { ...(o.query ? { query: o.query } : {}), ...(o.path ? { path: idParam } : {}) } } : {}),
    ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
}

function crud(
  name: string,
  one: string,
  record: z.ZodType,
  body: z.ZodType,
  query: z.ZodObject,
  access: { read: Access; create: Access },
  extra: { multipart?: z.ZodType; update?: z.ZodType } = {},
): ZodOpenApiPathsObject {
  return {
    [`/api/${name}`]: {
      get: op({ summary: `List ${name}, newest first`, access: access.read, ok: 200, data: record, list: true, query }),
      post: op({ summary: `Create a ${one}`, access: access.create, ok: 201, data: record, body, multipart: extra.multipart, extra: extra.multipart ? [413, 415] : [429] }),
    },
    [`/api/${name}/{id}`]: {
      get: op({ summary: `Read a ${one}`, access: access.read, ok: 200, data: record, path: true }),
      put: op({ summary: `Replace a ${one}`, access: "staff", ok: 200, data: record, body: extra.update ?? body, multipart: extra.multipart, path: true, extra: extra.multipart ? [413, 415] : [] }),
      delete: op({ summary: `Delete a ${one}`, access: "staff", ok: 204, path: true }),
    },
  };
}

const statusBody = (schema: z.ZodType) => ({ summary: "Set the status", access: "staff" as const, ok: 200, body: schema, path: true });

export function buildOpenApiDocument(serverUrl = "/") {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "SOC Analyst training institute API",
      version: "1.0.0",
      description: "JSON REST API of the institute's website and back office. Errors answer { error: { code, message, fields? } }.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }, { cookie: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The token from POST /api/auth/login" },
        cookie: { type: "apiKey", in: "cookie", name: "__session", description: "The back office's session; writes must be same-origin" },
      },
    },
    paths: {
      ...crud("courses", "course", Course, CourseJson, z.object({ ...paging, category: z.enum(COURSE_CATEGORIES).optional(), featured: z.enum(["true", "false"]).optional() }), { read: "public", create: "staff" }, { multipart: CourseMultipart }),
      ...crud("schedules", "schedule", Schedule, classic(scheduleSchema), z.object({ ...paging, mode: z.enum(SCHEDULE_MODES).optional(), course: text.optional(), upcoming: z.enum(["true", "false"]).optional() }), { read: "public", create: "staff" }),
      ...crud("reviews", "review", Review, ReviewInput, z.object({ ...paging, status: z.enum(["approved", "pending"]).optional().meta({ description: "Staff only; anonymous callers always get approved reviews" }), course: text.optional() }), { read: "optional", create: "staff" }),
      "/api/reviews/{id}/approve": { put: op({ summary: "Approve a review (no body)", access: "staff", ok: 200, data: Review, path: true }) },
      ...crud("enquiries", "enquiry", Enquiry, EnquiryInput, z.object({ ...paging, status: z.enum(ENQUIRY_STATUSES).optional(), course: text.optional(), mode: z.enum(PREFERRED_MODES).optional(), q: text.optional() }), { read: "staff", create: "public" }, { update: EnquiryUpdate }),
      "/api/enquiries/{id}/status": { put: op({ ...statusBody(classic(enquiryStatusSchema)), data: Enquiry }) },
      "/api/contact-queries": {
        get: op({ summary: "List contact queries, newest first", access: "staff", ok: 200, data: ContactQuery, list: true, query: z.object({ ...paging, status: z.enum(CONTACT_STATUSES).optional(), q: text.optional() }) }),
        post: op({ summary: "Send a contact query", access: "public", ok: 201, data: ContactQuery, body: classic(contactSchema), extra: [429] }),
      },
      "/api/contact-queries/{id}": {
        get: op({ summary: "Read a contact query", access: "staff", ok: 200, data: ContactQuery, path: true }),
        delete: op({ summary: "Delete a contact query", access: "staff", ok: 204, path: true }),
      },
      "/api/contact-queries/{id}/status": { put: op({ ...statusBody(classic(contactStatusSchema)), data: ContactQuery }) },
      "/api/auth/login": {
        post: {
          ...op({ summary: "Sign in for a bearer token", access: "public", ok: 200, body: classic(loginSchema), extra: [401, 429] }),
          responses: {
            "200": {
              description: "Signed in",
              content: { "application/json": { schema: z.object({ token: text, expiresIn: z.number().int(), user: User.pick({ id: true, name: true, email: true, role: true }) }) } },
            },
            ...Object.fromEntries([400, 401, 429].map((c) => [String(c), { description: ERRORS[c], content: { "application/json": { schema: ApiError } } }])),
          },
        },
      },
      "/api/auth/register": { post: op({ summary: "Create a staff user", access: "admin", ok: 201, data: User, body: UserCreate, extra: [409] }) },
      "/api/auth/me": { get: op({ summary: "The signed-in user", access: "staff", ok: 200, data: User }) },
      "/api/auth/logout": { post: op({ summary: "Sign out: ends the token sent (or this browser session); other sessions go on", access: "staff", ok: 204 }) },
      "/api/auth/users/{id}": { get: op({ summary: "Read a user", access: "admin", ok: 200, data: User, path: true }) },
      "/api/users": { get: op({ summary: "List users, newest first", access: "admin", ok: 200, data: User, list: true, query: z.object(paging) }) },
      "/api/users/{id}": {
        get: op({ summary: "Read a user", access: "admin", ok: 200, data: User, path: true }),
        put: op({ summary: "Edit a user (admins), or change one's own password (currentPassword + password)", access: "staff", ok: 200, data: User, body: UserUpdate, path: true, extra: [403, 409, 429] }),
        delete: op({ summary: "Delete a user (never one's own account)", access: "admin", ok: 204, path: true }),
      },
    },
  });
}
