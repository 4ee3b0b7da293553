import { sql, type Selectable } from "kysely";
import { db } from "~db/client.server";
import type { OutboxTable } from "~db/schema";
import { newId, newTimeOrderedId, nowIso } from "~/util/ids";
import type { OutboxEvent, OutboxKind, OutboxStatus } from "~/schemas/values";
import { pageBounds, toPage, type Page, type PageInput } from "./paging.server";

/** The outbox table (migration 0007): e-mails and webhooks to deliver. Every claim and outcome is one conditional UPDATE. */

export type OutboxMessage = {
  id: string;
  kind: OutboxKind;
  event: OutboxEvent;
  recipient: string;
  subject: string;
  entityType: string | null;
  entityId: string | null;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  lastAttemptAt: string | null;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A claimed row with what the worker needs to deliver it. */
export type OutboxDelivery = OutboxMessage & { template: string; payload: string; retryUntil: string; leaseToken: string };

export type OutboxInput = {
  kind: OutboxKind;
  event: OutboxEvent;
  template?: string;
  recipient: string;
  subject: string;
  payload: string;
  entityType?: string;
  entityId?: string;
  status: "pending" | "waiting" | "failed";
  lastError?: string;
  retryUntil: string;
};

const PUBLIC_COLUMNS = [
  "id",
  "kind",
  "event",
  "recipient",
  "subject",
  "entityType",
  "entityId",
  "status",
  "attempts",
  "lastError",
  "nextAttemptAt",
  "lastAttemptAt",
  "sentAt",
  "createdAt",
  "updatedAt",
] as const;

function toMessage(row: Pick<Selectable<OutboxTable>, (typeof PUBLIC_COLUMNS)[number]>): OutboxMessage {
  return { ...row, kind: row.kind as OutboxKind, event: row.event as OutboxEvent, status: row.status as OutboxStatus, attempts: Number(row.attempts) };
}

/** Adds messages; inside inTransaction() they commit or roll back with the submission they are about. */
export async function insertOutboxMessages(inputs: OutboxInput[]): Promise<string[]> {
  if (!inputs.length) return [];
  const now = nowIso();
  const rows = inputs.map((m) => ({
    id: newTimeOrderedId(),
    kind: m.kind,
    event: m.event,
    template: m.template ?? "",
    recipient: m.recipient.slice(0, 2000),
    subject: m.subject.slice(0, 400),
    payload: m.payload,
    entityType: m.entityType ?? null,
    entityId: m.entityId ?? null,
    status: m.status,
    attempts: 0,
    lastError: m.lastError?.slice(0, 1000) ?? null,
    nextAttemptAt: now,
    retryUntil: m.retryUntil,
    createdAt: now,
    updatedAt: now,
  }));
  await db().insertInto("outbox").values(rows).execute();
  return rows.map((r) => r.id);
}

/**
 * Ids of pending rows due by `now` whose lease (if any) has run out, oldest due first. Found through the
 * (status, id) index: pending rows are the few in flight or waiting for a retry, so sorting them is cheap,
 * and the poll needs no index of its own (one index fewer to write per submission).
 */
export async function findDueOutboxIds(now: string, kinds: readonly OutboxKind[], limit: number): Promise<string[]> {
  if (!kinds.length) return [];
  const rows = await db()
    .selectFrom("outbox")
    .select("id")
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", now)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .where("kind", "in", [...kinds])
    .orderBy("nextAttemptAt")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Takes the row for one worker until `leaseUntil`, in one conditional UPDATE that SQLite and MySQL both run
 * atomically: of several processes trying at once, exactly one changes the row (affected rows = 1) and
 * delivers it. Counts the attempt now, so one that dies with its process still counts.
 */
export async function claimOutboxMessage(id: string, now: string, leaseUntil: string): Promise<OutboxDelivery | null> {
  const token = newId();
  const r = await db()
    .updateTable("outbox")
    .set({ leaseUntil, leaseToken: token, lastAttemptAt: now, updatedAt: now, attempts: sql`attempts + 1` })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", now)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return null;
  const row = await db().selectFrom("outbox").selectAll().where("id", "=", id).where("leaseToken", "=", token).executeTakeFirst();
  if (!row) return null;
  return { ...toMessage(row), template: row.template, payload: row.payload, retryUntil: row.retryUntil, leaseToken: token };
}

/** Keeps the lease while a slow delivery is still running; false when the lease was lost meanwhile. */
export async function extendOutboxLease(id: string, token: string, leaseUntil: string): Promise<boolean> {
  const r = await db().updateTable("outbox").set({ leaseUntil }).where("id", "=", id).where("leaseToken", "=", token).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The outcome of a claimed attempt, recorded only by the claim that holds the lease. */
export async function finishOutboxAttempt(
  id: string,
  token: string,
  outcome: { status: "sent" } | { status: "pending"; error: string; nextAttemptAt: string } | { status: "failed"; error: string },
): Promise<boolean> {
  const now = nowIso();
  const r = await db()
    .updateTable("outbox")
    .set({
      status: outcome.status,
      leaseUntil: null,
      leaseToken: null,
      updatedAt: now,
      ...(outcome.status === "sent" ? { sentAt: now, lastError: null } : { lastError: outcome.error.slice(0, 1000) }),
      ...(outcome.status === "pending" ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
    })
    .where("id", "=", id)
    .where("leaseToken", "=", token)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** E-mails that waited for SMTP_URL become due now, with a fresh retry window. */
export async function releaseWaitingEmails(now: string, retryUntil: string): Promise<number> {
  const r = await db()
    .updateTable("outbox")
    .set({ status: "pending", nextAttemptAt: now, retryUntil, updatedAt: now })
    .where("status", "=", "waiting")
    .where("kind", "=", "email")
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A failed message goes back in line: due now, with a fresh retry window. False when it is not (or no longer) failed. */
export async function requeueFailedMessage(id: string, status: "pending" | "waiting", retryUntil: string): Promise<boolean> {
  const now = nowIso();
  const r = await db()
    .updateTable("outbox")
    .set({ status, nextAttemptAt: now, retryUntil, leaseUntil: null, leaseToken: null, updatedAt: now })
    .where("id", "=", id)
    .where("status", "=", "failed")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * A record (enquiry, contact query) is being deleted: inside its transaction, its messages not sent yet
 * (pending, retrying, waiting for e-mail, failed and so open to Resend) go with it, since nothing about a
 * deleted record should go out; its sent messages stay for the Outbox screen, without the payload (a
 * webhook's body, which holds the record as it came in). Both statements find the rows through the
 * (status, id) index: the unsent are few, and the sent are read once per deletion.
 */
export async function forgetOutboxMessagesAbout(entityType: string, entityId: string): Promise<{ deleted: number; blanked: number }> {
  const deleted = await db()
    .deleteFrom("outbox")
    .where("status", "in", ["pending", "waiting", "failed"])
    .where("entityType", "=", entityType)
    .where("entityId", "=", entityId)
    .executeTakeFirst();
  const blanked = await db()
    .updateTable("outbox")
    .set({ payload: "", updatedAt: nowIso() })
    .where("status", "=", "sent")
    .where("entityType", "=", entityType)
    .where("entityId", "=", entityId)
    .where("payload", "<>", "")
    .executeTakeFirst();
  return { deleted: Number(deleted.numDeletedRows), blanked: Number(blanked.numUpdatedRows) };
}

/** The recipients of e-mails of these templates made since `since` (the per-address limit on mail to typed addresses). */
export async function recentMailRecipients(templates: readonly string[], since: string): Promise<string[]> {
  const rows = await db().selectFrom("outbox").select("recipient").where("template", "in", templates).where("createdAt", ">=", since).execute();
  return rows.map((r) => r.recipient);
}

/** Whether an e-mail of this template about this record is on its way (queued, waiting or sent; not failed). */
export async function hasMailOnItsWay(template: string, entityType: string, entityId: string): Promise<boolean> {
  const row = await db()
    .selectFrom("outbox")
    .select("id")
    .where("template", "=", template)
    .where("entityType", "=", entityType)
    .where("entityId", "=", entityId)
    .where("status", "<>", "failed")
    .executeTakeFirst();
  return Boolean(row);
}

export async function getOutboxMessage(id: string): Promise<OutboxMessage | null> {
  const row = await db().selectFrom("outbox").select(PUBLIC_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toMessage(row) : null;
}

export type OutboxFilter = PageInput & { status?: OutboxStatus };

/** Newest first (ids are time-ordered UUIDv7), paged. */
export async function listOutboxMessages(filter: OutboxFilter = {}): Promise<Page<OutboxMessage>> {
  const { page, limit, offset } = pageBounds(filter);
  let q = db().selectFrom("outbox");
  if (filter.status) q = q.where("status", "=", filter.status);
  const [rows, count] = await Promise.all([
    q.select(PUBLIC_COLUMNS).orderBy("id", "desc").limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return toPage(rows.map(toMessage), Number(count.n), page, limit);
}

/** For the dashboard: messages waiting for e-mail, and messages that failed since `since`. */
export async function countOutboxTrouble(since: string): Promise<{ waiting: number; failedRecently: number }> {
  const [waiting, failed] = await Promise.all([
    db()
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "waiting")
      .executeTakeFirstOrThrow(),
    db()
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "failed")
      .where("updatedAt", ">=", since)
      .executeTakeFirstOrThrow(),
  ]);
  return { waiting: Number(waiting.n), failedRecently: Number(failed.n) };
}
