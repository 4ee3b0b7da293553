import { afterCommit, inTransactionNow } from "~db/client.server";
import { env } from "~/env.server";
import { cleanHeaderText, isPlainAddress, mailboxKey } from "~/util/email-address";
import { mailConfigured } from "~/infra/mail.server";
import { DIGEST_TEMPLATE } from "~/infra/digest-mail.server";
import { WAITLIST_MAIL_TEMPLATE, waitlistOfferSubject } from "~/infra/waitlist-mail.server";
import { GUARDIAN_TEMPLATE, guardianSubject, ME_LINK_SUBJECT, ME_LINK_TEMPLATE } from "~/infra/privacy-mail.server";
import {
  CONTACT_ACK_SUBJECT,
  contactAlertSubject,
  ENQUIRY_ACK_SUBJECT,
  enquiryAlertSubject,
  enrolmentSubject,
  waitlistAckSubject,
  waitlistAlertSubject,
  type MailTemplate,
} from "~/infra/mail-templates.server";
import { nudgeOutbox, retryUntilFrom } from "~/infra/outbox-worker.server";
import { webhookUrls } from "~/infra/webhooks.server";
import type { ContactQuery } from "~/models/contact-query.server";
import type { Enquiry } from "~/models/enquiry.server";
import type { Schedule } from "~/models/schedule.server";
import { insertOutboxMessages, recentMailRecipients, type OutboxInput } from "~/models/outbox.server";
import { getUser, listAdminEmails } from "~/models/user.server";
import type { EnquiryStatus, OutboxEvent } from "~/schemas/values";
import type { WaitlistPlace } from "~/util/waitlist-text";
import type { StaffActor } from "./actor";

/**
 * Who hears of a new enquiry or contact query, and how: a staff alert (NOTIFY_EMAIL, else every admin), an
 * acknowledgement to the sender, and a webhook per WEBHOOK_URL; of an enquiry's new status, the webhooks, and when
 * it becomes Enrolled the student's confirmation.
 * The services call these inside the transaction that stores the submission or the change, so the messages
 * exist exactly when it does. Nothing is sent here: the outbox worker (app/infra/outbox-worker.server.ts)
 * delivers after the commit.
 */

export const NOT_ONE_ADDRESS = "Not sent: the address given is not one plain e-mail address";

/**
 * Anyone can type anyone's address into a form, so the e-mails that go to a typed address (acknowledgements and a
 * guardian's consent request) are limited per address: past this many in 24 hours, the row is kept as failed with
 * this message (an admin can still Resend it from the Outbox) and the enquiry itself is stored and alerted as ever.
 */
export const MAILS_PER_TYPED_ADDRESS_PER_DAY = 3;
export const TOO_MANY_TO_ADDRESS = `Not sent: this address was sent ${MAILS_PER_TYPED_ADDRESS_PER_DAY} such e-mails in the last 24 hours`;
const TYPED_ADDRESS_TEMPLATES = ["enquiry-ack", "contact-ack", GUARDIAN_TEMPLATE] as const;

type QueuedState = { status: "pending" | "waiting" | "failed"; lastError?: string };

/** A mail to an address it holds: failed when that is not one plain address. */
function addressStatus(to: string): QueuedState {
  if (!isPlainAddress(to)) return { status: "failed", lastError: NOT_ONE_ADDRESS };
  return { status: mailConfigured() ? "pending" : "waiting" };
}

/** The status and error a mail to a typed address is queued with: failed when it is not one plain address or was mailed too often. */
async function typedAddressStatus(to: string): Promise<QueuedState> {
  const state = addressStatus(to);
  if (state.status === "failed") return state;
  const since = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
  // One inbox, however the address is spelt (case, a +tag, Gmail's dots).
  const mailbox = mailboxKey(to);
  const sent = (await recentMailRecipients(TYPED_ADDRESS_TEMPLATES, since)).filter((r) => mailboxKey(r) === mailbox).length;
  if (sent >= MAILS_PER_TYPED_ADDRESS_PER_DAY) return { status: "failed", lastError: TOO_MANY_TO_ADDRESS };
  return state;
}

/**
 * A new enquiry's alert, acknowledgement and webhooks; one that joined a full batch's waitlist says so in both
 * subjects. The alert goes to NOTIFY_EMAIL (else the admins) and to the staff member the round-robin gave it to,
 * who is to call (once, when they are among the others too); its text names them.
 */
export async function queueEnquiryNotifications(enquiry: Enquiry, waitlist: WaitlistPlace | null = null): Promise<void> {
  const owner = enquiry.assigneeId ? await getUser(enquiry.assigneeId) : null;
  return queue({
    event: "enquiry.created",
    entity: { type: "enquiry", id: enquiry.id },
    webhook: { timestamp: enquiry.createdAt, data: enquiry },
    alert: {
      template: "enquiry-alert",
      subject: waitlist ? waitlistAlertSubject(enquiry, waitlist) : enquiryAlertSubject(enquiry),
      also: owner ? [owner.email] : [],
    },
    ack: { template: "enquiry-ack", subject: waitlist ? waitlistAckSubject(waitlist) : ENQUIRY_ACK_SUBJECT, to: enquiry.email },
  });
}

export async function queueContactQueryNotifications(query: ContactQuery): Promise<void> {
  return queue({
    event: "contact_query.created",
    entity: { type: "contact_query", id: query.id },
    webhook: { timestamp: query.createdAt, data: query },
    alert: { template: "contact-alert", subject: contactAlertSubject(query) },
    ack: { template: "contact-ack", subject: CONTACT_ACK_SUBJECT, to: query.email },
  });
}

/**
 * What `enquiry.status_changed` carries: the enquiry's id (the receiver had the record with enquiry.created;
 * nothing else of the enquirer's goes out again), its status before and now, who changed it and when.
 */
export type EnquiryStatusChange = {
  id: string;
  previousStatus: EnquiryStatus;
  status: EnquiryStatus;
  changedAt: string;
  changedBy: { id: string; name: string; email: string };
};

/**
 * One webhook per WEBHOOK_URL for an enquiry whose status has just changed (call it only when it did), inside
 * the change's transaction: the status screen, the bulk action and the API all come through applyChange.
 */
export async function queueEnquiryStatusChange(
  actor: StaffActor,
  before: Pick<Enquiry, "id" | "status">,
  after: Pick<Enquiry, "status" | "updatedAt">,
): Promise<void> {
  const data: EnquiryStatusChange = {
    id: before.id,
    previousStatus: before.status,
    status: after.status,
    changedAt: after.updatedAt,
    changedBy: { id: actor.user.id, name: actor.user.name, email: actor.user.email },
  };
  return queue({ event: "enquiry.status_changed", entity: { type: "enquiry", id: before.id }, webhook: { timestamp: after.updatedAt, data } });
}

/**
 * The enrolment confirmation to the student (with their batch and its calendar file, rendered when it is sent),
 * inside the transaction that set the enquiry to Enrolled: call it only when the status has just become Enrolled.
 * An address that is not one plain address gets no mail, as with the acknowledgement.
 */
export async function queueEnrolmentConfirmation(enquiry: Enquiry, batch: Pick<Schedule, "courseName" | "startDate"> | null): Promise<void> {
  return queue({
    event: "enquiry.enrolled",
    entity: { type: "enquiry", id: enquiry.id },
    ack: { template: "enrolment-confirmation", subject: enrolmentSubject(enquiry, batch), to: enquiry.email },
  });
}

type Plan = {
  event: OutboxEvent;
  entity: { type: string; id: string };
  /** The webhook's `timestamp` and `data`: its body is `{type, timestamp, data}`; none for an e-mail-only event. */
  webhook?: { timestamp: string; data: Enquiry | ContactQuery | EnquiryStatusChange };
  /** E-mails, for a new submission only; the alert goes to the staff list and `also` (the lead's owner). */
  alert?: { template: MailTemplate; subject: string; also?: string[] };
  ack?: { template: MailTemplate; subject: string; to: string };
};

async function queue(plan: Plan): Promise<void> {
  // Outside a transaction the rows could commit without the submission (or the other way round).
  if (!inTransactionNow()) throw new Error("Notifications must be queued inside the submission's transaction");
  const e = env();
  const retryUntil = retryUntilFrom();
  const emailStatus = mailConfigured() ? "pending" : "waiting";
  // E-mails are rendered from the record when they are sent (app/infra/outbox-worker.server.ts), so a row holds
  // no copy of what the visitor typed: small rows keep the submission's commit small, and deleting the
  // enquiry leaves no personal data behind in the outbox.
  const payload = "";
  const base = { event: plan.event, entityType: plan.entity.type, entityId: plan.entity.id, retryUntil };
  const rows: OutboxInput[] = [];

  const staff = plan.alert ? withoutRepeats([...(e.NOTIFY_EMAIL ?? (await listAdminEmails())), ...(plan.alert.also ?? [])].filter(isPlainAddress)) : [];
  if (plan.alert && staff.length) {
    rows.push({
      ...base,
      kind: "email",
      template: plan.alert.template,
      recipient: staff.join(", "),
      subject: cleanHeaderText(plan.alert.subject, 300),
      payload,
      status: emailStatus,
    });
  }
  // The sender's address is theirs to type: one that is not a single plain address gets no mail (and the
  // screen says why) rather than a mail to whatever it might be read as.
  if (plan.ack) {
    const typed = (TYPED_ADDRESS_TEMPLATES as readonly string[]).includes(plan.ack.template);
    const state = typed ? await typedAddressStatus(plan.ack.to) : addressStatus(plan.ack.to);
    rows.push({
      ...base,
      kind: "email",
      template: plan.ack.template,
      recipient: plan.ack.to,
      subject: cleanHeaderText(plan.ack.subject, 300),
      payload,
      ...state,
    });
  }

  const urls = webhookUrls();
  if (urls.length && plan.webhook) {
    const body = JSON.stringify({ type: plan.event, timestamp: plan.webhook.timestamp, data: plan.webhook.data });
    for (const url of urls) rows.push({ ...base, kind: "webhook", recipient: url, subject: plan.event, payload: body, status: "pending" });
  }

  await insertQueued(rows);
}

/** Addresses once each, whatever their case (the first spelling kept). */
function withoutRepeats(addresses: string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((a) => {
    const key = a.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Every outbox row is written here. Delivery starts as soon as the rows are durable (the worker is nudged after the
 * commit, not at its next poll); a rollback nudges nobody. Returns the rows' ids.
 */
async function insertQueued(rows: OutboxInput[]): Promise<string[]> {
  const ids = await insertOutboxMessages(rows);
  if (rows.some((r) => r.status === "pending")) afterCommit(nudgeOutbox);
  return ids;
}

/**
 * A staff member's daily digest, inside the transaction that records it as done for the day. Like the other
 * e-mails, the row holds no list, only the moment the digest is for (`at`): it is rendered from the database
 * when it is sent. Returns the row's id.
 */
export async function queueStaffDigest(to: { id: string; email: string }, subject: string, at: Date): Promise<string> {
  if (!inTransactionNow()) throw new Error("The digest must be queued inside the transaction that records it");
  const [id] = await insertQueued([
    {
      kind: "email",
      event: "staff.digest",
      template: DIGEST_TEMPLATE,
      recipient: to.email,
      subject,
      payload: JSON.stringify({ at: at.toISOString() }),
      entityType: "user",
      entityId: to.id,
      status: mailConfigured() ? "pending" : "waiting",
      retryUntil: retryUntilFrom(),
    },
  ]);
  return id;
}

/**
 * The escalation of a New enquiry nobody touched within ESCALATION_HOURS: one e-mail to the admins, inside the
 * transaction that marks it escalated (so it is sent once, whichever instance's job got there). Rendered when sent
 * by the escalation service's renderer; nothing when no admin has a plain address.
 */
export async function queueEnquiryEscalation(enquiry: Pick<Enquiry, "id">, template: string, subject: string): Promise<void> {
  if (!inTransactionNow()) throw new Error("The escalation must be queued inside the transaction that marks it");
  const admins = (await listAdminEmails()).filter(isPlainAddress);
  if (!admins.length) return;
  await insertQueued([
    {
      kind: "email",
      event: "enquiry.escalated",
      template,
      recipient: admins.join(", "),
      subject: cleanHeaderText(subject, 300),
      payload: "",
      entityType: "enquiry",
      entityId: enquiry.id,
      status: mailConfigured() ? "pending" : "waiting",
      retryUntil: retryUntilFrom(),
    },
  ]);
}

/**
 * The e-mail offering a waiting enquirer the seat just freed in their batch, inside the transaction that opens
 * the offer. Rendered when it is sent (app/infra/waitlist-mail.server.tsx), with the link's token, which no row holds.
 */
export async function queueWaitlistOffer(enquiry: Pick<Enquiry, "id" | "email">, batch: Pick<Schedule, "courseName" | "startDate">): Promise<void> {
  if (!inTransactionNow()) throw new Error("The waitlist offer must be queued inside the transaction that opens it");
  const state = addressStatus(enquiry.email);
  await insertQueued([
    {
      kind: "email",
      event: "enquiry.waitlist_offer",
      template: WAITLIST_MAIL_TEMPLATE,
      recipient: enquiry.email,
      subject: cleanHeaderText(waitlistOfferSubject(batch), 300),
      payload: "",
      entityType: "enquiry",
      entityId: enquiry.id,
      ...state,
      retryUntil: retryUntilFrom(),
    },
  ]);
}

/**
 * Privacy e-mails (app/infra/privacy-mail.server.tsx), inside the transaction that asks for them, rendered when sent:
 * "Where is my enquiry?" sends the person a link to their own page (to the address on the record, `to`);
 * a minor's enquiry or message asks their parent or guardian (`to`) to consent.
 */
export async function queuePrivacyMail(
  kind: "me-link" | "guardian",
  entity: { type: "enquiry" | "contact_query"; id: string },
  to: string,
  subjectName = "",
): Promise<void> {
  if (!inTransactionNow()) throw new Error("Privacy e-mails must be queued inside a transaction");
  const state = kind === "guardian" ? await typedAddressStatus(to) : addressStatus(to);
  await insertQueued([
    {
      kind: "email",
      event: kind === "me-link" ? "privacy.me_link" : "privacy.guardian_consent",
      template: kind === "me-link" ? ME_LINK_TEMPLATE : GUARDIAN_TEMPLATE,
      recipient: to,
      subject: cleanHeaderText(kind === "me-link" ? ME_LINK_SUBJECT : guardianSubject(subjectName), 300),
      payload: "",
      entityType: entity.type,
      entityId: entity.id,
      ...state,
      retryUntil: retryUntilFrom(),
    },
  ]);
}
