import { type AuditAction, type AuditEntityType } from "~/schemas/values";
import type { Selectable } from "kysely";
import { db } from "~db/client.server";
import type { AuditLogTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import { pageBounds, toPage, type Page, type PageInput } from "./paging.server";

export type AuditEntry = {
  id: string;
  at: string;
  userId: string | null;
  userName: string;
  ip: string;
  requestId: string;
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string | null;
  summary: string;
};

export type AuditEntryInput = Omit<AuditEntry, "id" | "at">;

const toEntry = (row: Selectable<AuditLogTable>): AuditEntry => ({ ...row, action: row.action as AuditAction, entityType: row.entityType as AuditEntityType });

/** Adds one row; inside inTransaction() it commits or rolls back with the change it records. */
export async function insertAuditEntry(input: AuditEntryInput): Promise<void> {
  await db()
    .insertInto("audit_log")
    .values({
      id: newId(),
      at: nowIso(),
      userId: input.userId,
      userName: input.userName.slice(0, 254),
      ip: input.ip.slice(0, 64),
      requestId: input.requestId.slice(0, 32),
      action: input.action,
      entityType: input.entityType,
      entityId: input.entityId?.slice(0, 64) ?? null,
      summary: input.summary.slice(0, 1000),
    })
    .execute();
}

export type AuditLogFilter = PageInput & {
  userId?: string;
  entityType?: string;
  /** ISO instants: at >= from, at < before. */
  from?: string;
  before?: string;
};

/** Newest first, paged. */
export async function listAuditEntries(filter: AuditLogFilter = {}): Promise<Page<AuditEntry>> {
  const { page, limit, offset } = pageBounds(filter);
  let q = db().selectFrom("audit_log");
  if (filter.userId) q = q.where("userId", "=", filter.userId);
  if (filter.entityType) q = q.where("entityType", "=", filter.entityType);
  if (filter.from) q = q.where("at", ">=", filter.from);
  if (filter.before) q = q.where("at", "<", filter.before);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return toPage(rows.map(toEntry), Number(count.n), page, limit);
}

/** The people who appear in the log (current and deleted users), for the screen's user filter. */
export async function listAuditUsers(): Promise<{ userId: string; userName: string }[]> {
  const rows = await db()
    .selectFrom("audit_log")
    .select(["userId", (eb) => eb.fn.max("userName").as("userName")])
    .where("userId", "is not", null)
    .groupBy("userId")
    .orderBy("userName")
    .limit(500)
    .execute();
  return rows.map((r) => ({ userId: r.userId!, userName: String(r.userName ?? "") }));
}
