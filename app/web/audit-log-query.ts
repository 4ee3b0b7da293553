import * as z from "zod/mini";
import { auditLogFilterSchema, type AuditLogFilterValues } from "~/schemas/audit-log";
import { readListQuery } from "./list-query";

export const AUDIT_FILTER_PARAMS = ["user", "entityType", "from", "to"] as const;
export type AuditFilterParam = (typeof AUDIT_FILTER_PARAMS)[number];

export type AuditLogScreenQuery =
  | { ok: true; page: number; filter: AuditLogFilterValues; raw: Partial<Record<AuditFilterParam, string>> }
  | { ok: false; page: number; errors: Partial<Record<AuditFilterParam, string>>; raw: Partial<Record<AuditFilterParam, string>> };

/**
 * The audit log screen's URL (?user=&entityType=&from=&to=&page=), read with the same schema as the API. A bad
 * value is reported per field instead of being dropped, so the screen never shows an unfiltered list as if
 * it were the filtered one.
 */
export function readAuditLogQuery(url: URL): AuditLogScreenQuery {
  const { page } = readListQuery(url, []);
  const raw: Partial<Record<AuditFilterParam, string>> = {};
  for (const key of AUDIT_FILTER_PARAMS) {
    const value = url.searchParams.get(key)?.trim();
    if (value) raw[key] = value.slice(0, 100);
  }
  const result = z.safeParse(auditLogFilterSchema, raw);
  if (result.success) return { ok: true, page, filter: result.data, raw };
  const errors: Partial<Record<AuditFilterParam, string>> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "from") as AuditFilterParam;
    errors[key] ??= issue.message;
  }
  return { ok: false, page, errors, raw };
}
