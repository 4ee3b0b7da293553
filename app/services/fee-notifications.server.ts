import { afterCommit, inTransactionNow } from "~db/client.server";
import { mailConfigured } from "~/infra/mail.server";
import { nudgeOutbox, retryUntilFrom } from "~/infra/outbox-worker.server";
import { webhookUrls } from "~/infra/webhooks.server";
import { insertOutboxMessages, type OutboxInput } from "~/models/outbox.server";
import type { OutboxEvent } from "~/schemas/values";
import { cleanHeaderText, isPlainAddress } from "~/util/email-address";
import { NOT_ONE_ADDRESS } from "./notifications.server";

/**
 * Fee messages through the outbox (docs/decisions/006), queued in the transaction that makes them true: the receipt
 * e-mail and `payment.received` webhook of a payment, a due's reminder (e-mail and the `fee.reminder` webhook a
 * WhatsApp gateway can turn into a message) and `invoice.overdue`. E-mails hold no copy of the record: they are
 * rendered when sent (app/services/fee-mail.server.tsx), which also checks again that a reminder's due is unpaid.
 */

export const FEE_RECEIPT_TEMPLATE = "fee-receipt";
export const FEE_REMINDER_TEMPLATE = "fee-reminder";

type FeeMessage = {
  event: OutboxEvent;
  entity: { type: "payment" | "due"; id: string };
  /** `payload`: what the renderer needs besides the entity (never personal data). */
  email?: { template: string; to: string; subject: string; payload?: string };
  webhook?: { timestamp: string; data: unknown };
};

export async function queueFeeMessage(message: FeeMessage): Promise<void> {
  if (!inTransactionNow()) throw new Error("Fee messages must be queued inside the transaction that makes them true");
  const base = { event: message.event, entityType: message.entity.type, entityId: message.entity.id, retryUntil: retryUntilFrom() };
  const rows: OutboxInput[] = [];
  if (message.email) {
    const ok = isPlainAddress(message.email.to);
    rows.push({
      ...base,
      kind: "email",
      template: message.email.template,
      recipient: message.email.to,
      subject: cleanHeaderText(message.email.subject, 300),
      payload: message.email.payload ?? "",
      status: ok ? (mailConfigured() ? "pending" : "waiting") : "failed",
      lastError: ok ? undefined : NOT_ONE_ADDRESS,
    });
  }
  if (message.webhook) {
    const body = JSON.stringify({ type: message.event, timestamp: message.webhook.timestamp, data: message.webhook.data });
    for (const url of webhookUrls()) rows.push({ ...base, kind: "webhook", recipient: url, subject: message.event, payload: body, status: "pending" });
  }
  if (!rows.length) return;
  await insertOutboxMessages(rows);
  if (rows.some((r) => r.status === "pending")) afterCommit(nudgeOutbox);
}
