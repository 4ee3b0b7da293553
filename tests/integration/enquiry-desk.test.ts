import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { insertCourse } from "~/models/course.server";
import { getEnquiry, insertEnquiry, pageEnquiries as listRows } from "~/models/enquiry.server";
import { getSchedule, insertSchedule } from "~/models/schedule.server";
import { setTakesEnquiries } from "~/models/assignment.server";
import { listTimeline } from "~/models/timeline.server";
import { listAuditEntries } from "~/models/audit-log.server";
import type { StaffActor } from "~/services/actor";
import { createUserWithoutActor } from "~/services/users.server";
import {
  addEnquiryNote,
  assignEnquiry,
  bulkUpdateEnquiries,
  ENROL_NEEDS_BATCH,
  enrolWithAddedSeat,
  logActivity,
  setEnquiryBatch,
  setEnquiryStatus,
  setFollowUp,
  updateEnquiry,
} from "~/services/enquiries.server";
import { nextInMyQueue, resolveEnquiryFilter } from "~/services/enquiry-lists.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { runEscalationJob } from "~/services/escalation.server";
import { setContactQueryStatus, submitContactQuery, addContactQueryNote, contactQueryTimeline } from "~/services/contact-queries.server";
import { joinWaitlistIfFull } from "~/services/waitlist.server";
import { updateSchedule } from "~/services/schedules.server";
import { useTestDatabase } from "../helpers/db";

/**
 * The enquiry desk's rules (issue 26), on the service layer both the screens and the API use, on SQLite and (under
 * npm run test:mysql) MariaDB: versions that refuse a save drawn from an older record, form keys that make a repeat
 * add nothing, one save for a call, the queue, owners on arrival, escalation, enrolment with a batch and an added seat.
 */
useTestDatabase();

const visitor = { user: null, ip: "203.0.113.9" };
let priya: StaffActor;
let arjun: StaffActor;
let meena: StaffActor;
let course: { id: string; title: string };
let n = 0;
const lead = (over: Record<string, unknown> = {}) => ({
  fullName: `Desk Lead ${++n}`,
  email: `desk${n}@example.com`,
  phone: `97${String(20_000_000 + n).padStart(8, "0")}`,
  preferredCourse: course.title,
  preferredMode: "online",
  ...over,
});
const batch = (seats: number, startDate = "2032-01-05") =>
  insertSchedule({
    course: course.id,
    startDate,
    endDate: "2033-12-31",
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    seats,
    totalSeats: Math.max(seats, 1),
  });

beforeAll(async () => {
  const staff = async (name: string, role: "admin" | "editor" = "editor") => {
    const u = await createUserWithoutActor({ name, email: `${name.toLowerCase().replace(" ", ".")}@desk.test`, password: "long-enough-password", role });
    return { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "desk" } as StaffActor;
  };
  priya = await staff("Priya Sharma", "admin");
  arjun = await staff("Arjun Varma");
  meena = await staff("Meena Iyer");
  const c = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "x" });
  course = { id: c.id, title: c.title };
});

describe("never stale, never overwritten", () => {
  it("a save drawn from an older version is refused with who changed it and when, and writes nothing", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    const drawn = (await getEnquiry(e.id))!;
    // Tab A assigns; tab B, drawn before that, then saves an owner: refused, A's change stands.
    await assignEnquiry(priya, e.id, { assigneeId: arjun.user.id, version: drawn.version });
    const refused = assignEnquiry(meena, e.id, { assigneeId: "", version: drawn.version });
    await expect(refused).rejects.toMatchObject({ kind: "conflict", code: "edit_conflict" });
    await expect(refused).rejects.toThrow(/^This enquiry was changed by Priya Sharma at .+ IST\. Here is what it holds now\.$/);
    const now = (await getEnquiry(e.id))!;
    expect([now.assigneeId, now.version, now.updatedBy]).toEqual([arjun.user.id, drawn.version + 1, "Priya Sharma"]);
    // Drawn from the current version, it goes through.
    await setEnquiryStatus(meena, e.id, { status: "contacted", version: now.version });
    expect((await getEnquiry(e.id))!.status).toBe("contacted");
  });

  it("of two saves drawn from the same version at the same moment, exactly one is applied", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    const { version } = (await getEnquiry(e.id))!;
    const results = await Promise.allSettled([
      setFollowUp(priya, e.id, { followUpAt: "2032-02-01T10:00", version }),
      setEnquiryStatus(arjun, e.id, { status: "closed", version }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await getEnquiry(e.id))!.version).toBe(version + 1);
  });

  it("a repeat of the same form post (double click, refresh, resubmit) adds nothing", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    const note = { text: "Called, will think about it.", formKey: `page-${e.id}.note` };
    await Promise.all([addEnquiryNote(priya, e.id, note), addEnquiryNote(priya, e.id, note)]);
    await addEnquiryNote(priya, e.id, note);
    const notes = (await listTimeline("enquiry", e.id)).filter((l) => l.kind === "note");
    expect(notes.map((l) => l.text)).toEqual(["Called, will think about it."]);
    // A log posted twice: one status line, one note.
    const { version } = (await getEnquiry(e.id))!;
    const log = { status: "contacted", text: "Spoke to them", followUp: "keep", version, formKey: `page-${e.id}.log` };
    await logActivity(priya, e.id, log);
    await logActivity(priya, e.id, log);
    const lines = await listTimeline("enquiry", e.id);
    expect(lines.filter((l) => l.kind === "status")).toHaveLength(1);
    expect(lines.filter((l) => l.kind === "note").map((l) => l.text)).toEqual(["Spoke to them", "Called, will think about it."]);
  });

  it("contact queries too: an old version is refused, a repeated note adds nothing", async () => {
    const q = await submitContactQuery(visitor, { name: "Sana", email: "sana@example.com", message: "Fees?" });
    await setContactQueryStatus(priya, q.id, { status: "replied", version: q.version });
    await expect(setContactQueryStatus(arjun, q.id, { status: "closed", version: q.version })).rejects.toThrow(
      /^This contact query was changed by Priya Sharma/,
    );
    const note = { text: "Sent the fee sheet", formKey: `cq-${q.id}.note` };
    await addContactQueryNote(priya, q.id, note);
    await addContactQueryNote(priya, q.id, note);
    expect((await contactQueryTimeline(q.id)).filter((l) => l.kind === "note")).toHaveLength(1);
  });
});

describe("log a call in one save", () => {
  it("applies outcome, note, follow-up preset, owner and batch together, one timeline line each", async () => {
    await setTakesEnquiries(priya.user.id, false);
    await setTakesEnquiries(arjun.user.id, false);
    await setTakesEnquiries(meena.user.id, false);
    const e = await submitEnquiry(visitor, lead(), { channel: "enquiry-page" });
    const b = await batch(5, "2032-03-01");
    const before = (await getEnquiry(e.id))!;
    await logActivity(arjun, e.id, {
      status: "contacted",
      text: "Called: wants the weekend batch.",
      followUp: "2032-02-10T10:00",
      assigneeId: arjun.user.id,
      scheduleId: b.id,
      version: before.version,
    });
    const saved = (await getEnquiry(e.id))!;
    expect(saved).toMatchObject({
      status: "contacted",
      assigneeId: arjun.user.id,
      scheduleId: b.id,
      followUpAt: "2032-02-10T04:30:00.000Z",
      version: before.version + 1,
    });
    expect(saved.touchedAt).not.toBeNull();
    const kinds = (await listTimeline("enquiry", e.id)).map((l) => l.kind);
    expect(kinds.slice(0, 5).sort()).toEqual(["assignee", "batch", "follow_up", "note", "status"]);
    // The audit log reads as the screen does: labels and names, no column names or ids.
    const audit = (await listAuditEntries({ limit: 5 })).data.find((a) => a.entityId === e.id && a.action === "update")!;
    expect(audit.summary).toContain("Owner: Unassigned → Arjun Varma");
    expect(audit.summary).toMatch(/Follow-up: none → Feb 10, 2032, 10:00 AM IST/);
    expect(audit.summary).not.toMatch(/assigneeId|scheduleId|followUpAt|[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it("keeps what is not asked to change, refuses an empty log, and reads a typed time without the Pick radio", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    await expect(logActivity(priya, e.id, { followUp: "keep", text: "  " })).rejects.toMatchObject({
      fields: { text: "Write a note or change something to log" },
    });
    await logActivity(priya, e.id, { followUp: "keep", followUpAt: "2032-05-06T15:30", text: "Left a voicemail" });
    expect((await getEnquiry(e.id))!).toMatchObject({ status: "new", followUpAt: "2032-05-06T10:00:00.000Z" });
    await logActivity(priya, e.id, { followUp: "none", text: "Done" });
    expect((await getEnquiry(e.id))!.followUpAt).toBeNull();
  });

  it("a follow-up set on an unassigned enquiry makes it the setter's", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    expect((await getEnquiry(e.id))!.assigneeId).toBeNull();
    await setFollowUp(meena, e.id, { followUpAt: "2032-02-02T11:00" });
    expect((await getEnquiry(e.id))!.assigneeId).toBe(meena.user.id);
  });
});

describe("a queue, not a list", () => {
  it("sorts oldest first or by next follow-up; my queue puts my overdue follow-ups first, then New ones mine or nobody's, oldest first", async () => {
    await db().deleteFrom("enquiries").execute();
    const now = new Date("2032-06-10T06:30:00.000Z");
    const at = (iso: string, over: Record<string, unknown> = {}) => insertEnquiry(lead(over) as never, { createdAt: iso });
    const oldNew = await at("2032-06-01T10:00:00.000Z");
    const newer = await at("2032-06-05T10:00:00.000Z");
    const mineOverdue = await at("2032-06-08T10:00:00.000Z");
    const theirs = await at("2032-06-02T10:00:00.000Z");
    const mineContacted = await at("2032-06-03T10:00:00.000Z");
    await db()
      .updateTable("enquiries")
      .set({ assigneeId: priya.user.id, followUpAt: "2032-06-09T05:00:00.000Z", status: "contacted" })
      .where("id", "=", mineOverdue.id)
      .execute();
    await db().updateTable("enquiries").set({ assigneeId: arjun.user.id }).where("id", "=", theirs.id).execute();
    await db().updateTable("enquiries").set({ assigneeId: priya.user.id, status: "contacted" }).where("id", "=", mineContacted.id).execute();
    const ids = async (query: Parameters<typeof resolveEnquiryFilter>[1]) => (await listRows(resolveEnquiryFilter(priya, query, now))).data.map((e) => e.id);
    expect(await ids({ sort: "oldest" })).toEqual([oldNew.id, theirs.id, mineContacted.id, newer.id, mineOverdue.id]);
    expect((await ids({ sort: "follow-up" }))[0]).toBe(mineOverdue.id);
    expect(await ids({ view: "queue" })).toEqual([mineOverdue.id, oldNew.id, newer.id]);
    const page2 = await listRows({ ...resolveEnquiryFilter(priya, { view: "queue" }, now), limit: 2, page: 2 });
    expect([page2.total, page2.data.map((e) => e.id)]).toEqual([3, [newer.id]]);
    expect(await nextInMyQueue(priya, mineOverdue.id, [], now)).toBe(oldNew.id);
  });
});

describe("every lead has an owner", () => {
  it("new enquiries go round-robin among staff who take them, every channel; an admin's switch leaves one out", async () => {
    await setTakesEnquiries(priya.user.id, true);
    await setTakesEnquiries(arjun.user.id, true);
    await setTakesEnquiries(meena.user.id, true);
    const channels = ["home", "enquiry-page", "api"] as const;
    const owners: string[] = [];
    for (let i = 0; i < 9; i++) owners.push((await submitEnquiry(visitor, lead(), { channel: channels[i % 3] })).assigneeId!);
    const counts = [priya, arjun, meena].map((s) => owners.filter((o) => o === s.user.id).length);
    expect(counts).toEqual([3, 3, 3]);
    await setTakesEnquiries(meena.user.id, false);
    for (let i = 0; i < 4; i++) owners.push((await submitEnquiry(visitor, lead(), { channel: "api" })).assigneeId!);
    expect(owners.slice(9).filter((o) => o === meena.user.id)).toEqual([]);
    await setTakesEnquiries(meena.user.id, true);
  });

  it("a New enquiry untouched past the promise is escalated once, marked, and a touched one is not", async () => {
    const old = await insertEnquiry(lead() as never, { createdAt: new Date(Date.now() - 30 * 3_600_000).toISOString() });
    const touched = await insertEnquiry(lead() as never, { createdAt: new Date(Date.now() - 30 * 3_600_000).toISOString() });
    // Untouched for months (imported, or from before escalation existed): not a burst of mail, and no timeline line
    // that would keep the retention job from erasing it.
    const ancient = await insertEnquiry(lead() as never, { createdAt: new Date(Date.now() - 200 * 86_400_000).toISOString() });
    await addEnquiryNote(arjun, touched.id, { text: "Called" });
    const runs = await Promise.all([runEscalationJob(), runEscalationJob()]);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect((await getEnquiry(old.id))!.escalatedAt).not.toBeNull();
    expect((await getEnquiry(touched.id))!.escalatedAt).toBeNull();
    expect((await getEnquiry(ancient.id))!.escalatedAt).toBeNull();
    const rows = await db()
      .selectFrom("outbox")
      .select(["event", "recipient", "subject"])
      .where("entityId", "=", old.id)
      .where("event", "=", "enquiry.escalated")
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].recipient).toContain("priya sharma".replace(" ", "."));
    expect(rows[0].subject).toMatch(/^Escalation: Desk Lead \d+ \(SOC Analyst Training Program\) has had no reply for 24 hours$/);
    expect(await runEscalationJob()).toBe(0);
    expect((await listTimeline("enquiry", old.id)).map((l) => l.kind)).toContain("escalated");
  });
});

describe("enrolment that makes sense", () => {
  it("Enrolled needs a batch while the course has upcoming ones, on every path", async () => {
    await batch(10, "2032-08-01");
    const e = await submitEnquiry(visitor, lead(), { channel: "home" });
    await expect(setEnquiryStatus(priya, e.id, { status: "enrolled" })).rejects.toMatchObject({ fields: { scheduleId: ENROL_NEEDS_BATCH } });
    await expect(logActivity(priya, e.id, { status: "enrolled", followUp: "keep" })).rejects.toMatchObject({ fields: { scheduleId: ENROL_NEEDS_BATCH } });
    await expect(bulkUpdateEnquiries(priya, { ids: [e.id], status: "enrolled" })).rejects.toThrow(ENROL_NEEDS_BATCH);
    await expect(updateEnquiry(priya, e.id, { ...lead({ email: e.email, phone: e.phone }), status: "enrolled" })).rejects.toMatchObject({
      fields: { scheduleId: ENROL_NEEDS_BATCH },
    });
    expect((await getEnquiry(e.id))!.status).toBe("new");
  });

  it("staff add a seat for a chosen student to a full batch, without offering it to the waitlist; raising seats offers and names who", async () => {
    const full = await batch(0, "2032-09-01");
    const waiting = await submitEnquiry(visitor, lead(), { channel: "home" });
    await setEnquiryBatch(priya, waiting.id, { scheduleId: full.id });
    expect(await joinWaitlistIfFull(waiting, (await getSchedule(full.id))!)).toBe(1);
    const chosen = await submitEnquiry(visitor, lead({ fullName: "Chosen Student" }), { channel: "home" });
    await setEnquiryBatch(priya, chosen.id, { scheduleId: full.id });
    await expect(setEnquiryStatus(priya, chosen.id, { status: "enrolled" })).rejects.toMatchObject({ code: "batch_full" });

    const { enquiry, added } = await enrolWithAddedSeat(priya, chosen.id, { scheduleId: full.id });
    expect([added, enquiry.status]).toEqual([true, "enrolled"]);
    expect(await getSchedule(full.id)).toMatchObject({ seats: 0, totalSeats: 2 });
    expect(await db().selectFrom("waitlist_offers").select("id").where("scheduleId", "=", full.id).execute()).toHaveLength(0);

    const after = (await getSchedule(full.id))!;
    const saved = await updateSchedule(priya, full.id, { ...after, seats: 1, totalSeats: 3 });
    expect(saved.offeredTo).toEqual([waiting.fullName]);
  });
});
