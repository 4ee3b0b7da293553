import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, inTransaction } from "~db/client.server";
import { runOutboxPass } from "~/infra/outbox-worker.server";
import { setTakesEnquiries } from "~/models/assignment.server";
import { listAuditEntries } from "~/models/audit-log.server";
import { insertCourse } from "~/models/course.server";
import { eachEnquiry, getEnquiry, insertEnquiry, pageEnquiries, type EnquiryInput } from "~/models/enquiry.server";
import { listOutboxMessages } from "~/models/outbox.server";
import { getSchedule, insertSchedule, listAllSchedules, type Schedule } from "~/models/schedule.server";
import { getUserWithSecret } from "~/models/user.server";
import { action as detailsAction } from "~/routes/admin.enquiries.$id";
import { loader as exportLoader } from "~/routes/admin.enquiries.export[.]csv";
import { action as apiEnquiryAction } from "~/routes/api.enquiries.$id";
import type { StaffActor } from "~/services/actor";
import { BATCH_FULL, enrolWithAddedSeat, logActivity, seatOffersMessage, setEnquiryBatch } from "~/services/enquiries.server";
import { listEnquiries, nextInMyQueue, resolveEnquiryFilter, upcomingBatchChoices, type EnquiryListQuery } from "~/services/enquiry-lists.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { isServiceError } from "~/services/service-error";
import { sidebarCounts } from "~/services/staff-counts.server";
import { createUserWithoutActor } from "~/services/users.server";
import { joinWaitlistIfFull } from "~/services/waitlist.server";
import { createUserSession } from "~/web/session.server";
import { issueToken } from "~/web/token.server";
import { useTestDatabase } from "../helpers/db";
import { startSmtpSink } from "../helpers/smtp-sink";
import { flashOf, makeRequest, run } from "./admin-route-helpers";

/**
 * Issue 37's desk (items 1, 3, 6 and 7's second half), on the service layer and the screens' routes, on SQLite and
 * (with TEST_MYSQL_URL) MariaDB: a queue that moves forward, the right batch, staff told what happened, and the list
 * filtered by batch with a CSV that holds exactly the list's rows. E-mails go through the outbox to a real SMTP server.
 */
const smtp = await startSmtpSink();
Object.assign(process.env, { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>", PUBLIC_URL: "http://academy.example" });
useTestDatabase();
afterAll(async () => {
  await smtp.stop();
});

type Staff = StaffActor & { cookie: string };
let priya: Staff;
let arjun: Staff;
let soc: { id: string; title: string };
let csp: { id: string; title: string };
let n = 0;
const visitor = { user: null, ip: "203.0.113.9" };

const lead = (over: Partial<EnquiryInput> = {}): EnquiryInput => ({
  fullName: `Desk Round ${++n}`,
  email: `round${n}@example.com`,
  phone: `96${String(40_000_000 + n).padStart(8, "0")}`,
  preferredCourse: soc.title,
  preferredMode: "online",
  ...over,
});

const batchOf = (course: { id: string }, startDate: string, seats: number, totalSeats = Math.max(seats, 1)) =>
  insertSchedule({ course: course.id, startDate, endDate: "2040-12-31", time: "7 PM", days: "Sat", mode: "online", location: "Online", seats, totalSeats });

async function staff(name: string, role: "admin" | "editor"): Promise<Staff> {
  const u = await createUserWithoutActor({ name, email: `${name.toLowerCase().replace(" ", ".")}@round2.test`, password: "long-enough-password", role });
  const login = await createUserSession(new Request("http://localhost/admin/login"), (await getUserWithSecret({ id: u.id }))!, "/admin");
  return {
    user: { id: u.id, name: u.name, email: u.email, role: u.role },
    ip: "127.0.0.1",
    requestId: "round2",
    cookie: login.headers.get("Set-Cookie")!.split(";")[0],
  };
}

const post = (who: Staff, id: string, form: Record<string, string>, search = "") =>
  run(detailsAction, makeRequest(`/admin/enquiries/${id}${search}`, { cookie: who.cookie, form }), { id });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  priya = await staff("Priya Sharma", "admin");
  arjun = await staff("Arjun Varma", "editor");
  const c1 = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "x" });
  const c2 = await insertCourse({ title: "Cloud Security Practitioner", category: "advanced", description: "y" });
  soc = { id: c1.id, title: c1.title };
  csp = { id: c2.id, title: c2.title };
});

beforeEach(async () => {
  smtp.received.length = 0;
  await db().deleteFrom("outbox").execute();
});

describe("the queue moves forward", () => {
  it("leaves out every enquiry whose follow-up is still to come, New or not, until it is due; the sidebar's count is the list's", async () => {
    await db().deleteFrom("enquiries").execute();
    const now = new Date("2035-06-10T06:30:00.000Z");
    const at = (iso: string, set: Record<string, unknown> = {}) =>
      insertEnquiry(lead(), { createdAt: iso }).then(async (e) => {
        if (Object.keys(set).length) await db().updateTable("enquiries").set(set).where("id", "=", e.id).execute();
        return e;
      });
    const tomorrow = "2035-06-11T04:30:00.000Z";
    const mineWaiting = await at("2035-06-01T10:00:00.000Z", { assigneeId: priya.user.id, followUpAt: tomorrow });
    const nobodysWaiting = await at("2035-06-02T10:00:00.000Z", { followUpAt: tomorrow });
    const contactedWaiting = await at("2035-06-02T11:00:00.000Z", { assigneeId: priya.user.id, followUpAt: tomorrow, status: "contacted" });
    const mineFresh = await at("2035-06-03T10:00:00.000Z", { assigneeId: priya.user.id });
    const nobodysDue = await at("2035-06-04T10:00:00.000Z", { followUpAt: "2035-06-09T10:00:00.000Z" });
    const nobodysFresh = await at("2035-06-05T10:00:00.000Z");
    const mineOverdue = await at("2035-06-06T10:00:00.000Z", { assigneeId: priya.user.id, followUpAt: "2035-06-09T05:00:00.000Z" });
    const ids = async (when: Date) => (await pageEnquiries(resolveEnquiryFilter(priya, { view: "queue" }, when))).data.map((e) => e.id);

    expect(await ids(now)).toEqual([mineOverdue.id, mineFresh.id, nobodysDue.id, nobodysFresh.id]);
    expect((await sidebarCounts(priya, now)).myQueue).toBe(4);
    // Due: back in the queue (overdue follow-ups first, earliest first; nobody's New ones with the others, oldest first).
    const later = new Date("2035-06-11T05:00:00.000Z");
    expect(await ids(later)).toEqual([mineOverdue.id, mineWaiting.id, contactedWaiting.id, nobodysWaiting.id, mineFresh.id, nobodysDue.id, nobodysFresh.id]);
    expect((await sidebarCounts(priya, later)).myQueue).toBe(7);
  });

  it("two unanswered calls, Save and open next twice: the second never opens the first again, and the run is carried in the URL", async () => {
    await db().deleteFrom("enquiries").execute();
    const first = await insertEnquiry({ ...lead(), assigneeId: priya.user.id }, { createdAt: inDays(-2) });
    const second = await insertEnquiry({ ...lead(), assigneeId: priya.user.id }, { createdAt: inDays(-1) });
    const noAnswer = { intent: "log", text: "No answer", followUp: "custom", followUpAt: inDays(1), then: "next", version: "1" };

    const one = await post(priya, first.id, { ...noAnswer, run: "" }, "?view=queue");
    expect(one.status).toBe(302);
    const url = new URL(one.location!, "http://localhost");
    expect([url.pathname, url.searchParams.get("view"), url.searchParams.get("run"), url.hash]).toEqual([
      `/admin/enquiries/${second.id}`,
      "queue",
      first.id,
      "#saved",
    ]);
    expect((await flashOf(one))?.message).toBe(`Activity logged for ${first.fullName}. This is the next enquiry in your queue.`);

    const two = await post(priya, second.id, { ...noAnswer, run: first.id }, url.search);
    expect(two.location).toBe("/admin/enquiries?view=queue#admin-main");
    expect((await flashOf(two))?.message).toBe(`Activity logged for ${second.fullName}. Your queue is empty.`);

    // A note alone leaves an enquiry in the queue: the run still keeps it from coming back.
    const third = await insertEnquiry(lead(), { createdAt: inDays(-3) });
    const fourth = await insertEnquiry(lead(), { createdAt: inDays(-0.5) });
    const noted = await post(priya, third.id, { intent: "log", text: "Busy, call later", then: "next", version: "1", run: "" }, "?view=queue");
    expect(new URL(noted.location!, "http://localhost").pathname).toBe(`/admin/enquiries/${fourth.id}`);
    await logActivity(priya, fourth.id, { text: "Busy too" });
    expect(await nextInMyQueue(priya, fourth.id, [third.id])).toBeNull();
    expect(await nextInMyQueue(priya, fourth.id)).toBe(third.id);
  });
});

describe("the right batch", () => {
  let own: Schedule;
  let ownFull: Schedule;
  let other: Schedule;
  beforeAll(async () => {
    own = await batchOf(soc, "2036-01-11", 3, 30);
    ownFull = await batchOf(soc, "2036-02-08", 0, 20);
    other = await batchOf(csp, "2036-01-04", 5, 25);
  });

  it("lists the enquiry's own course's batches first with their seats left, then the other courses'", async () => {
    const choices = upcomingBatchChoices(await listAllSchedules(), null, soc.title, "2035-12-01");
    const mine = choices.filter((c) => [own.id, ownFull.id, other.id].includes(c.id));
    expect(mine.map((c) => [c.label, c.ownCourse])).toEqual([
      ["Jan 11, 2036 (Online) · 3 seats left", true],
      ["Feb 8, 2036 (Online) · full", true],
      ["Cloud Security Practitioner, starts Jan 4, 2036 (Online) · 5 seats left", false],
    ]);
  });

  it("asks before enrolling in another course's batch: nothing saved or queued until confirmed, on the screen and in the API", async () => {
    const e = await insertEnquiry(lead({ fullName: "Ravi Kumar" }));
    const question = "Enrol Ravi Kumar (SOC Analyst Training Program) in a Cloud Security Practitioner batch?";
    const refused = await logActivity(priya, e.id, { status: "enrolled", scheduleId: other.id }).catch((x: unknown) => x);
    expect(isServiceError(refused) && [refused.status, refused.code, refused.fields]).toEqual([
      400,
      "course_change_unconfirmed",
      { confirmCourseChange: question },
    ]);
    expect(await getEnquiry(e.id)).toMatchObject({ status: "new", scheduleId: null, version: 1 });
    expect((await getSchedule(other.id))!.seats).toBe(5);
    expect((await listOutboxMessages()).data).toEqual([]);

    // The screen without JavaScript: the same page, the question and every choice kept; then the confirm button's post.
    const form = { intent: "log", status: "enrolled", scheduleId: other.id, text: "Wants the cloud course after all", then: "stay", version: "1" };
    const screen = await post(priya, e.id, form);
    expect(screen.status).toBe(400);
    expect(screen.body).toMatchObject({
      refusal: {
        form: "log",
        code: "course_change_unconfirmed",
        fields: { confirmCourseChange: question },
        typed: { status: "enrolled", scheduleId: other.id },
      },
    });
    expect((await listOutboxMessages()).data).toEqual([]);
    const confirmed = await post(priya, e.id, { ...form, confirmCourseChange: "1" });
    expect(confirmed.status).toBe(302);
    expect(await getEnquiry(e.id)).toMatchObject({ status: "enrolled", scheduleId: other.id });
    expect((await listOutboxMessages()).data.map((m) => m.subject)).toContain(
      "Enrolment confirmed: Cloud Security Practitioner, starts Jan 4, 2036 | CyberSOC Academy",
    );

    // The API: a 400 naming the flag, then the same call with it.
    const token = await issueToken((await getUserWithSecret({ id: priya.user.id }))!);
    const e2 = await insertEnquiry(lead({ fullName: "Sneha Rao" }));
    const put = async (body: Record<string, unknown>) => {
      const request = new Request(`http://localhost/api/enquiries/${e2.id}`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          fullName: "Sneha Rao",
          email: e2.email,
          phone: e2.phone,
          preferredCourse: soc.title,
          preferredMode: "online",
          scheduleId: other.id,
          ...body,
        }),
      });
      const res = (await apiEnquiryAction({ request, params: { id: e2.id }, context: { cspNonce: "", clientIp: "203.0.113.9" } } as never)) as Response;
      return { status: res.status, body: (await res.json()) as { error?: { code: string; fields: Record<string, string> } } };
    };
    const api400 = await put({});
    expect([api400.status, api400.body.error?.code, api400.body.error?.fields]).toEqual([
      400,
      "course_change_unconfirmed",
      { confirmCourseChange: "Put Sneha Rao (SOC Analyst Training Program) in a Cloud Security Practitioner batch?" },
    ]);
    expect((await getEnquiry(e2.id))!.scheduleId).toBeNull();
    expect((await put({ confirmCourseChange: true })).status).toBe(200);
    expect((await getEnquiry(e2.id))!.scheduleId).toBe(other.id);

    // The single-field batch form and "Add a seat" ask too.
    const e3 = await insertEnquiry(lead());
    await expect(setEnquiryBatch(priya, e3.id, { scheduleId: other.id })).rejects.toMatchObject({ code: "course_change_unconfirmed" });
    const single = await post(priya, e3.id, { intent: "batch", scheduleId: other.id, version: "1" });
    expect([single.status, (single.body as { refusal: { form: string } }).refusal.form]).toEqual([400, "batch"]);
    await expect(enrolWithAddedSeat(priya, e3.id, { scheduleId: other.id })).rejects.toMatchObject({ code: "course_change_unconfirmed" });
    expect((await getSchedule(other.id))!.totalSeats).toBe(25);
  });

  it("a full batch is refused once, under Batch, and Add a seat beside it enrols with the same save", async () => {
    const e = await insertEnquiry(lead({ fullName: "Kiran Das" }));
    const form = { intent: "log", status: "enrolled", scheduleId: ownFull.id, text: "Paid the fee", then: "stay", version: "1" };
    const refused = await post(priya, e.id, form);
    expect(refused.status).toBe(409);
    expect((refused.body as { refusal: unknown }).refusal).toMatchObject({ code: "batch_full", message: BATCH_FULL, fields: { scheduleId: BATCH_FULL } });
    expect(Object.keys((refused.body as { refusal: { fields: object } }).refusal.fields)).toEqual(["scheduleId"]);
    const added = await post(priya, e.id, { ...form, addSeat: "1" });
    expect(added.status).toBe(302);
    expect((await flashOf(added))?.message).toBe("Activity logged for Kiran Das. A seat was added to the batch for them.");
    expect(await getEnquiry(e.id)).toMatchObject({ status: "enrolled", scheduleId: ownFull.id });
    expect(await getSchedule(ownFull.id)).toMatchObject({ seats: 0, totalSeats: 21 });
  });
});

describe("staff see what happened", () => {
  it("closing an enrolled student says who was offered the seat, and the audit log keeps it", async () => {
    const batch = await batchOf(soc, "2036-03-01", 1, 1);
    const student = await insertEnquiry(lead({ fullName: "Anil Menon" }));
    await logActivity(priya, student.id, { status: "enrolled", scheduleId: batch.id });
    const keerthi = await insertEnquiry(lead({ fullName: "Keerthi Rao", scheduleId: batch.id }));
    expect(await inTransaction(() => joinWaitlistIfFull(keerthi, batch))).toBe(1);

    const closed = await post(priya, student.id, { intent: "log", status: "closed", then: "stay", version: String((await getEnquiry(student.id))!.version) });
    expect((await flashOf(closed))?.message).toBe("Activity logged for Anil Menon. Their seat was offered to Keerthi Rao (waitlist 1).");
    const audit = (await listAuditEntries({ limit: 20 })).data.map((a) => a.summary);
    expect(audit).toContain("SOC Analyst Training Program, starts Mar 1, 2036 (Online): the seat Anil Menon held was offered to Keerthi Rao (waitlist 1)");
    expect(seatOffersMessage([])).toBeNull();
  });

  it("the new-enquiry alert goes to the admins and the round-robin owner, once each, and says who it is assigned to", async () => {
    await setTakesEnquiries(priya.user.id, false);
    await setTakesEnquiries(arjun.user.id, true);
    const e = await submitEnquiry(visitor, lead({ fullName: "Fatima Khan" }), { channel: "home" });
    expect(e.assigneeId).toBe(arjun.user.id);
    const alert = (await listOutboxMessages()).data.find((m) => m.kind === "email" && m.subject.startsWith("New enquiry:"))!;
    expect(alert.recipient.split(", ").sort()).toEqual([arjun.user.email, priya.user.email].sort());

    for (let i = 0; i < 10 && (await runOutboxPass(() => {})) > 0; i++);
    const [mail] = await smtp.waitFor((m) => m.parsed.subject?.startsWith("New enquiry: Fatima Khan") ?? false);
    expect(mail.envelope.to.sort()).toEqual([arjun.user.email, priya.user.email].sort());
    expect(mail.parsed.text).toContain("Assigned to Arjun Varma.");
    expect(mail.parsed.html).toContain("Assigned to Arjun Varma.");

    // The owner an admin already alerted: one address, once.
    await setTakesEnquiries(arjun.user.id, false);
    await setTakesEnquiries(priya.user.id, true);
    await db().deleteFrom("outbox").execute();
    await submitEnquiry(visitor, lead(), { channel: "home" });
    expect((await listOutboxMessages()).data.find((m) => m.kind === "email" && m.subject.startsWith("New enquiry:"))!.recipient).toBe(priya.user.email);
    await setTakesEnquiries(priya.user.id, false);
  });

  it("a save refused for a change meanwhile keeps every choice made, to show beside what is stored now", async () => {
    const e = await insertEnquiry(lead());
    await logActivity(arjun, e.id, { status: "closed", version: "1" });
    const refused = await post(priya, e.id, {
      intent: "log",
      status: "contacted",
      text: "Called back, keen on the weekend batch.",
      followUp: "custom",
      followUpAt: "2036-01-02T10:00",
      assigneeId: priya.user.id,
      then: "next",
      version: "1",
    });
    expect(refused.status).toBe(409);
    expect((refused.body as { refusal: unknown }).refusal).toMatchObject({
      form: "log",
      code: "edit_conflict",
      typed: {
        status: "contacted",
        text: "Called back, keen on the weekend batch.",
        followUp: "custom",
        followUpAt: "2036-01-02T10:00",
        assigneeId: priya.user.id,
        then: "next",
      },
    });
    expect((await getEnquiry(e.id))!.status).toBe("closed");
    const owner = await post(priya, e.id, { intent: "assign", assigneeId: "", version: "1" });
    expect([owner.status, (owner.body as { refusal: { form: string; typed: object } }).refusal]).toMatchObject([
      409,
      { form: "owner", typed: { assigneeId: "" } },
    ]);
  });
});

describe("the list by batch, and a CSV of exactly the list", () => {
  it("filters by batch, and the export of every view holds the list's rows in the list's order", async () => {
    await db().deleteFrom("enquiries").execute();
    const b = await batchOf(soc, "2036-05-01", 30, 30);
    const made: string[] = [];
    for (let i = 0; i < 13; i++) {
      const e = await insertEnquiry(
        { ...lead(), assigneeId: i % 3 === 0 ? null : priya.user.id, scheduleId: i % 2 ? b.id : null },
        { createdAt: new Date(Date.now() - (20 - i) * 3_600_000).toISOString() },
      );
      const set: Record<string, unknown> = {};
      if (i % 4 === 1) set.followUpAt = new Date(Date.now() - i * 600_000).toISOString();
      if (i % 4 === 2) set.followUpAt = new Date(Date.now() + i * 3_600_000).toISOString();
      if (i % 5 === 4) set.status = "contacted";
      if (Object.keys(set).length) await db().updateTable("enquiries").set(set).where("id", "=", e.id).execute();
      made.push(e.id);
    }
    const byBatch = await listEnquiries(priya, { batch: b.id, limit: 100 });
    expect(byBatch.data.map((e) => e.id).sort()).toEqual(made.filter((_, i) => i % 2).sort());

    const views: EnquiryListQuery[] = [
      { view: "queue" },
      {},
      { status: "new" },
      { sort: "follow-up" },
      { sort: "oldest", batch: b.id },
      { assignee: "mine", followUp: "overdue" },
      { followUp: "none", sort: "follow-up" },
    ];
    for (const query of views) {
      const listed = (await listEnquiries(priya, { ...query, limit: 100 })).data.map((e) => e.id);
      const search = new URLSearchParams(Object.entries(query) as [string, string][]);
      const res = (await exportLoader({
        request: makeRequest(`/admin/enquiries/export.csv?${search}`, { cookie: priya.cookie }),
        params: {},
        context: { cspNonce: "", clientIp: "203.0.113.9" },
      } as never)) as Response;
      const rows = parse(await res.text(), { columns: true, bom: true }) as Record<string, string>[];
      expect(
        rows.map((r) => r["Enquiry ID"]),
        JSON.stringify(query),
      ).toEqual(listed);
      // Read two rows at a time (a page boundary inside each part of the list): the same rows in the same order.
      const paged: string[] = [];
      for await (const page of eachEnquiry(resolveEnquiryFilter(priya, query), 2)) paged.push(...page.map((e) => e.id));
      expect(paged, JSON.stringify(query)).toEqual(listed);
    }
    expect((await listEnquiries(priya, { view: "queue", limit: 100 })).data.length).toBeLessThan(13);
  });
});
