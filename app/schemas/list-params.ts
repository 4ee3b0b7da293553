import * as z from "zod/mini";
import { auditLogFilterSchema } from "./audit-log";
import { cleanText, optionalDay, preprocess } from "./fields";
import {
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

/**
 * The query parameters of the API's lists (GET /api/courses?page=2&category=advanced …), one schema per list:
 * the routes check a request with it (app/web/api.server.ts listQuery) and the OpenAPI document lists it, so
 * both say the same. A parameter that is empty or only spaces counts as absent; values are trimmed.
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
    (v) => {
      const t = trimmed(v);
      return typeof t === "string" && /^\d+$/.test(t) ? Number(t) : t;
    },
    z.optional(z.int({ error: message }).check(z.minimum(1, message), z.maximum(max, message), z.describe(description))),
  );
}

const paging = {
  page: wholeParam("page", MAX_PAGE, "Page number, from 1 (default 1)"),
  limit: wholeParam("limit", MAX_LIMIT, `Records per page, at most ${MAX_LIMIT} (default 20)`),
};

function oneOfParam<const T extends readonly [string, ...string[]]>(name: string, values: T, description?: string) {
  const check = z.enum(values, { error: `${name} must be one of ${oneOf(values)}` });
  return preprocess(trimmed, z.optional(description ? check.check(z.describe(description)) : check));
}

function textParam(name: string, description: string) {
  return preprocess(
    trimmed,
    z.optional(z.string().check(z.maxLength(MAX_FILTER_LENGTH, `${name} must be at most ${MAX_FILTER_LENGTH} characters`), z.describe(description))),
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
  mode: oneOfParam("mode", DELIVERY_MODES),
  q: textParam("q", "Search in name, e-mail and phone"),
  assignee: textParam("assignee", "mine (the caller), none (unassigned) or a user id"),
  followUp: oneOfParam("followUp", FOLLOW_UP_FILTERS, "due: a follow-up today (Hyderabad); overdue: past while New or Contacted; none: no follow-up set"),
  source: textParam("source", "The source label: the UTM source, else the referring site, else direct"),
  form: oneOfParam("form", ENQUIRY_FORMS, "Which form it came from"),
  from: optionalDay("Received from the start of this day in Hyderabad (IST)"),
  to: optionalDay("Received up to the end of this day in Hyderabad (IST), included"),
});

export const contactQueryListParams = z.object({
  ...paging,
  status: oneOfParam("status", CONTACT_STATUSES),
  q: textParam("q", "Search in name, e-mail and phone"),
});

export const userListParams = z.object(paging);

export const outboxListParams = z.object({ ...paging, status: oneOfParam("status", OUTBOX_STATUSES, "waiting: e-mails made while SMTP_URL was unset") });

/** The audit log's filters are the screen's (app/schemas/audit-log.ts); the date order is checked by the service. */
export const auditLogListParams = z.object({ ...paging, ...auditLogFilterSchema.shape });
