import * as z from "zod/mini";
import { blankToUndefined, optionalDay, preprocess } from "./fields";
import { AUDIT_ENTITY_TYPES, oneOf } from "./values";

export const AUDIT_LOG_LOAD_FAILED = "Failed to load the audit log. Please try again.";
export const AUDIT_LOG_EMPTY = "No audit entries found for the selected filter.";
export const AUDIT_LOG_DATE_ORDER = "The to date cannot be before the from date";

/**
 * The audit log's filters, on the screen (/admin/audit-log) and in the API (GET /api/audit-log). A form
 * sends its empty fields as "": those mean "no filter". `from`/`to` are Hyderabad days, both included.
 */
export const auditLogFilterSchema = z
  .object({
    user: preprocess(
      blankToUndefined,
      z.optional(z.string().check(z.maxLength(36, "user must be at most 36 characters"), z.describe("A user id: only what this user did"))),
    ),
    entityType: preprocess(blankToUndefined, z.optional(z.enum(AUDIT_ENTITY_TYPES, { error: `entityType must be one of ${oneOf(AUDIT_ENTITY_TYPES)}` }))),
    from: optionalDay("YYYY-MM-DD: from the start of this day in Hyderabad (IST)"),
    to: optionalDay("YYYY-MM-DD: up to the end of this day in Hyderabad (IST), included; not before from"),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.from && v.to && v.to < v.from) ctx.addIssue({ code: "custom", path: ["to"], message: AUDIT_LOG_DATE_ORDER });
    }),
  );
export type AuditLogFilterValues = z.infer<typeof auditLogFilterSchema>;
