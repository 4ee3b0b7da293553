import { type AuditAction, type AuditEntityType } from "~/schemas/values";
import { siteDayStartUtc, nextDay } from "~/util/dates";
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

/** Field names (and short values) that differ between two versions of a record; never passwords or hashes. */
export function changeSummary<T extends Record<string, unknown>>(before: T, after: T, fields: readonly (keyof T & string)[]): string {
  const parts: string[] = [];
  for (const field of fields) {
    const a = before[field];
    const b = after[field];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const short = (v: unknown) => {
      const text = Array.isArray(v) ? v.join(", ") : v === null || v === undefined ? "" : String(v);
      return text.length > 40 ? `${text.slice(0, 37)}...` : text;
    };
    const scalar = (v: unknown) => v === null || v === undefined || typeof v !== "object";
    parts.push(
      scalar(a) && scalar(b) && String(a ?? "").length <= 40 && String(b ?? "").length <= 40
        ? `${field}: ${short(a) || "(empty)"} → ${short(b) || "(empty)"}`
        : field,
    );
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
