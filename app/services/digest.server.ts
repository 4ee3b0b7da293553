import { inTransaction } from "~db/client.server";
import { isUniqueViolation } from "~db/errors";
import { env } from "~/env.server";
import { DIGEST_TEMPLATE, renderDigestMail, type Digest, type DigestLine, type DigestSection } from "~/infra/digest-mail.server";
import { isPlainAddress } from "~/util/email-address";
import { formatDate, nextDay, siteDayStartUtc, siteToday } from "~/util/dates";
import type { RenderedMail } from "~/infra/mail-templates.server";
import { mailConfigured, PermanentMailError } from "~/infra/mail.server";
import { publicOrigin } from "~/util/origin.server";
import { registerMailRenderer } from "~/infra/outbox-worker.server";
import { feeFigures } from "./fee-lists.server";
import {
  digestSentOn,
  getDigestPreference,
  insertDigestSent,
  listDigestRecipientsWithout,
  setDigestPreference,
  type DigestRecipient,
} from "~/models/digest.server";
import { pageEnquiries, type Enquiry, type EnquiryFilter } from "~/models/enquiry.server";
import { getUser } from "~/models/user.server";
import { listOpenOffersExpiringBetween } from "~/models/waitlist.server";
import type { StaffActor } from "./actor";
import { record } from "./audit.server";
import { followUpOverdue, resolveEnquiryFilter, RESPONSE_PROMISE_MS } from "./enquiry-lists.server";
import { queueStaffDigest } from "./notifications.server";
import { forbidden, notFound } from "./service-error";

/**
 * The daily digest: once a Hyderabad day, from DIGEST_HOUR on, each admin and editor who has not switched it
 * off gets one e-mail listing
 * - their overdue follow-ups and those due today (the enquiry list's "mine" + followUp=overdue / due filters,
 *   through resolveEnquiryFilter, so the digest and the list's tabs never disagree);
 * - New enquiries received more than 24 hours ago (the response promise) assigned to them, and the unassigned
 *   ones, which are everybody's until someone takes them;
 * - waitlist seat offers that run out today, on their enquiries or unassigned ones.
 * Nothing due: no e-mail; the day still counts as done, so a follow-up that falls due in the afternoon does not
 * send a "morning" digest then.
 *
 * Once per person and day, however many instances run the job: the digests_sent row (key: user, day) is
 * inserted in the same transaction as the outbox row; another instance doing the same person at the same time
 * fails on the key, and its transaction (its outbox row with it) rolls back. A server that was down at the hour
 * sends the day's digests at its first run after it, on the same day.
 */

/** Lines per section; the rest is a count and a link to the filtered list. */
export const DIGEST_SECTION_LIMIT = 20;
export const DIGEST_JOB_EVERY_MS = 60_000;

type Person = Pick<DigestRecipient, "id" | "name" | "email" | "role">;

const enquiryLink = (id: string) => `${publicOrigin()}/admin/enquiries/${encodeURIComponent(id)}`;
const listLink = (query: string) => `${publicOrigin()}/admin/enquiries?${query}`;

function line(e: Pick<Enquiry, "id" | "fullName">, at: string, detail: string): DigestLine {
  return { id: e.id, fullName: e.fullName, at, detail, link: enquiryLink(e.id) };
}

/** What `person`'s digest says at `now`, from the database as it is. */
export async function digestFor(person: Person, now: Date): Promise<Digest> {
  const actor: StaffActor = { user: person as StaffActor["user"], ip: "" };
  const limit = DIGEST_SECTION_LIMIT;
  const waitingSince = new Date(now.getTime() - RESPONSE_PROMISE_MS).toISOString();
  const waiting = (assigneeId: string | null): EnquiryFilter => ({ status: "new", assigneeId, createdBefore: waitingSince, limit });
  const today = siteToday(now);
  const [overdue, dueToday, waitingMine, waitingUnassigned, offersToday] = await Promise.all([
    pageEnquiries(resolveEnquiryFilter(actor, { assignee: "mine", followUp: "overdue", limit }, now)),
    // Today's follow-ups whose time has passed while the lead is open are listed as overdue above.
    pageEnquiries(resolveEnquiryFilter(actor, { assignee: "mine", followUp: "due", limit: 100 }, now)),
    pageEnquiries(waiting(person.id)),
    pageEnquiries(waiting(null)),
    listOpenOffersExpiringBetween(siteDayStartUtc(today), siteDayStartUtc(nextDay(today))),
  ]);
  // Offers on this person's enquiries, and on unassigned ones (like New enquiries: everybody's until taken).
  const offers = offersToday.filter((o) => o.assigneeId === person.id || o.assigneeId === null);
  const dueLater = dueToday.data.filter((e) => !followUpOverdue(e, now.getTime()));
  const dueHidden = dueToday.data.length - dueLater.length;
  const sections: DigestSection[] = [
    {
      key: "overdue",
      title: "Overdue follow-ups",
      total: overdue.total,
      lines: overdue.data.map((e) => line(e, e.followUpAt!, "follow-up was due")),
      listLink: listLink("assignee=mine&followUp=overdue"),
    },
    {
      key: "due",
      title: "Follow-ups due today",
      total: Math.max(0, dueToday.total - dueHidden),
      lines: dueLater.slice(0, limit).map((e) => line(e, e.followUpAt!, "follow-up at")),
      listLink: listLink("assignee=mine&followUp=due"),
    },
    {
      key: "waiting",
      title: "New enquiries waiting more than 24 hours",
      total: waitingMine.total + waitingUnassigned.total,
      lines: [
        ...waitingMine.data.map((e) => line(e, e.createdAt, e.escalatedAt ? "yours, escalated, received" : "yours, received")),
        ...waitingUnassigned.data.map((e) => line(e, e.createdAt, e.escalatedAt ? "unassigned, escalated, received" : "unassigned, received")),
      ].slice(0, limit),
      listLink: listLink("status=new"),
    },
    {
      key: "offers",
      title: "Waitlist offers expiring today",
      total: offers.length,
      lines: offers
        .slice(0, limit)
        .map((o) => line({ id: o.enquiryId, fullName: o.fullName }, o.expiresAt, o.assigneeId ? "yours, offer ends" : "unassigned, offer ends")),
    },
  ];
  const f = await feeFigures(today);
  const fees = f.collectedThisMonthPaise || f.outstandingPaise ? { ...f, link: `${publicOrigin()}/admin/fees` } : null;
  return { day: today, name: person.name, sections, settingsLink: `${publicOrigin()}/admin/users/me/digest`, fees };
}

export const digestIsEmpty = (digest: Digest) => digest.sections.every((s) => s.total === 0);

/** The moment `day`'s digests may go out: DIGEST_HOUR o'clock in Hyderabad. */
export function digestTime(day: string, hour = env().DIGEST_HOUR): Date {
  return new Date(Date.parse(siteDayStartUtc(day)) + hour * 3_600_000);
}

export type DigestRun = { day: string; queued: number; empty: number; alreadyDone: number };

/**
 * One run of the digest job (every minute in each instance, see server/app.ts): before the hour, nothing; after
 * it, a digest for each opted-in staff member who has none for today. `now` is a parameter for the tests.
 */
export async function runDigestJob(now = new Date(), hour = env().DIGEST_HOUR): Promise<DigestRun> {
  const day = siteToday(now);
  const run: DigestRun = { day, queued: 0, empty: 0, alreadyDone: 0 };
  // Without SMTP_URL nothing is queued (and no day is marked done): a digest that waited days for e-mail to be
  // set up would be stale when it went out.
  if (!mailConfigured() || now.getTime() < digestTime(day, hour).getTime()) return run;
  for (const person of await listDigestRecipientsWithout(day)) {
    // Read outside the transaction: on SQLite a transaction holds the only connection.
    const digest = await digestFor(person, now);
    const send = !digestIsEmpty(digest) && isPlainAddress(person.email);
    try {
      await inTransaction(async () => {
        const outboxId = send ? await queueStaffDigest(person, digestSubject(day), now) : null;
        await insertDigestSent({ userId: person.id, day, outboxId, createdAt: now.toISOString() });
      });
      if (send) run.queued++;
      else run.empty++;
    } catch (error) {
      // Another instance did this person's digest a moment ago: its row stands, ours rolled back.
      if (!isUniqueViolation(error)) throw error;
      run.alreadyDone++;
    }
  }
  return run;
}

// The outbox worker renders queued digests through this service, when they are sent.
registerMailRenderer(DIGEST_TEMPLATE, (row) => renderQueuedDigest(row.entityId ?? "", row.payload, row.createdAt));

export const digestSubject = (day: string) => `Your daily digest for ${formatDate(day)}`;

/**
 * The e-mail of a queued digest, rendered when it is sent (the outbox worker): the lists as they stand now, by
 * the rules at the moment it was queued for (its payload's `at`), so what was dealt with meanwhile drops out.
 */
export async function renderQueuedDigest(userId: string, payload: string, queuedAt: string): Promise<RenderedMail> {
  const user = await getUser(userId);
  if (!user) throw new PermanentMailError("Not sent: the user was deleted first");
  let at = queuedAt;
  try {
    const parsed = JSON.parse(payload) as { at?: unknown };
    if (typeof parsed.at === "string" && !Number.isNaN(Date.parse(parsed.at))) at = parsed.at;
  } catch {
    // No moment recorded: the row's own time.
  }
  return renderDigestMail(await digestFor(user, new Date(at)));
}

// ---------------------------------------------------------------- the switch

export const DIGEST_ON = "Daily digest e-mail switched on";
export const DIGEST_OFF = "Daily digest e-mail switched off";

export type DigestSetting = { on: boolean; hour: number; sentToday: boolean };

/** Anyone signed in reads and changes their own switch; an admin may change anyone's. */
function mayChange(actor: StaffActor, userId: string) {
  if (actor.user.id !== userId && actor.user.role !== "admin") throw forbidden();
}

export async function getDigestSetting(actor: StaffActor, userId: string, now = new Date()): Promise<DigestSetting> {
  mayChange(actor, userId);
  const on = await getDigestPreference(userId);
  if (on === null) throw notFound("User");
  return { on, hour: env().DIGEST_HOUR, sentToday: await digestSentOn(userId, siteToday(now)) };
}

export async function setDigestSetting(actor: StaffActor, userId: string, on: boolean): Promise<void> {
  mayChange(actor, userId);
  await inTransaction(async () => {
    const before = await getDigestPreference(userId);
    if (before === null || !(await setDigestPreference(userId, on))) throw notFound("User");
    if (before !== on) await record(actor, "update", "user", userId, `Daily digest e-mail: ${on ? "on" : "off"}`);
  });
}

/** The day of a person's next digest: today until today's is done, then tomorrow. */
export function nextDigestDay(sentToday: boolean, now = new Date()): string {
  const today = siteToday(now);
  return sentToday ? nextDay(today) : today;
}
