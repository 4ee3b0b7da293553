import { inTransactionNow } from "~db/client.server";
import { env } from "~/env.server";
import { cleanHeaderText, isPlainAddress } from "~/lib/email-address";
import { mailConfigured } from "~/lib/mail.server";
import { CONTACT_ACK_SUBJECT, contactAlertSubject, ENQUIRY_ACK_SUBJECT, enquiryAlertSubject, type MailTemplate } from "~/lib/mail-templates.server";
import { retryUntilFrom } from "~/lib/outbox-worker.server";
import { webhookUrls } from "~/lib/webhooks.server";
import type { ContactQuery } from "~/models/contact-query.server";
import type { Enquiry } from "~/models/enquiry.server";
import { insertOutboxMessages, type OutboxInput } from "~/models/outbox.server";
import { listAdminEmails } from "~/models/user.server";
import type { OutboxEvent } from "~/schemas/values";

/**
 * Who hears of a new enquiry or contact query, and how: a staff alert (NOTIFY_EMAIL, else every admin), an
 * acknowledgement to the sender, and a webhook per WEBHOOK_URL. The services call these inside the
 * transaction that stores the submission, so the messages exist exactly when the submission does. Nothing is
 * sent here: the outbox worker (app/lib/outbox-worker.server.ts) delivers after the commit.
 */

export const NOT_ONE_ADDRESS = "Not sent: the address given is not one plain e-mail address";

/** True when a row was queued that this process can deliver now (the caller nudges the worker after the commit). */
export type Queued = { deliverable: boolean };

export async function queueEnquiryNotifications(enquiry: Enquiry): Promise<Queued> {
  return queue({
    event: "enquiry.created",
    entity: { type: "enquiry", id: enquiry.id },
    record: enquiry,
    alert: { template: "enquiry-alert", subject: enquiryAlertSubject(enquiry) },
    ack: { template: "enquiry-ack", subject: ENQUIRY_ACK_SUBJECT, to: enquiry.email },
  });
}

export async function queueContactQueryNotifications(query: ContactQuery): Promise<Queued> {
  return queue({
    event: "contact_query.created",
    entity: { type: "contact_query", id: query.id },
    record: query,
    alert: { template: "contact-alert", subject: contactAlertSubject(query) },
    ack: { template: "contact-ack", subject: CONTACT_ACK_SUBJECT, to: query.email },
  });
}

type Plan = {
  event: OutboxEvent;
  entity: { type: string; id: string };
  record: Enquiry | ContactQuery;
  alert: { template: MailTemplate; subject: string };
  ack: { template: MailTemplate; subject: string; to: string };
};

async function queue(plan: Plan): Promise<Queued> {
  // Outside a transaction the rows could commit without the submission (or the other way round).
  if (!inTransactionNow()) throw new Error("Notifications must be queued inside the submission's transaction");
  const e = env();
  const retryUntil = retryUntilFrom();
  const emailStatus = mailConfigured() ? "pending" : "waiting";
  // E-mails are rendered from the record when they are sent (app/lib/outbox-worker.server.ts), so a row holds
  // no copy of what the visitor typed: small rows keep the submission's commit small, and deleting the
  // enquiry leaves no personal data behind in the outbox.
  const payload = "";
  const base = { event: plan.event, entityType: plan.entity.type, entityId: plan.entity.id, retryUntil };
  const rows: OutboxInput[] = [];

  const staff = e.NOTIFY_EMAIL ?? (await listAdminEmails()).filter(isPlainAddress);
  if (staff.length) {
    rows.push({ ...base, kind: "email", template: plan.alert.template, recipient: staff.join(", "), subject: cleanHeaderText(plan.alert.subject, 300), payload, status: emailStatus });
  }
  // The sender's address is theirs to type: one that is not a single plain address gets no mail (and the
  // screen says why) rather than a mail to whatever it might be read as.
  const ackOk = isPlainAddress(plan.ack.to);
  rows.push({
    ...base,
    kind: "email",
    template: plan.ack.template,
    recipient: plan.ack.to,
    subject: plan.ack.subject,
    payload,
    status: ackOk ? emailStatus : "failed",
    lastError: ackOk ? undefined : NOT_ONE_ADDRESS,
  });

  const urls = webhookUrls();
  if (urls.length) {
    const body = JSON.stringify({ type: plan.event, timestamp: plan.record.createdAt, data: plan.record });
    for (const url of urls) rows.push({ ...base, kind: "webhook", recipient: url, subject: plan.event, payload: body, status: "pending" });
  }

  await insertOutboxMessages(rows);
  return { deliverable: rows.some((r) => r.status === "pending") };
}
