import * as z from "zod/mini";
import { auditLogFilterSchema } from "./audit-log";
import { apiDay, cleanText, preprocess } from "./fields";
import {
  AUDIT_ENTITY_TYPES,
  COURSE_CATEGORIES,
  CONTACT_STATUSES,
  DELIVERY_MODES,
  ENQUIRY_FORMS,
  ENQUIRY_STATUSES,
  FOLLOW_UP_FILTERS,
  oneOf,
  OUTBOX_STATUSES,
  PUBLICATION_STATES,
  REVIEW_STATUSES,
} from "./values";
import { FEE_VIEWS, INVOICE_KINDS, PAYMENT_METHODS } from "./fee-values";

/**
 * The query parameters of the API's lists (GET /api/courses?page=2&category=advanced …), one schema per list:
 * the routes check a request with it (app/web/api.server.ts listQuery) and the OpenAPI document lists it, so
 * both say the same. A parameter is taken as sent: a number, a choice or a day that is present must be one (an
 * empty `status=` or `from=` is a 400 naming the rule, as the document says; leave a filter out for none). A text
 * filter may be empty or only spaces, which counts as absent; it is trimmed.
 */

export const MAX_PAGE = 1_000_000;
export const MAX_LIMIT = 100;
export const MAX_FILTER_LENGTH = 200;

const trimmed = (v: unknown) => {
  if (typeof v !== "string") return v;
  // Cleaned like any text: a filter is shown again in its field, and a control character would make the page invalid.
  const t = cleanText(v, false).trim();
  return t === "" ? undefined : t;
};

/** A whole number from 1 to `max`, written in digits; anything else is a 400 naming the range. */
function wholeParam(name: string, max: number, description: string) {
  const message = `${name} must be a whole number from 1 to ${max}`;
  return preprocess(
    (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
    z.optional(z.int({ error: message }).check(z.minimum(1, message), z.maximum(max, message), z.describe(description))),
  );
}

const paging = {
  page: wholeParam("page", MAX_PAGE, "Page number, from 1 (default 1)"),
  limit: wholeParam("limit", MAX_LIMIT, `Records per page, at most ${MAX_LIMIT} (default 20)`),
};

function oneOfParam<const T extends readonly [string, ...string[]]>(name: string, values: T, description?: string) {
  const check = z.enum(values, { error: `${name} must be one of ${oneOf(values)}` });
  return z.optional(description ? check.check(z.describe(description)) : check);
}

/** A text filter: at most MAX_FILTER_LENGTH characters as sent (the document's maxLength), then cleaned and trimmed; blank is absent. */
function textParam(name: string, description: string) {
  return z.pipe(
    z.optional(z.string().check(z.maxLength(MAX_FILTER_LENGTH, `${name} must be at most ${MAX_FILTER_LENGTH} characters`), z.describe(description))),
    z.transform((v) => trimmed(v) as string | undefined),
  );
}

const BOOLEAN_TEXT = ["true", "false"] as const;

/** Staff only: one publication state. Anonymous callers always get published records only, whatever it says. */
const stateParam = oneOfParam("state", PUBLICATION_STATES, "Staff only: draft, scheduled or published; anonymous callers always get published records only");

export const courseListParams = z.object({
  ...paging,
  category: oneOfParam("category", COURSE_CATEGORIES),
  featured: oneOfParam("featured", BOOLEAN_TEXT),
  state: stateParam,
});

export const scheduleListParams = z.object({
  ...paging,
  mode: oneOfParam("mode", DELIVERY_MODES, "online or offline also lists hybrid batches"),
  course: textParam("course", "A course id"),
  upcoming: oneOfParam("upcoming", BOOLEAN_TEXT, "true: only batches that have not ended"),
  state: stateParam,
});

export const reviewListParams = z.object({
  ...paging,
  status: oneOfParam("status", REVIEW_STATUSES, "Staff only; anonymous callers always get approved reviews"),
  course: textParam("course", "Part of the course name"),
  state: stateParam,
});

export const enquiryListParams = z.object({
  ...paging,
  status: oneOfParam("status", ENQUIRY_STATUSES),
  course: textParam("course", "The preferred course, exactly"),
  batch: textParam("batch", "A batch's id (GET /api/schedules): the enquiries for that batch"),
  mode: oneOfParam("mode", DELIVERY_MODES),
  q: textParam("q", "Search in name, e-mail and phone; an enquiry reference (ENQ-3F9A12BC) finds exactly that enquiry"),
  assignee: textParam("assignee", "mine (the caller), none (unassigned) or a user id"),
  followUp: oneOfParam("followUp", FOLLOW_UP_FILTERS, "due: a follow-up today (Hyderabad); overdue: past while New or Contacted; none: no follow-up set"),
  source: textParam("source", "The source label: the UTM source, else the referring site, else direct"),
  form: oneOfParam("form", ENQUIRY_FORMS, "Which form it came from"),
  from: apiDay("Received from the start of this day in Hyderabad (IST)"),
  to: apiDay("Received up to the end of this day in Hyderabad (IST), included"),
});

export const contactQueryListParams = z.object({
  ...paging,
  status: oneOfParam("status", CONTACT_STATUSES),
  q: textParam("q", "Search in name, e-mail and phone"),
});

export const userListParams = z.object(paging);

export const outboxListParams = z.object({ ...paging, status: oneOfParam("status", OUTBOX_STATUSES, "waiting: e-mails made while SMTP_URL was unset") });

/**
 * The audit log's filters are the screen's (app/schemas/audit-log.ts), taken as sent like every list's (the screen's
 * form sends its empty fields, an API caller leaves them out); the date order is checked by the service.
 */
export const auditLogListParams = z.object({
  ...paging,
  user: auditLogFilterSchema.shape.user,
  entityType: z.optional(z.enum(AUDIT_ENTITY_TYPES, { error: `entityType must be one of ${oneOf(AUDIT_ENTITY_TYPES)}` })),
  from: apiDay("From the start of this day in Hyderabad (IST)"),
  to: apiDay("Up to the end of this day in Hyderabad (IST), included; not before from"),
});

/** Fees (issue 38): invoices and credit notes by kind and financial year; payments by method and days received. */
export const invoiceListParams = z.object({
  ...paging,
  kind: oneOfParam("kind", INVOICE_KINDS, "tax_invoice, invoice (no GSTIN: no tax lines) or credit_note"),
  fy: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}$/, "fy must be a financial year such as 2026-27"), z.describe("Financial year, such as 2026-27"))),
});
export const paymentListParams = z.object({
  ...paging,
  method: oneOfParam("method", PAYMENT_METHODS),
  from: apiDay("Received on or after this day (Hyderabad)"),
  to: apiDay("Received on or before this day (Hyderabad)"),
});
export const refundListParams = z.object(paging);
export const dueListParams = z.object({
  ...paging,
  view: oneOfParam("view", FEE_VIEWS, "overdue (default), today, upcoming (30 days) or all open dues"),
  scheduleId: textParam("scheduleId", "Only this batch's students"),
  course: textParam("course", "Only this course's students (its title)"),
});
