import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { newId } from "~/util/ids";
import { runOutboxPass } from "~/infra/outbox-worker.server";
import { insertEnquiry, updateEnquiryRow, type EnquiryInput } from "~/models/enquiry.server";
import { listOutboxMessages } from "~/models/outbox.server";
import type { StaffActor } from "~/services/actor";
import { getDigestSetting, runDigestJob, setDigestSetting } from "~/services/digest.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";
import { startSmtpSink } from "../helpers/smtp-sink";

/**
 * The daily digest, end to end on a real database and a real SMTP server: the job is called with a `now` (a
 * Hyderabad day in 2031), the outbox worker's passes deliver what it queued.
 */
const smtp = await startSmtpSink();
Object.assign(process.env, {
  SMTP_URL: smtp.url,
  MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>",
  PUBLIC_URL: "https://academy.example",
  TRUST_PROXY: "true",
});

useTestDatabase();
afterAll(() => smtp.stop());

const HOUR = 9;
const DAY = "2031-06-10";
// 09:00 in Hyderabad is 03:30 UTC.
const BEFORE_HOUR = new Date("2031-06-10T03:29:00Z");
const AFTER_HOUR = new Date("2031-06-10T04:30:00Z"); // 10:00 IST
const LATE_SAME_DAY = new Date("2031-06-10T17:00:00Z"); // 22:30 IST
const NEXT_DAY = new Date("2031-06-11T04:30:00Z");

const base: EnquiryInput = {
  fullName: "Lead",
  email: "lead@example.com",
  phone: "9876543210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online",
};
async function enquiry(
  fullName: string,
  createdAt: string,
  changes: { assigneeId?: string; followUpAt?: string; status?: "new" | "contacted" | "enrolled" | "closed" } = {},
) {
  const e = await insertEnquiry({ ...base, fullName }, { createdAt });
  if (Object.keys(changes).length) await updateEnquiryRow(e.id, changes);
  return e;
}

/** A waitlist seat offered to an enquiry's sender (rows as migration 0013 defines them). */
async function offer(enquiryId: string, expiresAt: string, status = "open") {
  const entryId = newId();
  await db()
    .insertInto("waitlist_entries")
    .values({
      id: entryId,
      scheduleId: "batch-1",
      enquiryId,
      status: status === "open" ? "offered" : status,
      joinedAt: "2031-06-01T00:00:00.000Z",
      updatedAt: "2031-06-09T00:00:00.000Z",
    })
    .execute();
  await db()
    .insertInto("waitlist_offers")
    .values({
      id: newId(),
      entryId,
      scheduleId: "batch-1",
      enquiryId,
      tokenHash: newId(),
      status,
      createdAt: "2031-06-09T00:00:00.000Z",
      expiresAt,
      closedAt: null,
    })
    .execute();
}

async function drain() {
  for (let i = 0; i < 20 && (await runOutboxPass(() => {})) > 0; i++);
}
const digestRows = async () => (await listOutboxMessages({ limit: 100 })).data.filter((m) => m.event === "staff.digest");
const sentRows = () => db().selectFrom("digests_sent").selectAll().orderBy("userId").execute();
const actorOf = (u: { id: string; name: string; email: string; role: "admin" | "editor" }): StaffActor => ({ user: u, ip: "127.0.0.1" });

let alice: Awaited<ReturnType<typeof createUserWithoutActor>>;
let bob: typeof alice;
let carol: typeof alice;
const ids: Record<string, string> = {};

beforeEach(async () => {
  smtp.received.length = 0;
  for (const table of ["digests_sent", "outbox", "waitlist_offers", "waitlist_entries", "enquiries", "users"] as const) await db().deleteFrom(table).execute();
  alice = await createUserWithoutActor({ name: "Alice Admin", email: "alice@example.com", password: "Correct-Horse-42", role: "admin" });
  bob = await createUserWithoutActor({ name: "Bob Editor", email: "bob@example.com", password: "Correct-Horse-42", role: "editor" });
  carol = await createUserWithoutActor({ name: "Carol Editor", email: "carol@example.com", password: "Correct-Horse-42", role: "editor" });
  await setDigestSetting(actorOf(carol), carol.id, false);
  const recent = "2031-06-10T01:00:00Z";
  ids.overdue = (await enquiry("Overdue Olga", recent, { assigneeId: alice.id, followUpAt: "2031-06-09T06:00:00.000Z" })).id;
  ids.dueToday = (await enquiry("Later Lakshmi", recent, { assigneeId: alice.id, followUpAt: "2031-06-10T09:00:00.000Z" })).id;
  ids.waitingMine = (await enquiry("Waiting Wasim", "2031-06-08T01:00:00.000Z", { assigneeId: alice.id })).id;
  ids.waitingUnassigned = (await enquiry("Nobody's Nandini", "2031-06-08T02:00:00.000Z")).id;
  ids.recentNew = (await enquiry("Fresh Farhan", recent)).id;
  ids.tomorrow = (await enquiry("Tomorrow Tara", recent, { assigneeId: alice.id, followUpAt: "2031-06-11T06:00:00.000Z" })).id;
  ids.closedPast = (await enquiry("Closed Chitra", recent, { assigneeId: alice.id, followUpAt: "2031-06-09T06:00:00.000Z", status: "closed" })).id;
  ids.bobOverdue = (await enquiry("Bob's Balaji", recent, { assigneeId: bob.id, followUpAt: "2031-06-10T02:00:00.000Z" })).id;
  ids.bobWaiting = (await enquiry("Bob's Bhavna", "2031-06-08T03:00:00.000Z", { assigneeId: bob.id })).id;
  ids.offerToday = (await enquiry("Offer Omar", recent, { assigneeId: alice.id, status: "contacted" })).id;
  ids.offerTomorrow = (await enquiry("Offer Tomorrow Tanvi", recent, { assigneeId: alice.id, status: "contacted" })).id;
  ids.offerClosed = (await enquiry("Offer Declined Deepa", recent, { assigneeId: alice.id, status: "contacted" })).id;
  ids.offerBob = (await enquiry("Offer Bob's Bala", recent, { assigneeId: bob.id, status: "contacted" })).id;
  await offer(ids.offerToday, "2031-06-10T12:00:00.000Z"); // 17:30 IST today
  await offer(ids.offerTomorrow, "2031-06-10T18:30:00.000Z"); // 00:00 IST tomorrow
  await offer(ids.offerClosed, "2031-06-10T12:00:00.000Z", "declined");
  await offer(ids.offerBob, "2031-06-10T13:00:00.000Z");
});

const link = (id: string) => `https://academy.example/admin/enquiries/${id}`;

describe("the daily digest job", () => {
  it("sends nothing before the hour", async () => {
    expect(await runDigestJob(BEFORE_HOUR, HOUR)).toMatchObject({ queued: 0 });
    expect(await digestRows()).toEqual([]);
    expect(await sentRows()).toEqual([]);
  });

  it("after the hour, queues one digest per opted-in staff member with their sections, and it arrives", async () => {
    const run = await runDigestJob(AFTER_HOUR, HOUR);
    expect(run).toEqual({ day: DAY, queued: 2, empty: 0, alreadyDone: 0 });
    const rows = await digestRows();
    expect(rows.map((r) => r.recipient).sort()).toEqual(["alice@example.com", "bob@example.com"]);
    expect(rows.every((r) => r.subject === "Your daily digest for Jun 10, 2031")).toBe(true);
    await drain();
    const [mail] = await smtp.waitFor((m) => m.envelope.to.includes("alice@example.com"));
    const text = mail.parsed.text!;
    const html = mail.parsed.html as string;
    for (const part of [text, html]) {
      expect(part).toContain("Overdue follow-ups (1)");
      expect(part).toContain("Follow-ups due today (1)");
      expect(part).toContain("New enquiries waiting more than 24 hours (2)");
      expect(part).toContain("Waitlist offers expiring today (1)");
      for (const key of ["overdue", "dueToday", "waitingMine", "waitingUnassigned", "offerToday"]) expect(part).toContain(link(ids[key]));
      for (const key of ["recentNew", "tomorrow", "closedPast", "bobOverdue", "bobWaiting", "offerTomorrow", "offerClosed", "offerBob"])
        expect(part).not.toContain(link(ids[key]));
      expect(part).toContain("/admin/users/me/digest");
    }
    // Sections in order, each line under its own heading.
    expect(text.indexOf("Overdue Olga")).toBeGreaterThan(text.indexOf("Overdue follow-ups"));
    expect(text.indexOf("Later Lakshmi")).toBeGreaterThan(text.indexOf("Follow-ups due today"));
    expect(text.indexOf("Waiting Wasim")).toBeGreaterThan(text.indexOf("New enquiries waiting"));
    expect(text).toContain("Nobody's Nandini (unassigned, received");
    expect(text).toContain("Offer Omar (yours, offer ends Jun 10, 2031, 5:30 PM)");
    expect(html).toContain("Nobody&#x27;s Nandini");

    const [bobMail] = await smtp.waitFor((m) => m.envelope.to.includes("bob@example.com"));
    // Bob's follow-up this morning (07:30) is overdue by 10:00; the unassigned lead is his to see too.
    expect(bobMail.parsed.text).toContain(link(ids.bobOverdue));
    expect(bobMail.parsed.text).toContain(link(ids.bobWaiting));
    expect(bobMail.parsed.text).toContain(link(ids.waitingUnassigned));
    expect(bobMail.parsed.text).not.toContain(link(ids.overdue));
    expect(bobMail.parsed.text).toContain(link(ids.offerBob));
    expect(smtp.received.filter((m) => m.envelope.to.includes("carol@example.com"))).toEqual([]);
  });

  it("runs twice, late the same day, or twice at once: still one digest per person and day; the next day, another", async () => {
    const [a, b] = await Promise.all([runDigestJob(AFTER_HOUR, HOUR), runDigestJob(AFTER_HOUR, HOUR)]);
    expect(a.queued + b.queued).toBe(2);
    expect(await runDigestJob(LATE_SAME_DAY, HOUR)).toMatchObject({ queued: 0 });
    expect((await digestRows()).length).toBe(2);
    expect((await sentRows()).map((r) => r.day)).toEqual([DAY, DAY]);
    await drain();
    await smtp.waitFor(() => true, 2);
    expect(smtp.received.map((m) => m.envelope.to[0]).sort()).toEqual(["alice@example.com", "bob@example.com"]);

    expect(await runDigestJob(NEXT_DAY, HOUR)).toMatchObject({ day: "2031-06-11", queued: 2 });
    expect((await digestRows()).length).toBe(4);
  });

  it("a server down at the hour sends the day's digests at its first run after it, that day", async () => {
    expect(await runDigestJob(LATE_SAME_DAY, HOUR)).toMatchObject({ day: DAY, queued: 2 });
  });

  it("with nothing to list sends no e-mail, and the day counts as done", async () => {
    await db().deleteFrom("enquiries").execute();
    expect(await runDigestJob(AFTER_HOUR, HOUR)).toMatchObject({ queued: 0, empty: 2 });
    await enquiry("Afternoon Anil", "2031-06-10T01:00:00Z", { assigneeId: alice.id, followUpAt: "2031-06-10T08:00:00.000Z" });
    expect(await runDigestJob(LATE_SAME_DAY, HOUR)).toMatchObject({ queued: 0, empty: 0 });
    expect(await digestRows()).toEqual([]);
  });

  it("switched off: none; switched on again: one", async () => {
    await setDigestSetting(actorOf(alice), alice.id, false);
    await setDigestSetting(actorOf(bob), bob.id, false);
    expect(await runDigestJob(AFTER_HOUR, HOUR)).toMatchObject({ queued: 0, empty: 0 });
    expect(await digestRows()).toEqual([]);
    await setDigestSetting(actorOf(bob), bob.id, true);
    expect(await runDigestJob(AFTER_HOUR, HOUR)).toMatchObject({ queued: 1 });
    expect((await digestRows()).map((r) => r.recipient)).toEqual(["bob@example.com"]);
  });

  it("is rendered when sent: a lead dealt with meanwhile drops out; a person deleted meanwhile gets nothing", async () => {
    await runDigestJob(AFTER_HOUR, HOUR);
    await updateEnquiryRow(ids.overdue, { followUpAt: null });
    await db().deleteFrom("users").where("id", "=", bob.id).execute();
    await drain();
    const [mail] = await smtp.waitFor((m) => m.envelope.to.includes("alice@example.com"));
    expect(mail.parsed.text).not.toContain("Overdue follow-ups");
    expect(mail.parsed.text).not.toContain(link(ids.overdue));
    expect(mail.parsed.text).toContain(link(ids.dueToday));
    const bobRow = (await digestRows()).find((r) => r.recipient === "bob@example.com")!;
    expect(bobRow).toMatchObject({ status: "failed", lastError: "Not sent: the user was deleted first" });
    expect(smtp.received.filter((m) => m.envelope.to.includes("bob@example.com"))).toEqual([]);
  });

  it("anyone changes their own switch; an admin anyone's; an editor nobody else's", async () => {
    expect((await getDigestSetting(actorOf(carol), carol.id)).on).toBe(false);
    await setDigestSetting(actorOf(alice), carol.id, true);
    expect((await getDigestSetting(actorOf(carol), carol.id)).on).toBe(true);
    await expect(setDigestSetting(actorOf(bob), carol.id, false)).rejects.toMatchObject({ kind: "forbidden" });
    const audit = await db()
      .selectFrom("audit_log")
      .select(["userId", "action", "entityId", "summary"])
      .where("entityId", "=", carol.id)
      .orderBy("at")
      .execute();
    // Each change by whoever made it (the two may share a millisecond, so not checked in order).
    expect(audit.map((a) => `${a.userId} ${a.summary}`).sort()).toEqual([`${carol.id} Daily digest e-mail: off`, `${alice.id} Daily digest e-mail: on`].sort());
  });
});
