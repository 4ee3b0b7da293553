import { inTransaction } from "~db/client.server";
import { emailForLog, redactForLog, urlForLog } from "~/util/log-redaction";
import { env } from "~/env.server";
import { getContactQuery } from "~/models/contact-query.server";
import { getEnquiry, type Enquiry } from "~/models/enquiry.server";
import { getSchedule } from "~/models/schedule.server";
import { getUser } from "~/models/user.server";
import { activeEntryOfEnquiry, positionOf } from "~/models/waitlist.server";
import { batchCalendar } from "./batch-calendar-file.server";
import {
  claimOutboxMessage,
  extendOutboxLease,
  findDueOutboxIds,
  finishOutboxAttempt,
  releaseWaitingEmails,
  type OutboxDelivery,
} from "~/models/outbox.server";
import type { OutboxKind } from "~/schemas/values";
import { mailConfigured, PermanentMailError, sendMail } from "./mail.server";
import { publicOrigin } from "~/util/origin.server";
import { MAIL_TEMPLATES, renderMail, type Enrolment, type MailPayload, type MailTemplate, type RenderedMail } from "./mail-templates.server";
import { postWebhook } from "./webhooks.server";
import { renderWaitlistOfferMail, WAITLIST_MAIL_TEMPLATE } from "./waitlist-mail.server";
import { meLinkFor, PRIVACY_MAIL_TEMPLATES, renderPrivacyMail } from "./privacy-mail.server";

/**
 * Delivers the outbox, in every app process. Each pass finds due rows and claims each with a lease (one
 * conditional UPDATE, see claimOutboxMessage): of several processes on one database exactly one gets a row.
 * A delivery that fails is tried again after a growing pause until the row's retry window (24 hours) is
 * over, then the row is failed. A process killed mid-delivery leaves its lease to run out (LEASE_MS), and
 * the row is claimed again: delivery is at least once, and every repeat carries the same Message-ID or
 * webhook-id, so a receiver can tell.
 */

/** Idle poll: rows made by another process (or due for a retry) are seen within this. */
export const POLL_MS = 1_000;
/** A burst of submissions nudges many times; passes start at most this often. */
const MIN_GAP_MS = 200;
/** How long a claim holds a row; renewed every HEARTBEAT_MS while the delivery runs. */
export const LEASE_MS = 30_000;
const HEARTBEAT_MS = 10_000;
const BATCH = 20;
/** Waits after the 1st, 2nd … failed attempt; the last repeats until the retry window closes. */
export const BACKOFF_MS = [30, 120, 600, 1_800, 3_600, 7_200, 14_400].map((s) => s * 1000);
/** How long a message is retried before it is marked failed (the backoff above runs inside this window). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const retryUntilFrom = (now = Date.now()) => new Date(now + RETRY_WINDOW_MS).toISOString();
/** How often a process with SMTP_URL set looks for e-mails made while it was unset (by it or another process). */
const RELEASE_EVERY_MS = 60_000;

export function backoffAfter(attempts: number): number {
  return BACKOFF_MS[Math.min(Math.max(attempts, 1), BACKOFF_MS.length) - 1];
}

/** What this process can deliver: e-mail only with SMTP_URL, webhooks only with a secret to sign them. */
function deliverableKinds(): OutboxKind[] {
  const kinds: OutboxKind[] = [];
  if (mailConfigured()) kinds.push("email");
  if (env().WEBHOOK_SECRET) kinds.push("webhook");
  return kinds;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** The record an e-mail is about, as it is now, with its link in the back office. */
async function mailPayload(row: OutboxDelivery): Promise<MailPayload> {
  const id = row.entityId ?? "";
  const record = row.entityType === "enquiry" ? await getEnquiry(id) : row.entityType === "contact_query" ? await getContactQuery(id) : null;
  // Deleted within moments of arriving (spam, a duplicate): there is nothing left to tell anyone about.
  if (!record) throw new PermanentMailError(`Not sent: the ${row.entityType === "enquiry" ? "enquiry" : "contact query"} was deleted first`);
  const path = row.entityType === "enquiry" ? "enquiries" : "contact-queries";
  const enrolment = row.template === "enrolment-confirmation" ? await enrolmentOf(record as Enquiry) : undefined;
  const waitlist = row.template === "enquiry-ack" && row.entityType === "enquiry" ? await waitlistPlaceOf(id) : null;
  // The staff alert names who is to call, as it stands when it is sent.
  const owner = row.template === "enquiry-alert" ? await ownerOf(record as Enquiry) : undefined;
  return { record, link: `${publicOrigin()}/admin/${path}/${encodeURIComponent(id)}`, enrolment, waitlist, owner };
}

async function ownerOf(enquiry: Enquiry): Promise<string | null> {
  if (!enquiry.assigneeId) return null;
  return (await getUser(enquiry.assigneeId))?.name ?? null;
}

/** The enquiry's place on a batch's waitlist as it is now (null when it is on none), for its acknowledgement. */
async function waitlistPlaceOf(enquiryId: string): Promise<MailPayload["waitlist"]> {
  const entry = await activeEntryOfEnquiry(enquiryId);
  const batch = entry ? await getSchedule(entry.scheduleId) : null;
  if (!entry || !batch) return null;
  return { position: await positionOf(entry), courseName: batch.courseName, startDate: batch.startDate, holdHours: env().WAITLIST_OFFER_HOURS };
}

/** The student's batch as it is now, with its calendar file; an enquiry taken off Enrolled before the send gets nothing. */
async function enrolmentOf(enquiry: Enquiry): Promise<Enrolment> {
  if (enquiry.status !== "enrolled") throw new PermanentMailError("Not sent: the enquiry is no longer Enrolled");
  const batch = enquiry.scheduleId ? await getSchedule(enquiry.scheduleId) : null;
  if (!batch) return { batch: null, calendar: null, coursePage: null };
  const calendar = await batchCalendar(batch);
  return { batch, calendar, coursePage: calendar.coursePage };
}

/**
 * E-mails whose content is a service's rule (the daily digest: whose follow-ups are due), rendered by that service
 * when they are sent. The service registers its renderer when it is loaded, so this worker, a layer below the
 * services, never imports one.
 */
type Renderer = (row: OutboxDelivery) => Promise<RenderedMail>;
const renderers = new Map<string, Renderer>();

export function registerMailRenderer(template: string, render: Renderer): void {
  renderers.set(template, render);
}

async function deliver(row: OutboxDelivery): Promise<void> {
  if (row.kind === "webhook") {
    await postWebhook(row.recipient, row.id, row.payload);
    return;
  }
  const registered = renderers.get(row.template);
  const waitlist = row.template === WAITLIST_MAIL_TEMPLATE;
  const privacy = PRIVACY_MAIL_TEMPLATES.includes(row.template);
  if (!registered && !waitlist && !privacy && !(MAIL_TEMPLATES as readonly string[]).includes(row.template))
    throw new PermanentMailError(`Unknown e-mail template "${row.template}"`);
  // Every e-mail to a visitor carries a fresh link to their own page (/me), made as it is sent.
  const mail = registered
    ? await registered(row)
    : privacy
      ? await renderPrivacyMail(row)
      : waitlist
        ? await renderWaitlistOfferMail(row.entityId ?? "", await meLinkFor(row))
        : renderMail(row.template as MailTemplate, { ...(await mailPayload(row)), meLink: await meLinkFor(row) });
  const addresses = row.recipient.split(",").map((a) => a.trim());
  await sendMail({
    id: row.id,
    to: addresses.map((address) => ({ name: addresses.length === 1 ? (mail.toName ?? "") : "", address })),
    replyTo: mail.replyTo,
    subject: row.subject,
    text: mail.text,
    html: mail.html,
    ...("attachments" in mail ? { attachments: mail.attachments } : {}),
  });
}

/** Delivers one claimed row and records the outcome (only if this claim still holds the lease). */
async function attempt(row: OutboxDelivery, log: (line: string) => void): Promise<void> {
  const heartbeat = setInterval(() => {
    extendOutboxLease(row.id, row.leaseToken, new Date(Date.now() + LEASE_MS).toISOString()).catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let outcome: Parameters<typeof finishOutboxAttempt>[2];
  try {
    await deliver(row);
    outcome = { status: "sent" };
  } catch (error) {
    const message = describe(error);
    const next = Date.now() + backoffAfter(row.attempts);
    outcome =
      error instanceof PermanentMailError || next > Date.parse(row.retryUntil)
        ? { status: "failed", error: message }
        : { status: "pending", error: message, nextAttemptAt: new Date(next).toISOString() };
    const what = row.kind === "email" ? "E-mail" : "Webhook";
    // The subject names the visitor and the recipient is their address or a webhook's secret URL: the log gets
    // the message's id and event, the address's domain, the URL's origin (the Outbox screen shows the rest to admins).
    const to = row.kind === "email" ? emailForLog(row.recipient) : urlForLog(row.recipient);
    log(
      `Outbox: ${what} ${row.id} (${row.event}) to ${to}, attempt ${row.attempts}: ${redactForLog(message)}. ${outcome.status === "failed" ? "Giving up." : `Next try at ${outcome.nextAttemptAt}.`}`,
    );
  } finally {
    clearInterval(heartbeat);
  }
  const recorded = await recordOutcome(row, outcome);
  if (!recorded) log(`Outbox: the lease on ${row.id} ran out during delivery; another attempt may repeat it.`);
}

type Outcome = Parameters<typeof finishOutboxAttempt>[2];
type PendingOutcome = { row: OutboxDelivery; outcome: Outcome; done: (recorded: boolean) => void; failed: (error: unknown) => void };
const outcomes: PendingOutcome[] = [];
let flushing = false;

/**
 * Records an attempt's outcome as soon as it is known, sharing one commit with the outcomes that came in
 * meanwhile (group commit). On SQLite every commit is an fsync, and one per message would leave the worker
 * (and every visitor's submission, which waits for the same single writer) far slower than the mail server.
 */
function recordOutcome(row: OutboxDelivery, outcome: Outcome): Promise<boolean> {
  return new Promise((done, failed) => {
    outcomes.push({ row, outcome, done, failed });
    if (!flushing) void flushOutcomes();
  });
}

async function flushOutcomes(): Promise<void> {
  flushing = true;
  try {
    while (outcomes.length) {
      const batch = outcomes.splice(0);
      try {
        const recorded = await inTransaction(async () => {
          const out: boolean[] = [];
          for (const o of batch) out.push(await finishOutboxAttempt(o.row.id, o.row.leaseToken, o.outcome));
          return out;
        });
        batch.forEach((o, i) => o.done(recorded[i]));
      } catch (error) {
        // Not recorded: the rows keep their leases, which run out, and they are tried again (at least once).
        batch.forEach((o) => o.failed(error));
      }
    }
  } finally {
    flushing = false;
  }
}

let lastRelease = 0;

/**
 * One pass: release e-mails that waited for SMTP_URL (when it is set now), then claim and deliver up to BATCH
 * due rows at once. Returns how many due rows it found (BATCH means there may be more).
 */
export async function runOutboxPass(log: (line: string) => void = console.log): Promise<number> {
  const now = new Date();
  if (mailConfigured() && now.getTime() - lastRelease >= RELEASE_EVERY_MS) {
    const released = await releaseWaitingEmails(now.toISOString(), retryUntilFrom(now.getTime()));
    lastRelease = now.getTime();
    if (released) log(`Outbox: e-mail is configured now; sending ${released} e-mail(s) that waited for it.`);
  }
  const ids = await findDueOutboxIds(now.toISOString(), deliverableKinds(), BATCH);
  if (!ids.length) return 0;
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  // The batch's claims share one commit (each is still its own conditional UPDATE). Taken in id order, so
  // two processes on MySQL lock shared rows in the same order and never deadlock.
  const claimed = await inTransaction(async () => {
    const rows: OutboxDelivery[] = [];
    for (const id of [...ids].sort()) {
      const row = await claimOutboxMessage(id, now.toISOString(), leaseUntil);
      if (row) rows.push(row);
    }
    return rows;
  });
  await Promise.all(claimed.map((row) => attempt(row, log)));
  return ids.length;
}

// ------------------------------------------------------------------ the loop

type Loop = { running: boolean; nudged: boolean; passStarted: number; pass?: Promise<unknown>; wake?: () => void; done?: Promise<void> };
const loop: Loop = { running: false, nudged: false, passStarted: 0 };

/** Sleeps `ms`, or less when nudged (but never starting passes closer than MIN_GAP_MS). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    let timer = setTimeout(finish, ms);
    timer.unref();
    function finish() {
      loop.wake = undefined;
      resolve();
    }
    loop.wake = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, Math.max(0, loop.passStarted + MIN_GAP_MS - Date.now()));
      timer.unref();
    };
  });
}

async function run(log: (line: string) => void): Promise<void> {
  let lastErrorLog = 0;
  while (loop.running) {
    loop.nudged = false;
    loop.passStarted = Date.now();
    let found = 0;
    loop.pass = runOutboxPass(log).then(
      (n) => (found = n),
      (error: unknown) => {
        // The database may be away for a while; say so once a minute, not every second.
        if (Date.now() - lastErrorLog > 60_000) console.error("Outbox: a delivery pass failed:", error);
        lastErrorLog = Date.now();
      },
    );
    await loop.pass;
    if (!loop.running) break;
    await pause(loop.nudged || found >= BATCH ? MIN_GAP_MS - (Date.now() - loop.passStarted) : POLL_MS);
  }
}

/**
 * Starts delivering in this process (server/app.ts initApp). Timers are unref'd: the worker never keeps the
 * process alive by itself.
 */
export function startOutboxWorker(log: (line: string) => void = console.log): void {
  if (loop.running) return;
  loop.running = true;
  lastRelease = 0;
  if (!mailConfigured()) log("Outbox: SMTP_URL is not set; e-mails wait in the outbox until the app starts with it.");
  loop.done = run(log);
}

/** Stops the loop; waits up to `graceMs` for a pass in flight (an unfinished delivery is retried when its lease runs out). */
export async function stopOutboxWorker(graceMs = 5_000): Promise<void> {
  if (!loop.running) return;
  loop.running = false;
  loop.wake?.();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([loop.done, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
  clearTimeout(timer);
}

/**
 * A submission has just committed rows this process can deliver: look now instead of at the next poll.
 * Call it after the transaction, never inside it.
 */
export function nudgeOutbox(): void {
  if (!loop.running) return;
  loop.nudged = true;
  loop.wake?.();
}
