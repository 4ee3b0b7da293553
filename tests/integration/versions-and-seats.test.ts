import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { getCourse, insertCourse } from "~/models/course.server";
import { getReview, insertReview } from "~/models/review.server";
import { getSchedule, insertSchedule } from "~/models/schedule.server";
import { getUser } from "~/models/user.server";
import { listAuditEntries } from "~/models/audit-log.server";
import type { StaffActor } from "~/services/actor";
import { createUserWithoutActor, updateUser } from "~/services/users.server";
import { changePassword } from "~/services/auth.server";
import { setEnquiryBatch, setEnquiryStatus } from "~/services/enquiries.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { joinWaitlistIfFull } from "~/services/waitlist.server";
import { batchForStaff, updateSchedule } from "~/services/schedules.server";
import { saveCourse } from "~/services/courses.server";
import { updateReview } from "~/services/reviews.server";
import { readSiteSettingsAsAdmin, updateSiteSettings } from "~/services/site-settings.server";
import { publishDueItems } from "~/services/publication.server";
import { action as editScheduleAction, loader as editScheduleLoader } from "~/routes/admin.schedules.$id.edit";
import { action as editCourseAction } from "~/routes/admin.courses.$id.edit";
import { action as editReviewAction } from "~/routes/admin.reviews.$id.edit";
import { action as editUserAction } from "~/routes/admin.users.$id.edit";
import { action as settingsAction, loader as settingsLoader } from "~/routes/admin.settings";
import type { EditConflict } from "~/web/edit-conflict";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * Issue 36.7 and 37.2 on the service layer and the back office's actions (the API's side is api-versions.test.ts), on
 * SQLite and (npm run test:mysql) MariaDB: every record staff edit refuses a form drawn from an older version with what
 * it holds now; a form's key is used once; a batch's seats are counted from enrolments, its total is the one number
 * staff set, raising it offers the new seats in order and lowering it below the seats taken is refused.
 */
useTestDatabase();

const visitor = { user: null, ip: "203.0.113.9" };
let priya: StaffActor;
let arjun: StaffActor;
let admin: string;
let course: { id: string; title: string };
let n = 0;
const lead = (fullName: string) => ({
  fullName,
  email: `seats${++n}@example.com`,
  phone: `96${String(30_000_000 + n).padStart(8, "0")}`,
  preferredCourse: course.title,
  preferredMode: "online",
});
const batchFields = (over: Record<string, unknown> = {}) => ({
  course: course.id,
  startDate: "2032-03-01",
  endDate: "2032-06-30",
  time: "7 PM",
  days: "Sat",
  mode: "online" as const,
  location: "Online",
  totalSeats: 2,
  ...over,
});
/** What the edit screen's form posts: every field as text, with the version and key it was drawn with. */
const scheduleForm = (s: { version: number }, formKey: string, over: Record<string, string> = {}) => ({
  course: course.id,
  startDate: "2032-03-01",
  endDate: "2032-06-30",
  time: "7 PM",
  days: "Sat",
  mode: "online",
  location: "Online",
  totalSeats: "2",
  version: String(s.version),
  formKey: `${formKey}.schedule`,
  ...over,
});

async function enrol(name: string, scheduleId: string) {
  const e = await submitEnquiry(visitor, lead(name), { channel: "home" });
  await setEnquiryBatch(priya, e.id, { scheduleId });
  await setEnquiryStatus(priya, e.id, { status: "enrolled" });
  return e;
}
async function waitFor(name: string, scheduleId: string) {
  const e = await submitEnquiry(visitor, lead(name), { channel: "home" });
  await setEnquiryBatch(priya, e.id, { scheduleId });
  expect(await joinWaitlistIfFull(e, (await getSchedule(scheduleId))!)).not.toBeNull();
  return e;
}
const enrolledIn = async (scheduleId: string) =>
  Number(
    (
      await db()
        .selectFrom("enquiries")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("scheduleId", "=", scheduleId)
        .where("status", "=", "enrolled")
        .executeTakeFirstOrThrow()
    ).n,
  );
const openOffers = async (scheduleId: string) =>
  (await db().selectFrom("waitlist_offers").select("id").where("scheduleId", "=", scheduleId).where("status", "=", "open").execute()).length;

beforeAll(async () => {
  const staff = async (name: string, role: "admin" | "editor") => {
    const u = await createUserWithoutActor({ name, email: `${name.toLowerCase().replace(" ", ".")}@seats.test`, password: "long-enough-password", role });
    return { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "seats" } as StaffActor;
  };
  priya = await staff("Priya Sharma", "admin");
  arjun = await staff("Arjun Varma", "editor");
  admin = await staffCookie("admin");
  const c = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "x" });
  course = { id: c.id, title: c.title };
});

describe("a batch's seats add up", () => {
  it("a batch form drawn before two enrolments and saved after is refused: no overbooking, no false offers", async () => {
    const batch = await insertSchedule(batchFields({ totalSeats: 2 }));
    const drawn = await run(editScheduleLoader, makeRequest(`/admin/schedules/${batch.id}/edit`, { cookie: admin }), { id: batch.id });
    const { schedule, formKey } = drawn.body as { schedule: { version: number; seats: number }; formKey: string };
    expect(schedule.seats).toBe(2);

    await enrol("Early One", batch.id);
    await enrol("Early Two", batch.id);
    const late = await waitFor("Late Three", batch.id);
    expect(await getSchedule(batch.id)).toMatchObject({ seats: 0, seatsTaken: 2, totalSeats: 2 });

    // The old page still sends Available Seats = 2 (and a new time): refused, nothing written.
    const stale = await run(
      editScheduleAction,
      makeRequest(`/admin/schedules/${batch.id}/edit`, { cookie: admin, form: { ...scheduleForm(schedule, formKey, { time: "8 PM" }), seats: "2" } }),
      { id: batch.id },
    );
    expect(stale.status).toBe(409);
    const conflict = (stale.body as { conflict: EditConflict }).conflict;
    expect(conflict.message).toMatch(/^This batch was changed by Priya Sharma at .+ IST\. Here is what it holds now\.$/);
    expect(conflict.yours).toEqual([{ label: "Time", value: "8 PM" }]);
    const now = (await getSchedule(batch.id))!;
    expect(now).toMatchObject({ seats: 0, seatsTaken: 2, totalSeats: 2, time: "7 PM" });
    expect(await enrolledIn(batch.id)).toBe(2);
    expect(await openOffers(batch.id)).toBe(0);
    // The next page shows what it holds now: the seats as counted, a new version to save from.
    const redrawn = (await run(editScheduleLoader, makeRequest(`/admin/schedules/${batch.id}/edit`, { cookie: admin }), { id: batch.id })).body as {
      schedule: { version: number; seats: number; seatsTaken: number };
      formKey: string;
    };
    expect(redrawn.schedule).toMatchObject({ version: now.version, seats: 0, seatsTaken: 2 });

    // Saved from the new drawing, the same Available Seats = 2 changes nothing about the seats: nobody is offered one.
    const fresh = await run(
      editScheduleAction,
      makeRequest(`/admin/schedules/${batch.id}/edit`, {
        cookie: admin,
        form: { ...scheduleForm(redrawn.schedule, redrawn.formKey, { time: "8 PM" }), seats: "2" },
      }),
      { id: batch.id },
    );
    expect(fresh.status).toBe(302);
    expect(await flashOf(fresh)).toEqual({ kind: "notice", message: "Schedule saved." });
    expect(await getSchedule(batch.id)).toMatchObject({ seats: 0, seatsTaken: 2, totalSeats: 2, time: "8 PM" });
    expect(await openOffers(batch.id)).toBe(0);
    expect((await batchForStaff(batch.id)).waitlist.map((l) => [l.fullName, l.status])).toEqual([[late.fullName, "waiting"]]);
  });

  it("raising a full batch's total offers the new seats to the waitlist in order, and the message names who", async () => {
    const batch = await insertSchedule(batchFields({ totalSeats: 2, startDate: "2032-04-01" }));
    await enrol("Full One", batch.id);
    await enrol("Full Two", batch.id);
    const keerthi = await waitFor("Keerthi Rao", batch.id);
    const arjunDas = await waitFor("Arjun Das", batch.id);
    const third = await waitFor("Third Waiting", batch.id);
    const before = (await getSchedule(batch.id))!;

    const out = await run(
      editScheduleAction,
      makeRequest(`/admin/schedules/${batch.id}/edit`, { cookie: admin, form: scheduleForm(before, "raise", { startDate: "2032-04-01", totalSeats: "4" }) }),
      { id: batch.id },
    );
    expect(out.status).toBe(302);
    expect((await flashOf(out))!.message).toBe("Schedule saved. 2 seats offered: Keerthi Rao, Arjun Das (each held for them until they answer).");
    // The offers hold the new seats: none is left for anyone else, and the third one still waits.
    expect(await getSchedule(batch.id)).toMatchObject({ totalSeats: 4, seats: 0, seatsTaken: 4 });
    const staffView = await batchForStaff(batch.id);
    expect(staffView.waitlist.map((l) => [l.fullName, l.status])).toEqual([
      [keerthi.fullName, "offered"],
      [arjunDas.fullName, "offered"],
      [third.fullName, "waiting"],
    ]);
    expect(staffView.heldOtherwise).toEqual({ offered: 2, hidden: 0, before: 0 });
    const audit = await listAuditEntries({ entityType: "schedule", limit: 5 });
    expect(audit.data.find((a) => a.entityId === batch.id && a.action === "update")!.summary).toContain("2 seats offered: Keerthi Rao, Arjun Das");
  });

  it("lowering the total below the seats taken is refused, naming the count; down to it is fine", async () => {
    const batch = await insertSchedule(batchFields({ totalSeats: 5, startDate: "2032-05-01" }));
    await enrol("Low One", batch.id);
    await enrol("Low Two", batch.id);
    await enrol("Low Three", batch.id);
    const now = (await getSchedule(batch.id))!;
    const refused = await run(
      editScheduleAction,
      makeRequest(`/admin/schedules/${batch.id}/edit`, { cookie: admin, form: scheduleForm(now, "lower", { startDate: "2032-05-01", totalSeats: "2" }) }),
      { id: batch.id },
    );
    expect(refused.status).toBe(400);
    expect((refused.body as { result: { error: Record<string, string[]> } }).result.error.totalSeats).toEqual([
      "Total Seats cannot be below the 3 seats taken",
    ]);
    expect(await getSchedule(batch.id)).toMatchObject({ totalSeats: 5, seats: 2, version: now.version });
    // The same through the service (the API's path), then down to exactly the seats taken.
    await expect(updateSchedule(priya, batch.id, { ...batchFields({ startDate: "2032-05-01", totalSeats: 1 }) })).rejects.toMatchObject({
      fields: { totalSeats: "Total Seats cannot be below the 3 seats taken" },
    });
    const saved = await updateSchedule(priya, batch.id, { ...batchFields({ startDate: "2032-05-01", totalSeats: 3 }), version: now.version });
    expect(saved).toMatchObject({ totalSeats: 3, seats: 0, seatsTaken: 3, offeredTo: [] });
  });

  it("a total lowered while a student enrols at the same moment: never more enrolled than the total, seats add up", async () => {
    for (let round = 0; round < 3; round++) {
      const startDate = `2032-08-1${round}`;
      const batch = await insertSchedule(batchFields({ totalSeats: 2, startDate }));
      await enrol(`Race Holder ${round}`, batch.id);
      const racer = await submitEnquiry(visitor, lead(`Race Enrol ${round}`), { channel: "home" });
      await setEnquiryBatch(priya, racer.id, { scheduleId: batch.id });
      const results = await Promise.allSettled([
        updateSchedule(arjun, batch.id, batchFields({ totalSeats: 1, startDate })),
        setEnquiryStatus(priya, racer.id, { status: "enrolled" }),
      ]);
      // Each loses only to the rule (below the seats taken, or a full batch), never to the database.
      for (const r of results) if (r.status === "rejected") expect((r.reason as { kind?: string }).kind, String(r.reason)).toMatch(/^(invalid|conflict)$/);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const now = (await getSchedule(batch.id))!;
      expect(await enrolledIn(batch.id)).toBeLessThanOrEqual(now.totalSeats);
      expect(now.seats).toBe(now.totalSeats - (await enrolledIn(batch.id)));
    }
  });

  it("the roster lists who holds the seats (name, phone, since, owner) beside the waitlist; seats taken before are counted", async () => {
    const batch = await insertSchedule({ ...batchFields({ totalSeats: 6, startDate: "2032-06-01" }), seats: 5 });
    const one = await enrol("Roster One", batch.id);
    const two = await enrol("Roster Two", batch.id);
    const view = await batchForStaff(batch.id);
    expect(view.schedule).toMatchObject({ totalSeats: 6, seats: 3, seatsTaken: 3 });
    expect(view.roster.map((l) => [l.fullName, l.phone])).toEqual([
      [one.fullName, one.phone],
      [two.fullName, two.phone],
    ]);
    expect(view.roster.every((l) => l.ownerName !== undefined && /^\d{4}-\d\d-\d\dT/.test(l.since))).toBe(true);
    expect(view.heldOtherwise).toEqual({ offered: 0, hidden: 0, before: 1 });
    // Raising the total counts the seat taken before too: 6 → 7 leaves 4.
    expect(await updateSchedule(priya, batch.id, batchFields({ totalSeats: 7, startDate: "2032-06-01" }))).toMatchObject({ seats: 4, seatsTaken: 3 });
  });
});

describe("every record staff edit refuses a stale form", () => {
  it("a batch form posted twice with one key is saved once", async () => {
    const batch = await insertSchedule(batchFields({ totalSeats: 3, startDate: "2032-07-01", endDate: "2032-09-30" }));
    const form = scheduleForm(batch, "twice", { startDate: "2032-07-01", endDate: "2032-09-30", totalSeats: "3", location: "Campus" });
    const first = await run(editScheduleAction, makeRequest(`/admin/schedules/${batch.id}/edit`, { cookie: admin, form }), { id: batch.id });
    const second = await run(editScheduleAction, makeRequest(`/admin/schedules/${batch.id}/edit`, { cookie: admin, form }), { id: batch.id });
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(await getSchedule(batch.id)).toMatchObject({ location: "Campus", version: batch.version + 1 });
    expect((await listAuditEntries({ entityType: "schedule", limit: 50 })).data.filter((a) => a.entityId === batch.id)).toHaveLength(1);
  });

  it("a course form drawn before a scheduled publish is refused; a fresh one saves; a repeat changes nothing", async () => {
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const c = await insertCourse({
      title: "Threat Hunting",
      category: "advanced",
      description: "Hunt",
      highlights: ["Labs"],
      publication: { state: "scheduled", publishAt: inAMinute },
    });
    await publishDueItems(new Date(Date.now() + 120_000).toISOString());
    const published = (await getCourse(c.id))!;
    expect(published).toMatchObject({ state: "published", version: c.version + 1, updatedBy: "System" });

    const form = (v: number, key: string, over: Record<string, string> = {}) => ({
      title: "Threat Hunting",
      category: "advanced",
      description: "Hunt in a live lab",
      "highlights[0]": "Labs",
      feeIncludesGst: "true",
      state: "scheduled",
      publishAt: "2040-01-01T10:00",
      version: String(v),
      formKey: `${key}.course`,
      ...over,
    });
    const stale = await run(editCourseAction, makeRequest(`/admin/courses/${c.id}/edit`, { cookie: admin, form: form(c.version, "c1") }), { id: c.id });
    expect(stale.status).toBe(409);
    const conflict = (stale.body as { conflict: EditConflict }).conflict;
    expect(conflict.message).toMatch(/^This course was changed by System at .+ IST\. Here is what it holds now\.$/);
    expect(conflict.yours).toEqual([
      { label: "Description", value: "Hunt in a live lab" },
      { label: "Publication", value: "scheduled" },
    ]);
    // The publish stands: the stale form did not set it back to scheduled.
    expect(await getCourse(c.id)).toMatchObject({ state: "published", description: "Hunt", version: published.version });

    const fresh = await run(
      editCourseAction,
      makeRequest(`/admin/courses/${c.id}/edit`, { cookie: admin, form: form(published.version, "c2", { state: "published" }) }),
      {
        id: c.id,
      },
    );
    expect(fresh.status).toBe(302);
    const repeat = await run(
      editCourseAction,
      makeRequest(`/admin/courses/${c.id}/edit`, { cookie: admin, form: form(published.version, "c2", { state: "published" }) }),
      {
        id: c.id,
      },
    );
    expect(repeat.status).toBe(302);
    expect(await getCourse(c.id)).toMatchObject({
      description: "Hunt in a live lab",
      state: "published",
      version: published.version + 1,
      updatedBy: "Test admin",
    });
  });

  it("a review form drawn before an approval is refused with what the review holds now", async () => {
    const r = await insertReview({ name: "Meera Rao", position: "SOC Analyst", image: "/images/a.png", rating: 5, review: "Great labs.", course: "SOC" });
    await updateReview(priya, r.id, {
      name: "Meera Rao",
      position: "SOC Analyst",
      image: "/images/a.png",
      rating: 4,
      review: "Great labs.",
      course: "SOC",
      approved: true,
    });
    const form = {
      name: "Meera R.",
      position: "SOC Analyst",
      image: "/images/a.png",
      rating: "5",
      review: "Great labs.",
      course: "SOC",
      type: "text",
      version: String(r.version),
      formKey: "r1.review",
    };
    const stale = await run(editReviewAction, makeRequest(`/admin/reviews/${r.id}/edit`, { cookie: admin, form }), { id: r.id });
    expect(stale.status).toBe(409);
    const conflict = (stale.body as { conflict: EditConflict }).conflict;
    expect(conflict.message).toMatch(/^This review was changed by Priya Sharma at .+ IST\./);
    expect(conflict.yours).toEqual([
      { label: "Student Name", value: "Meera R." },
      { label: "Rating", value: "5" },
      { label: "Approved for display", value: "No" },
    ]);
    expect(await getReview(r.id)).toMatchObject({ name: "Meera Rao", rating: 4, approved: true, version: r.version + 1 });
    const fresh = await run(
      editReviewAction,
      makeRequest(`/admin/reviews/${r.id}/edit`, { cookie: admin, form: { ...form, version: String(r.version + 1) } }),
      {
        id: r.id,
      },
    );
    expect(fresh.status).toBe(302);
    expect(await getReview(r.id)).toMatchObject({ name: "Meera R.", rating: 5, approved: false });
  });

  it("a user form drawn before another admin's edit is refused; a password change needs no version", async () => {
    const u = await createUserWithoutActor({ name: "Kiran Rao", email: "kiran@seats.test", password: "long-enough-password" });
    await updateUser(priya, u.id, { name: "Kiran Rao", email: "kiran@seats.test", role: "admin", version: u.version });
    const form = { name: "Kiran R.", email: "kiran@seats.test", role: "editor", password: "", version: String(u.version), formKey: "u1.user" };
    const stale = await run(editUserAction, makeRequest(`/admin/users/${u.id}/edit`, { cookie: admin, form }), { id: u.id });
    expect(stale.status).toBe(409);
    expect((stale.body as { conflict: EditConflict }).conflict.yours).toEqual([
      { label: "Name", value: "Kiran R." },
      { label: "Role", value: "Editor" },
    ]);
    const now = (await getUser(u.id))!;
    expect(now).toMatchObject({ name: "Kiran Rao", role: "admin", version: u.version + 1, updatedBy: "Priya Sharma" });
    // Change Password makes no new version: a user form drawn before it still saves.
    await changePassword(priya, u.id, { newPassword: "another-long-password", confirmPassword: "another-long-password" });
    expect((await getUser(u.id))!.version).toBe(now.version);
    const fresh = await run(
      editUserAction,
      makeRequest(`/admin/users/${u.id}/edit`, { cookie: admin, form: { ...form, version: String(now.version), formKey: "u2.user" } }),
      {
        id: u.id,
      },
    );
    expect(fresh.status).toBe(302);
    expect(await getUser(u.id)).toMatchObject({ name: "Kiran R.", role: "editor", version: now.version + 1, updatedBy: "Test admin" });
  });

  it("a settings form drawn before another admin's save is refused, whichever key it changes; a fresh one saves once", async () => {
    const cookie2 = await staffCookie("admin");
    const drawn = (await run(settingsLoader, makeRequest("/admin/settings", { cookie: admin }))).body as {
      values: Record<string, unknown> & { version: number };
      formKey: string;
    };
    const tab2 = (await run(settingsLoader, makeRequest("/admin/settings", { cookie: cookie2 }))).body as typeof drawn;
    const asForm = (values: Record<string, unknown>, over: Record<string, string>) => ({
      ...Object.fromEntries(
        Object.entries(values)
          .filter(([k]) => !["version", "updatedAt", "updatedBy"].includes(k))
          .map(([k, v]) => [k, String(v)]),
      ),
      ...over,
    });
    const first = await run(
      settingsAction,
      makeRequest("/admin/settings", {
        cookie: admin,
        form: asForm(drawn.values, { studentsTrained: "6000", version: String(drawn.values.version), formKey: `${drawn.formKey}.settings` }),
      }),
    );
    expect(first.status).toBe(302);
    // The second tab changes another key: still refused, so it cannot put back the 5000 it showed.
    const second = await run(
      settingsAction,
      makeRequest("/admin/settings", {
        cookie: cookie2,
        form: asForm(tab2.values, { ratingCount: "130", version: String(tab2.values.version), formKey: `${tab2.formKey}.settings` }),
      }),
    );
    expect(second.status).toBe(409);
    const conflict = (second.body as { conflict: EditConflict }).conflict;
    expect(conflict.message).toMatch(/^These site settings were changed by Test admin at .+ IST\. Here is what they hold now\.$/);
    expect(conflict.yours).toEqual([
      { label: "Students trained", value: String(tab2.values.studentsTrained) },
      { label: "Number of reviews behind the rating", value: "130" },
    ]);
    const now = await readSiteSettingsAsAdmin(priya);
    expect(now).toMatchObject({ studentsTrained: 6000, ratingCount: tab2.values.ratingCount, version: drawn.values.version + 1 });
    // A repeat of the first post (a refresh) changes nothing, even with an old version.
    const repeat = await run(
      settingsAction,
      makeRequest("/admin/settings", {
        cookie: admin,
        form: asForm(drawn.values, { studentsTrained: "6000", version: String(drawn.values.version), formKey: `${drawn.formKey}.settings` }),
      }),
    );
    expect(repeat.status).toBe(302);
    expect((await readSiteSettingsAsAdmin(priya)).version).toBe(now.version);
    // The service's refusal carries the settings as stored, for the API.
    await expect(updateSiteSettings(priya, { ratingCount: 140, version: drawn.values.version }, { partial: true })).rejects.toMatchObject({
      code: "edit_conflict",
      current: expect.objectContaining({ studentsTrained: 6000, version: now.version }),
    });
  });

  it("a stale course save through the service keeps no file and answers what is stored", async () => {
    const c = await insertCourse({ title: "Cloud Basics", category: "beginner", description: "Cloud" });
    await saveCourse(priya, c.id, { fields: { title: "Cloud Basics", category: "beginner", description: "Cloud, updated", version: c.version }, files: [] });
    await expect(
      saveCourse(arjun, c.id, { fields: { title: "Cloud Basics", category: "beginner", description: "Cloud, stale", version: c.version }, files: [] }),
    ).rejects.toMatchObject({ code: "edit_conflict", current: expect.objectContaining({ description: "Cloud, updated", version: c.version + 1 }) });
  });
});
