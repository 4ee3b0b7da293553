import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, inTransaction } from "~db/client.server";
import { runOutboxPass } from "~/infra/outbox-worker.server";
import { issueToken } from "~/web/token.server";
import { offerToken } from "~/infra/waitlist-token.server";
import { insertCourse } from "~/models/course.server";
import { getEnquiry, insertEnquiry, type EnquiryInput } from "~/models/enquiry.server";
import { listOutboxMessages } from "~/models/outbox.server";
import { insertSchedule, type Schedule } from "~/models/schedule.server";
import { getUserWithSecret } from "~/models/user.server";
import { action as bulkAction } from "~/routes/admin.enquiries";
import { action as apiStatusAction } from "~/routes/api.enquiries.$id.status";
import { action as apiEnquiryAction } from "~/routes/api.enquiries.$id";
import type { StaffActor } from "~/services/actor";
import { bulkUpdateEnquiries, setEnquiryStatus } from "~/services/enquiries.server";
import { NOT_ONE_ADDRESS } from "~/services/notifications.server";
import { acceptOffer } from "~/services/waitlist-offers.server";
import { joinWaitlistIfFull } from "~/services/waitlist.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";
import { readCalendar } from "../helpers/ical";
import { startSmtpSink, type ReceivedMail } from "../helpers/smtp-sink";
import { makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * The enrolment confirmation: when an enquiry's status becomes Enrolled (the API, the list's bulk action, any
 * caller of the service), the student gets one e-mail with their batch and its calendar file, delivered by the
 * outbox worker to a real SMTP server in this process and read back with mailparser and ical.js.
 */
const smtp = await startSmtpSink();
// Read once, at the first env() call: set before any code runs.
Object.assign(process.env, {
  SMTP_URL: smtp.url,
  MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>",
  PUBLIC_URL: "https://academy.example",
  TRUST_PROXY: "true",
});

useTestDatabase();
afterAll(async () => {
  await smtp.stop();
});

const logs: string[] = [];
async function drain() {
  for (let i = 0; i < 20 && (await runOutboxPass((l) => logs.push(l))) > 0; i++);
}

let online: Schedule;
let offline: Schedule;
let priya: StaffActor;
let token = "";
beforeAll(async () => {
  const course = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "Job-ready SOC skills" });
  // 2027-01-04 is a Monday.
  online = await insertSchedule({
    course: course.id,
    startDate: "2027-01-04",
    endDate: "2027-01-15",
    time: "7:00 PM - 9:00 PM",
    days: "Mon, Wed, Fri",
    mode: "online",
    location: "Live online (Zoom)",
    seats: 10,
    totalSeats: 20,
  });
  offline = await insertSchedule({
    course: course.id,
    startDate: "2027-01-09",
    endDate: "2027-01-17",
    time: "10:00 AM - 1:00 PM",
    days: "Sat & Sun",
    mode: "offline",
    location: "HITEC City campus, Hyderabad",
    seats: 10,
    totalSeats: 20,
  });
  const u = await createUserWithoutActor({ name: "Priya Enrol", email: "priya.enrol@staff.test", password: "long-enough-password", role: "editor" });
  priya = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  token = await issueToken((await getUserWithSecret({ id: u.id }))!);
});

beforeEach(async () => {
  smtp.received.length = 0;
  await db().deleteFrom("outbox").execute();
});

let n = 0;
const enquiry = (over: Partial<EnquiryInput> = {}) =>
  insertEnquiry({
    fullName: `Ravi Kumar ${++n}`,
    email: `ravi${n}@example.com`,
    phone: `98${String(30_000_000 + n)}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    message: "Call me",
    ...over,
  });

const putStatus = (id: string, status: string) =>
  run(
    apiStatusAction,
    new Request(`http://localhost/api/enquiries/${id}/status`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ status }),
    }),
    { id },
  );

const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));
const calendarOf = (mail: ReceivedMail) => {
  const files = mail.parsed.attachments.filter((a) => a.contentType === "text/calendar");
  expect(files).toHaveLength(1);
  return { file: files[0], ...readCalendar(files[0].content.toString("utf8")) };
};

describe("the enrolment confirmation", () => {
  it("set through the API: one e-mail with the batch and its calendar file, rendered at send time", async () => {
    const e = await enquiry({ scheduleId: online.id });
    expect((await putStatus(e.id, "enrolled")).status).toBe(200);

    const rows = (await listOutboxMessages()).data.filter((r) => r.event === "enquiry.enrolled");
    expect(rows.map((r) => [r.kind, r.recipient, r.subject, r.entityType, r.entityId, r.status])).toEqual([
      ["email", e.email, "Enrolment confirmed: SOC Analyst Training Program, starts Jan 4, 2027 | CyberSOC Academy", "enquiry", e.id, "pending"],
    ]);
    // Like the other e-mails, the row holds no copy of the student's details: it is rendered when it is sent.
    const stored = await db().selectFrom("outbox").select(["template", "payload"]).where("event", "=", "enquiry.enrolled").executeTakeFirstOrThrow();
    expect(stored).toEqual({ template: "enrolment-confirmation", payload: "" });

    await drain();
    const [mail] = await smtp.waitFor((m) => m.envelope.to.includes(e.email));
    expect(mail.parsed.subject).toBe("Enrolment confirmed: SOC Analyst Training Program, starts Jan 4, 2027 | CyberSOC Academy");
    expect(mail.parsed.to).toMatchObject({ value: [{ name: e.fullName, address: e.email }] });
    const text = mail.parsed.text!;
    for (const line of [
      `Dear ${e.fullName},`,
      "Your enrolment in SOC Analyst Training Program is confirmed.",
      "Course: SOC Analyst Training Program",
      "Dates: Jan 4, 2027 to Jan 15, 2027",
      "Days: Mon, Wed, Fri",
      "Time: 7:00 PM - 9:00 PM (Hyderabad time)",
      "Mode: Online",
      "Location: Online",
      "The attached calendar file (.ics)",
    ]) {
      expect(text).toContain(line);
    }
    expect(mail.parsed.html).toContain("Jan 4, 2027 to Jan 15, 2027");
    expect(mail.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH/i);

    const { file, calendar, events } = calendarOf(mail);
    expect(file.filename).toBe("soc-analyst-training-program-2027-01-04.ics");
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(events).toHaveLength(1);
    expect(events[0].uid).toBe(`${online.id}@academy.example`);
    expect(events[0].location).toBe("Online");
    expect(events[0].occurrences).toEqual(["04", "06", "08", "11", "13", "15"].map((d) => `2027-01-${d} 19:00–21:00`));
  });

  it("from the list's bulk action: one each, with or without a batch; nothing for one already Enrolled", async () => {
    const cookie = await staffCookie("editor");
    const withBatch = await enquiry({ scheduleId: offline.id, preferredMode: "offline" });
    const noBatch = await enquiry({ preferredCourse: "Threat Hunting Masterclass" });
    const already = await enquiry({ scheduleId: online.id });
    await setEnquiryStatus(priya, already.id, { status: "enrolled" });
    await drain();
    smtp.received.length = 0;

    const out = await run(bulkAction, makeRequest("/admin/enquiries", { cookie, form: { ids: [withBatch.id, noBatch.id, already.id], status: "enrolled" } }));
    expect(out.status).toBe(302);
    for (const e of [withBatch, noBatch, already]) expect((await getEnquiry(e.id))!.status).toBe("enrolled");
    await drain();
    await smtp.waitFor(() => true, 2);

    const [a] = mailsTo(withBatch.email);
    expect(a.parsed.subject).toBe("Enrolment confirmed: SOC Analyst Training Program, starts Jan 9, 2027 | CyberSOC Academy");
    expect(a.parsed.text).toContain("Location: HITEC City campus, Hyderabad");
    expect(a.parsed.text).toContain("Days: Sat & Sun");
    const { events } = calendarOf(a);
    expect(events[0].location).toBe("HITEC City campus, Hyderabad");
    expect(events[0].occurrences).toEqual(["09", "10", "16", "17"].map((d) => `2027-01-${d} 10:00–13:00`));

    const [b] = mailsTo(noBatch.email);
    expect(b.parsed.subject).toBe("Enrolment confirmed: Threat Hunting Masterclass | CyberSOC Academy");
    expect(b.parsed.text).toContain("Your enrolment in Threat Hunting Masterclass is confirmed.");
    expect(b.parsed.text).toContain("We will write to you with your batch's dates and timings");
    expect(b.parsed.text).not.toContain("calendar file");
    expect(b.parsed.attachments).toEqual([]);

    expect(mailsTo(already.email)).toEqual([]);
    expect(smtp.received).toHaveLength(2);
  });

  it("is not sent again when Enrolled is set again (screen, bulk, API status, API update)", async () => {
    const e = await enquiry({ scheduleId: online.id });
    await putStatus(e.id, "enrolled");
    await drain();
    await smtp.waitFor((m) => m.envelope.to.includes(e.email));

    await setEnquiryStatus(priya, e.id, { status: "enrolled" });
    await bulkUpdateEnquiries(priya, { ids: [e.id], status: "enrolled" });
    expect((await putStatus(e.id, "enrolled")).status).toBe(200);
    const now = (await getEnquiry(e.id))!;
    const put = await run(
      apiEnquiryAction,
      new Request(`http://localhost/api/enquiries/${e.id}`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          fullName: now.fullName,
          email: now.email,
          phone: now.phone,
          preferredCourse: now.preferredCourse,
          preferredMode: now.preferredMode,
          message: "Evenings",
          status: "enrolled",
        }),
      }),
      { id: e.id },
    );
    expect(put.status).toBe(200);
    await drain();
    expect((await listOutboxMessages()).data.filter((r) => r.event === "enquiry.enrolled")).toHaveLength(1);
    expect(mailsTo(e.email)).toHaveLength(1);
  });

  it("comes once when a waitlist offer is accepted (the same status path), with the batch's calendar", async () => {
    const course = (await db().selectFrom("courses").select("id").executeTakeFirstOrThrow()).id;
    const small = await insertSchedule({
      course,
      startDate: "2027-02-01",
      endDate: "2027-02-12",
      time: "6:30 PM - 8:30 PM",
      days: "Mon to Fri",
      mode: "online",
      location: "Live online (Zoom)",
      seats: 1,
      totalSeats: 1,
    });
    const first = await enquiry({ scheduleId: small.id });
    await setEnquiryStatus(priya, first.id, { status: "enrolled" });
    const waiting = await enquiry({ scheduleId: small.id });
    expect(await inTransaction(() => joinWaitlistIfFull(waiting, small))).toBe(1);
    // The first student leaves: the seat is offered to the one waiting, who accepts through the offer's link.
    await setEnquiryStatus(priya, first.id, { status: "contacted" });
    const offer = await db().selectFrom("waitlist_offers").select("id").where("enquiryId", "=", waiting.id).executeTakeFirstOrThrow();
    expect((await acceptOffer({ ip: "203.0.113.9", requestId: "test" }, offerToken(offer.id))).acceptedNow).toBe(true);
    expect((await getEnquiry(waiting.id))!.status).toBe("enrolled");
    await drain();
    await smtp.waitFor((m) => m.envelope.to.includes(waiting.email) && m.parsed.subject!.startsWith("Enrolment confirmed"));
    const confirmations = mailsTo(waiting.email).filter((m) => m.parsed.subject!.startsWith("Enrolment confirmed"));
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0].parsed.subject).toBe("Enrolment confirmed: SOC Analyst Training Program, starts Feb 1, 2027 | CyberSOC Academy");
    expect(calendarOf(confirmations[0]).events[0].occurrences).toHaveLength(10);
  });

  it("is not sent to an address that is not one plain address, nor when the enquiry left Enrolled before the send", async () => {
    const odd = await enquiry({ email: "ravi@example.com, boss@example.com", scheduleId: online.id });
    await setEnquiryStatus(priya, odd.id, { status: "enrolled" });
    const [row] = (await listOutboxMessages()).data.filter((r) => r.event === "enquiry.enrolled");
    expect([row.status, row.lastError]).toEqual(["failed", NOT_ONE_ADDRESS]);

    const changed = await enquiry({ scheduleId: online.id });
    await setEnquiryStatus(priya, changed.id, { status: "enrolled" });
    await setEnquiryStatus(priya, changed.id, { status: "contacted" });
    await drain();
    const rows = (await listOutboxMessages()).data.filter((r) => r.entityId === changed.id);
    expect(rows.map((r) => [r.status, r.lastError])).toEqual([["failed", "Not sent: the enquiry is no longer Enrolled"]]);
    expect(smtp.received).toEqual([]);
  });
});
