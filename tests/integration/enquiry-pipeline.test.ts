import { PRIVACY_NOTICE_VERSION } from "~/config/privacy-notice";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { getEnquiry, insertEnquiry, pageEnquiries as listRows } from "~/models/enquiry.server";
import { getSchedule, insertSchedule } from "~/models/schedule.server";
import { insertCourse } from "~/models/course.server";
import { createUserWithoutActor } from "~/services/users.server";
import type { StaffActor } from "~/services/actor";
import {
  addEnquiryNote,
  assignEnquiry,
  BATCH_FULL,
  bulkUpdateEnquiries,
  deleteEnquiry,
  enquiryTimeline,
  setEnquiryBatch,
  setEnquiryStatus,
  setFollowUp,
} from "~/services/enquiries.server";
import { getEnquiryRecord, listEnquiries, resolveEnquiryFilter } from "~/services/enquiry-lists.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { addContactQueryNote, contactQueryTimeline, setContactQueryStatus, submitContactQuery } from "~/services/contact-queries.server";
import { pipelineFigures } from "~/services/pipeline-figures.server";
import { setTakesEnquiries } from "~/models/assignment.server";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";

setupTestDatabase();

const visitor = { user: null, ip: "203.0.113.5" };
let priya: StaffActor;
let arjun: StaffActor;
let course: { id: string; title: string };
let n = 0;
const lead = (over: Record<string, unknown> = {}) => ({
  fullName: `Lead ${++n}`,
  email: `lead${n}@example.com`,
  phone: `98${String(10_000_000 + n).padStart(8, "0")}`,
  preferredCourse: course.title,
  preferredMode: "online",
  ...over,
});
const batch = (seats: number, startDate = "2031-01-05", mode: "online" | "offline" = "online") =>
  insertSchedule({
    course: course.id,
    startDate,
    endDate: "2031-04-05",
    time: "7 PM",
    days: "Sat",
    mode,
    location: mode === "online" ? "Online" : "Hitech City",
    seats,
    totalSeats: Math.max(seats, 1),
  });

beforeAll(async () => {
  const staff = async (name: string) => {
    const u = await createUserWithoutActor({ name, email: `${name.toLowerCase()}@staff.test`, password: "long-enough-password", role: "editor" });
    return { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" } as StaffActor;
  };
  priya = await staff("Priya");
  arjun = await staff("Arjun");
  // Nobody here takes new enquiries by round-robin (tests/integration/enquiry-desk.test.ts covers it): leads arrive unassigned.
  await setTakesEnquiries(priya.user.id, false);
  await setTakesEnquiries(arjun.user.id, false);
  const c = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "x" });
  course = { id: c.id, title: c.title };
});

describe("where a lead came from", () => {
  it("keeps the visitor's UTM tags and referrer from the cookie, and the form", async () => {
    const e = await submitEnquiry(visitor, lead(), {
      channel: "enquiry-page",
      source: { utmSource: "Google", utmMedium: "cpc", utmCampaign: "diwali", referrer: "https://www.google.com/" },
    });
    expect(e.source).toEqual({ utmSource: "Google", utmMedium: "cpc", utmCampaign: "diwali", referrer: "https://www.google.com/", form: "enquiry-page" });
    expect(e.sourceLabel).toBe("google");
    const referred = await submitEnquiry(visitor, lead(), {
      channel: "home",
      source: { utmSource: null, utmMedium: null, utmCampaign: null, referrer: "https://www.instagram.com/p/x" },
    });
    expect([referred.sourceLabel, referred.source.form]).toEqual(["instagram.com", "home"]);
    const api = await submitEnquiry(visitor, lead({ source: { utmSource: "partner-site" } }), { channel: "api" });
    expect([api.sourceLabel, api.source.form, api.source.utmSource]).toEqual(["partner-site", "api", "partner-site"]);
    const direct = await submitEnquiry(visitor, lead(), { channel: "home" });
    expect(direct.sourceLabel).toBe("direct");
    expect((await enquiryTimeline(e.id))[0]).toMatchObject({
      kind: "created",
      text: "Received from the enquiry page · campaign Google / cpc / diwali · referred by https://www.google.com/",
    });
  });
});

describe("possible duplicates", () => {
  it("links an enquiry with the same phone digits or e-mail from the last 90 days, both ways, and refuses nothing", async () => {
    const first = await submitEnquiry(visitor, lead({ phone: "+91 77777 12345" }), { channel: "home" });
    const samePhone = await submitEnquiry(visitor, lead({ phone: "077777-12345" }), { channel: "enquiry-page" });
    const sameEmail = await submitEnquiry(visitor, lead({ email: first.email.toUpperCase() }), { channel: "api" });
    expect((await getEnquiryRecord(samePhone.id)).duplicateOf).toEqual([first.id]);
    expect((await getEnquiryRecord(sameEmail.id)).duplicateOf).toEqual([first.id]);
    expect((await getEnquiryRecord(first.id)).duplicateOf.sort()).toEqual([samePhone.id, sameEmail.id].sort());
  });

  it("ignores enquiries older than 90 days", async () => {
    const old = await insertEnquiry({ ...lead({ phone: "6666612345" }), preferredMode: "online" } as never, {
      createdAt: new Date(Date.now() - 91 * 86_400_000).toISOString(),
    });
    const fresh = await submitEnquiry(visitor, lead({ phone: "66666 12345" }), { channel: "home" });
    expect((await getEnquiryRecord(fresh.id)).duplicateOf).toEqual([]);
    expect((await getEnquiryRecord(old.id)).duplicateOf).toEqual([]);
  });
});

describe("a batch and its seats", () => {
  it("is set from the schedule's Enroll Now (course and start date)", async () => {
    const b = await batch(5, "2031-02-01");
    const e = await submitEnquiry(visitor, { ...lead(), batchDate: "2031-02-01" }, { channel: "enquiry-page" });
    expect(e.scheduleId).toBe(b.id);
    expect((await submitEnquiry(visitor, { ...lead(), batchDate: "2031-02-02" }, { channel: "enquiry-page" })).scheduleId).toBeNull();
  });

  it("picks, of two batches starting the same day, the one in the visitor's mode, else one with a seat left", async () => {
    const full = await batch(0, "2031-03-01", "online");
    const offline = await batch(4, "2031-03-01", "offline");
    const online = await batch(4, "2031-03-01", "online");
    const at = (mode: string) => submitEnquiry(visitor, { ...lead({ preferredMode: mode }), batchDate: "2031-03-01" }, { channel: "enquiry-page" });
    expect((await at("offline")).scheduleId).toBe(offline.id);
    expect((await at("online")).scheduleId).toBe(online.id);
    expect(full.seats).toBe(0);
    expect([offline.id, online.id]).toContain((await at("hybrid")).scheduleId);
  });

  it("loses a seat when an enquiry becomes Enrolled and gets it back when it leaves Enrolled or is deleted", async () => {
    const b = await batch(2);
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    await setEnquiryBatch(priya, e.id, { scheduleId: b.id });
    await setEnquiryStatus(priya, e.id, { status: "enrolled" });
    expect((await getSchedule(b.id))!.seats).toBe(1);
    await setEnquiryStatus(priya, e.id, { status: "enrolled" });
    expect((await getSchedule(b.id))!.seats).toBe(1);
    await setEnquiryStatus(priya, e.id, { status: "closed" });
    expect((await getSchedule(b.id))!.seats).toBe(2);
    await setEnquiryStatus(priya, e.id, { status: "enrolled" });
    await deleteEnquiry(priya, e.id);
    expect((await getSchedule(b.id))!.seats).toBe(2);
  });

  it("refuses to enrol into a full batch with a clear message and changes nothing", async () => {
    const b = await batch(0);
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    await setEnquiryBatch(priya, e.id, { scheduleId: b.id });
    await expect(setEnquiryStatus(priya, e.id, { status: "enrolled" })).rejects.toMatchObject({ kind: "conflict", message: BATCH_FULL });
    expect((await getEnquiry(e.id))!.status).toBe("new");
    expect((await getSchedule(b.id))!.seats).toBe(0);
    expect((await enquiryTimeline(e.id)).some((t) => t.kind === "status")).toBe(false);
  });

  it("moves the seat when an Enrolled enquiry changes batch", async () => {
    const [from, to] = [await batch(3), await batch(3)];
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    await setEnquiryBatch(priya, e.id, { scheduleId: from.id });
    await setEnquiryStatus(priya, e.id, { status: "enrolled" });
    await setEnquiryBatch(priya, e.id, { scheduleId: to.id });
    expect([(await getSchedule(from.id))!.seats, (await getSchedule(to.id))!.seats]).toEqual([3, 2]);
  });

  it("two enrolments at once cannot both take the last seat", async () => {
    const b = await batch(1);
    const [x, y] = [await submitEnquiry(visitor, lead(), { channel: "home" }), await submitEnquiry(visitor, lead(), { channel: "home" })];
    for (const e of [x, y]) await setEnquiryBatch(priya, e.id, { scheduleId: b.id });
    const results = await Promise.allSettled([setEnquiryStatus(priya, x.id, { status: "enrolled" }), setEnquiryStatus(arjun, y.id, { status: "enrolled" })]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((await getSchedule(b.id))!.seats).toBe(0);
  });
});

describe("owner, follow-up and the timeline", () => {
  it("records every change with who, when, from and to, newest first, notes included", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    await assignEnquiry(priya, e.id, { assigneeId: arjun.user.id });
    await setFollowUp(priya, e.id, { followUpAt: "2031-03-01T10:30" });
    await setEnquiryStatus(arjun, e.id, { status: "contacted" });
    await addEnquiryNote(arjun, e.id, { text: "Called; wants the weekend batch." });
    const saved = (await getEnquiry(e.id))!;
    // 10:30 in Hyderabad is 05:00 UTC.
    expect([saved.assigneeId, saved.followUpAt]).toEqual([arjun.user.id, "2031-03-01T05:00:00.000Z"]);
    expect(saved.firstStatusChangeAt).not.toBeNull();
    const lines = await enquiryTimeline(e.id);
    expect(lines.map((l) => [l.kind, l.userName, l.fromValue, l.toValue, l.text])).toEqual([
      ["note", "Arjun", null, null, "Called; wants the weekend batch."],
      ["status", "Arjun", "new", "contacted", null],
      ["follow_up", "Priya", null, "2031-03-01T05:00:00.000Z", null],
      ["assignee", "Priya", null, "Arjun", null],
      ["created", "", null, "home", "Received from the home page form"],
      // The privacy notice shown with the form (DPDP Act: consent recorded with its version).
      ["consent", "", "notice", "given", `Privacy notice version ${PRIVACY_NOTICE_VERSION} shown with the home page form`],
    ]);
  });

  it("refuses an unknown assignee, a bad follow-up and an empty note with clear messages", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    await expect(assignEnquiry(priya, e.id, { assigneeId: "nobody" })).rejects.toMatchObject({ fields: { assigneeId: "Choose a staff member" } });
    await expect(setFollowUp(priya, e.id, { followUpAt: "2031-02-30T10:00" })).rejects.toMatchObject({
      fields: { followUpAt: "Enter the follow-up date and time" },
    });
    await expect(addEnquiryNote(priya, e.id, { text: "   " })).rejects.toMatchObject({ fields: { text: "Note text is required" } });
  });

  it("a deleted staff member no longer owns enquiries", async () => {
    const gone = await createUserWithoutActor({ name: "Leaving", email: "leaving@staff.test", password: "long-enough-password", role: "editor" });
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    await assignEnquiry(priya, e.id, { assigneeId: gone.id });
    const admin = await createUserWithoutActor({ name: "Boss", email: "boss@staff.test", password: "long-enough-password", role: "admin" });
    const { deleteUser } = await import("~/services/users.server");
    await deleteUser({ user: { id: admin.id, name: admin.name, email: admin.email, role: "admin" }, ip: "127.0.0.1" }, gone.id);
    expect((await getEnquiry(e.id))!.assigneeId).toBeNull();
  });
});

describe("bulk changes", () => {
  it("set status and owner of several enquiries, each on its own timeline", async () => {
    const list = [await submitEnquiry(visitor, lead(), { channel: "home" }), await submitEnquiry(visitor, lead(), { channel: "home" })];
    expect(await bulkUpdateEnquiries(priya, { ids: list.map((e) => e.id), status: "contacted", assigneeId: priya.user.id })).toBe(2);
    for (const e of list) {
      expect(await getEnquiry(e.id)).toMatchObject({ status: "contacted", assigneeId: priya.user.id });
      expect(
        (await enquiryTimeline(e.id))
          .map((l) => l.kind)
          .slice(0, 2)
          .sort(),
      ).toEqual(["assignee", "status"]);
    }
    expect(await bulkUpdateEnquiries(priya, { ids: list[0].id, assigneeId: "none" })).toBe(1);
    expect((await getEnquiry(list[0].id))!.assigneeId).toBeNull();
  });

  it("are all or nothing: one full batch refuses the whole change, naming the enquiry", async () => {
    const b = await batch(0);
    const ok = await submitEnquiry(visitor, lead(), { channel: "home" });
    const full = await submitEnquiry(visitor, lead(), { channel: "home" });
    await setEnquiryBatch(priya, ok.id, { scheduleId: (await batch(5, "2031-01-12")).id });
    await setEnquiryBatch(priya, full.id, { scheduleId: b.id });
    await expect(bulkUpdateEnquiries(priya, { ids: [ok.id, full.id], status: "enrolled" })).rejects.toMatchObject({
      message: `${full.fullName}: ${BATCH_FULL}`,
    });
    expect((await getEnquiry(ok.id))!.status).toBe("new");
    await expect(bulkUpdateEnquiries(priya, { ids: [] })).rejects.toMatchObject({ kind: "invalid" });
  });
});

describe("list filters", () => {
  it("narrow by owner (mine, unassigned), follow-up (due today, overdue, none), course, mode, source, form and dates", async () => {
    await db().deleteFrom("enquiries").execute();
    // Staff made by earlier tests take enquiries by default: here leads arrive unassigned.
    await db().updateTable("users").set({ takesEnquiries: 0 }).execute();
    const now = new Date("2031-06-10T06:30:00.000Z"); // noon in Hyderabad
    const mine = await submitEnquiry(visitor, lead({ preferredMode: "offline" }), {
      channel: "home",
      source: { utmSource: "google", utmMedium: null, utmCampaign: null, referrer: null },
    });
    const theirs = await submitEnquiry(visitor, lead(), { channel: "api" });
    const nobody = await submitEnquiry(visitor, lead(), { channel: "enquiry-page" });
    await assignEnquiry(priya, mine.id, { assigneeId: priya.user.id });
    await assignEnquiry(priya, theirs.id, { assigneeId: arjun.user.id });
    await setFollowUp(priya, mine.id, { followUpAt: "2031-06-10T17:00" }); // later today
    await setFollowUp(priya, theirs.id, { followUpAt: "2031-06-09T10:00" }); // yesterday: overdue
    const ids = async (query: Parameters<typeof resolveEnquiryFilter>[1]) =>
      (await listRows(resolveEnquiryFilter(priya, query, now))).data.map((e) => e.id).sort();
    expect(await ids({ assignee: "mine" })).toEqual([mine.id]);
    expect(await ids({ assignee: "none" })).toEqual([nobody.id]);
    expect(await ids({ assignee: arjun.user.id })).toEqual([theirs.id]);
    expect(await ids({ followUp: "due" })).toEqual([mine.id]);
    expect(await ids({ followUp: "overdue" })).toEqual([theirs.id]);
    expect(await ids({ followUp: "none" })).toEqual([nobody.id]);
    expect(await ids({ mode: "offline" })).toEqual([mine.id]);
    expect(await ids({ source: "google" })).toEqual([mine.id]);
    expect(await ids({ form: "api" })).toEqual([theirs.id]);
    expect((await ids({ course: course.title })).length).toBe(3);
    expect((await ids({ from: "2000-01-01", to: "2000-01-02" })).length).toBe(0);
    expect((await listEnquiries(priya, { from: "2000-01-01" })).total).toBe(3);
    await expect(listEnquiries(priya, { from: "01/06/2031" })).rejects.toMatchObject({ fields: { from: "Enter a date as YYYY-MM-DD" } });
    // A contacted or closed lead's past follow-up is no longer overdue.
    await setEnquiryStatus(priya, theirs.id, { status: "closed" });
    expect(await ids({ followUp: "overdue" })).toEqual([]);
  });
});

describe("the dashboard's figures", () => {
  it("count per Hyderabad week, the funnel, new for more than 24 hours and my follow-ups", async () => {
    await db().deleteFrom("enquiries").execute();
    const now = new Date("2031-06-11T06:30:00.000Z"); // Wednesday noon in Hyderabad; the week began Monday 9 June
    const at = (iso: string) => insertEnquiry(lead() as never, { createdAt: iso });
    await at("2031-06-08T18:29:59.000Z"); // Sunday 23:59 in Hyderabad: last week
    await at("2031-06-08T18:30:00.000Z"); // Monday 00:00 in Hyderabad: this week
    const old = await at("2031-06-01T10:00:00.000Z");
    await at("2031-03-01T10:00:00.000Z"); // outside 12 weeks
    await db().updateTable("enquiries").set({ status: "enrolled", firstStatusChangeAt: "2031-06-02T00:00:00.000Z" }).where("id", "=", old.id).execute();
    const figures = await pipelineFigures(priya, now);
    expect(figures.weekly.at(-1)).toEqual({ weekStart: "2031-06-09", count: 1 });
    expect(figures.weekly.at(-2)).toEqual({ weekStart: "2031-06-02", count: 1 });
    expect(figures.weekly.at(-3)).toEqual({ weekStart: "2031-05-26", count: 1 });
    expect(figures.weekly.reduce((s, w) => s + w.count, 0)).toBe(3);
    expect(figures.funnels[0]).toEqual({ days: 30, received: 3, contacted: 1, enrolled: 1, closed: 0, conversion: 33.3 });
    expect(figures.unansweredOver24h).toBe(3); // the March one and the two from June 8 (more than 24 h before now)
  });
});

describe("contact query timeline", () => {
  it("has the creation, status changes and notes", async () => {
    const q = await submitContactQuery(visitor, { name: "Meera", email: "meera@example.com", message: "Hello" });
    await setContactQueryStatus(priya, q.id, { status: "replied" });
    await addContactQueryNote(priya, q.id, { text: "Sent the brochure." });
    expect((await contactQueryTimeline(q.id)).map((l) => [l.kind, l.fromValue, l.toValue, l.text])).toEqual([
      ["note", null, null, "Sent the brochure."],
      ["status", "new", "replied", null],
      ["created", null, null, "Received"],
      ["consent", "notice", "given", `Privacy notice version ${PRIVACY_NOTICE_VERSION} shown with the contact page`],
    ]);
  });
});
