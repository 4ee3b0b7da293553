import { inTransaction } from "~db/client.server";
import { mailConfigured } from "~/infra/mail.server";
import { nudgeOutbox, retryUntilFrom } from "~/infra/outbox-worker.server";
import { countOutboxTrouble, getOutboxMessage, listOutboxMessages, requeueFailedMessage, type OutboxMessage } from "~/models/outbox.server";
import type { Page } from "~/models/paging.server";
import { heldRecordKeys } from "~/models/people.server";
import { OUTBOX_KIND_LABELS, type OutboxStatus } from "~/schemas/values";
import { requireAdmin, type StaffActor } from "./actor";
import { record } from "./audit.server";
import { conflict, notFound } from "./service-error";

/** The outbox for staff: admins read it (screen and API) and send a failed message again. */

export const OUTBOX_LOAD_FAILED = "Failed to load the outbox. Please try again.";
export const OUTBOX_RESEND_FAILED = "Failed to send the message again. Please try again.";
export const OUTBOX_ONLY_FAILED = "Only a failed message can be sent again";

/** What the Outbox shows of a message about a minor's record waiting for a guardian (its subject names the minor). */
export const HELD_MESSAGE_SUBJECT = "About someone under 18: hidden until a parent or guardian consents";
export const HELD_MESSAGE_RECIPIENT = "(hidden until consent)";

export async function listOutbox(actor: StaffActor, query: { page?: number; limit?: number; status?: OutboxStatus }): Promise<Page<OutboxMessage>> {
  requireAdmin(actor);
  const page = await listOutboxMessages(query);
  const held = await heldRecordKeys(page.data.flatMap((m) => (m.entityType && m.entityId ? [{ type: m.entityType, id: m.entityId }] : [])));
  if (!held.size) return page;
  return {
    ...page,
    data: page.data.map((m) =>
      held.has(`${m.entityType}:${m.entityId}`) ? { ...m, subject: HELD_MESSAGE_SUBJECT, recipient: HELD_MESSAGE_RECIPIENT, lastError: null } : m,
    ),
  };
}

/**
 * A failed message goes back in line with a fresh 24-hour retry window (an e-mail waits for configuration
 * if SMTP_URL is unset now). Audited in the same transaction; the worker is nudged after the commit.
 */
export async function resendOutboxMessage(actor: StaffActor, id: string): Promise<OutboxMessage> {
  requireAdmin(actor);
  const saved = await inTransaction(async () => {
    const message = await getOutboxMessage(id);
    if (!message) throw notFound("Message");
    const status = message.kind === "email" && !mailConfigured() ? "waiting" : "pending";
    if (!(await requeueFailedMessage(id, status, retryUntilFrom()))) throw conflict(OUTBOX_ONLY_FAILED, {}, "not_failed");
    await record(actor, "resend", "outbox", id, `${OUTBOX_KIND_LABELS[message.kind]} to ${message.recipient}: ${message.subject}`);
    return (await getOutboxMessage(id))!;
  });
  if (saved.status === "pending") nudgeOutbox();
  return saved;
}

export type OutboxHealth = { mailConfigured: boolean; waiting: number; failedRecently: number };

/** What the dashboard warns about: e-mail not configured, and messages that failed in the last 24 hours. */
export async function outboxHealth(now = Date.now()): Promise<OutboxHealth> {
  const counts = await countOutboxTrouble(new Date(now - 24 * 60 * 60 * 1000).toISOString());
  return { mailConfigured: mailConfigured(), ...counts };
}
