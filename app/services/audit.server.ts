import { type AuditAction, type AuditEntityType } from "~/schemas/values";
import { formatDate, formatDateTime, siteDayStartUtc, nextDay } from "~/util/dates";
import { insertAuditEntry, listAuditEntries, listAuditUsers, type AuditEntry } from "~/models/audit-log.server";
import type { Page } from "~/models/paging.server";
import { requireAdmin, type Actor, type StaffActor } from "./actor";
import { parseInput } from "./validation";
import { auditLogFilterSchema } from "~/schemas/audit-log";

/**
 * The audit log: one row per staff write, sign-in and sign-out. Services call record() inside the
 * transaction of the change, so the row and the change commit (or roll back) together.
 */
export async function record(
  actor: Actor,
  action: AuditAction,
  entityType: AuditEntityType,
  entityId: string | null,
  summary = "",
  who: { userId: string | null; userName: string } = { userId: actor.user?.id ?? null, userName: actor.user?.name ?? "" },
): Promise<void> {
  await insertAuditEntry({ ...who, ip: actor.ip, requestId: actor.requestId ?? "", action, entityType, entityId, summary });
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A value as a person reads it in the audit log: Yes/No, Hyderabad times, days as "Jan 5, 2027", lists joined, long text cut. */
function readable(v: unknown): string {
  if (v === null || v === undefined || v === "") return "(empty)";
  if (typeof v === "boolean") return v ? "Yes" : "No";
  if (Array.isArray(v)) return readable(v.join(", "));
  const text = String(v);
  if (ISO_INSTANT.test(text)) return `${formatDateTime(text)} IST`;
  if (CALENDAR_DAY.test(text)) return formatDate(text);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * What differs between two versions of a record, by the labels staff see on the screens (`labels` maps each field
 * worth telling to its label, in order): "Changed Total seats: 30 → 31; Description". Short values are given,
 * long texts and files only named; never passwords, hashes or ids.
 */
export function changeSummary<T extends Record<string, unknown>>(before: T, after: T, labels: Partial<Record<keyof T & string, string>>): string {
  const parts: string[] = [];
  for (const [field, label] of Object.entries(labels) as [keyof T & string, string][]) {
    const a = before[field];
    const b = after[field];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const scalar = (v: unknown) => v === null || v === undefined || typeof v !== "object";
    const short = (v: unknown) => String(v ?? "").length <= 40 || ISO_INSTANT.test(String(v));
    parts.push(scalar(a) && scalar(b) && short(a) && short(b) ? `${label}: ${readable(a)} → ${readable(b)}` : label);
  }
  return parts.length ? `Changed ${parts.join("; ")}` : "No changes";
}

export type AuditLogQuery = { page?: number; limit?: number; user?: unknown; entityType?: unknown; from?: unknown; to?: unknown };

/** Admins only: editors may not read who did what. `from`/`to` are Hyderabad calendar days, both included. */
export async function listAuditLog(actor: StaffActor, query: AuditLogQuery): Promise<Page<AuditEntry>> {
  requireAdmin(actor);
  const { page, limit, ...raw } = query;
  const filter = parseInput(auditLogFilterSchema, raw);
  return listAuditEntries({
    page,
    limit,
    userId: filter.user,
    entityType: filter.entityType,
    from: filter.from ? siteDayStartUtc(filter.from) : undefined,
    before: filter.to ? siteDayStartUtc(nextDay(filter.to)) : undefined,
  });
}

export async function auditLogUsers(actor: StaffActor): Promise<{ userId: string; userName: string }[]> {
  requireAdmin(actor);
  return listAuditUsers();
}
