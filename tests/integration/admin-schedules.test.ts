import { beforeAll, describe, expect, it } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertSchedule, getSchedule, listSchedules } from "~/models/schedule.server";
import { loader as listLoader } from "~/routes/admin.schedules";
import { action as createAction, loader as newLoader } from "~/routes/admin.schedules.new";
import { action as editAction, loader as editLoader } from "~/routes/admin.schedules.$id.edit";
import { action as deleteAction, loader as deleteLoader } from "~/routes/admin.schedules.$id.delete";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

useTestDatabase();

let admin: string;
let editor: string;
let courseId: string;
const batch = {
  startDate: "2031-03-02",
  endDate: "2031-06-30",
  time: "6:30 PM - 9:30 PM",
  days: "Mon, Wed, Fri",
  mode: "online" as const,
  location: "Online",
  seats: 20,
  totalSeats: 30,
};
const form = (over: Record<string, string> = {}) => ({
  course: courseId,
  startDate: "2031-04-01",
  endDate: "2031-07-31",
  time: "7:00 AM - 9:00 AM",
  days: "Sat, Sun",
  mode: "hybrid",
  location: "HITEC City campus",
  totalSeats: "25",
  ...over,
});

beforeAll(async () => {
  admin = await staffCookie("admin");
  editor = await staffCookie("editor");
  courseId = (await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "Flagship" })).id;
});

describe("Manage Schedules authorisation", () => {
  it("sends anonymous visitors to the sign-in page from every loader", async () => {
    const s = await insertSchedule({ ...batch, course: courseId });
    for (const [fn, path, params] of [
      [listLoader, "/admin/schedules", {}],
      [newLoader, "/admin/schedules/new", {}],
      [editLoader, `/admin/schedules/${s.id}/edit`, { id: s.id }],
      [deleteLoader, `/admin/schedules/${s.id}/delete`, { id: s.id }],
    ] as const) {
      const out = await run(fn, makeRequest(path), params);
      expect(out.status, path).toBe(302);
      expect(out.location).toBe("/admin/login");
    }
  });

  it("refuses anonymous writes and changes nothing", async () => {
    const s = await insertSchedule({ ...batch, course: courseId });
    const before = (await listSchedules({ limit: 100 })).total;
    const created = await run(createAction, makeRequest("/admin/schedules/new", { form: form() }));
    const edited = await run(editAction, makeRequest(`/admin/schedules/${s.id}/edit`, { form: form({ location: "Hacked" }) }), { id: s.id });
    const deleted = await run(deleteAction, makeRequest(`/admin/schedules/${s.id}/delete`, { form: {} }), { id: s.id });
    for (const out of [created, edited, deleted]) expect([out.status, out.location]).toEqual([302, "/admin/login"]);
    expect((await listSchedules({ limit: 100 })).total).toBe(before);
    expect(await getSchedule(s.id)).toMatchObject({ location: "Online" });
  });

  it("lets editors and admins list, add, edit and delete", async () => {
    for (const cookie of [editor, admin]) {
      const list = await run(listLoader, makeRequest("/admin/schedules", { cookie }));
      expect(list.status).toBe(200);
      const form1 = await run(newLoader, makeRequest("/admin/schedules/new", { cookie }));
      expect((form1.body as { courses: { title: string }[] }).courses.map((c) => c.title)).toEqual(["SOC Analyst Training Program"]);

      const created = await run(createAction, makeRequest("/admin/schedules/new?page=1", { cookie, form: form() }));
      expect([created.status, created.location]).toEqual([302, "/admin/schedules?page=1"]);
      const saved = (await listSchedules({ limit: 1 })).data[0];
      // courseName is copied from the chosen course, never typed.
      // A new batch has every seat left: seats are counted, never typed.
      expect(saved).toMatchObject({ course: courseId, courseName: "SOC Analyst Training Program", mode: "hybrid", seats: 25, totalSeats: 25 });

      // An Available Seats sent by an old page is ignored; the total is what staff set.
      const edited = await run(editAction, makeRequest(`/admin/schedules/${saved.id}/edit`, { cookie, form: form({ seats: "3", totalSeats: "27" }) }), {
        id: saved.id,
      });
      expect(edited.status).toBe(302);
      expect(await getSchedule(saved.id)).toMatchObject({ seats: 27, totalSeats: 27 });

      const deleted = await run(deleteAction, makeRequest(`/admin/schedules/${saved.id}/delete`, { cookie, form: {} }), { id: saved.id });
      expect([deleted.status, deleted.location]).toEqual([302, "/admin/schedules"]);
      expect(await getSchedule(saved.id)).toBeNull();
    }
  });
});

describe("schedule form validation", () => {
  it("answers with the messages and the typed values and saves nothing", async () => {
    const before = (await listSchedules({ limit: 100 })).total;
    const out = await run(createAction, makeRequest("/admin/schedules/new", { cookie: editor, form: form({ course: "", time: "", location: "Kept text" }) }));
    expect(out.status).toBe(400);
    const reply = (out.body as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }).result;
    expect(reply.error.course).toEqual(["Course is required"]);
    expect(reply.error.time).toEqual(["Time is required"]);
    expect(reply.initialValue.location).toBe("Kept text");
    expect((await listSchedules({ limit: 100 })).total).toBe(before);
  });

  it("checks the end date against the start date (DESIGN.md §4.5); Available Seats is not an input", async () => {
    const out = await run(
      createAction,
      makeRequest("/admin/schedules/new", { cookie: editor, form: form({ seats: "40", totalSeats: "30", endDate: "2031-01-01" }) }),
    );
    const reply = (out.body as { result: { error: Record<string, string[]> } }).result;
    expect(reply.error).toEqual({ endDate: ["End date cannot be before the start date"] });
  });

  it("rejects a course id that does not exist", async () => {
    const out = await run(createAction, makeRequest("/admin/schedules/new", { cookie: editor, form: form({ course: "no-such-course" }) }));
    expect((out.body as { result: { error: Record<string, string[]> } }).result.error.course).toEqual(["Please select a course"]);
  });

  it("answers 404 for an unknown schedule", async () => {
    expect((await run(editLoader, makeRequest("/admin/schedules/nope/edit", { cookie: editor }), { id: "nope" })).status).toBe(404);
    expect((await run(deleteLoader, makeRequest("/admin/schedules/nope/delete", { cookie: editor }), { id: "nope" })).status).toBe(404);
  });

  it("reports a failed delete in the banner", async () => {
    const out = await run(deleteAction, makeRequest("/admin/schedules/nope/delete", { cookie: editor, form: {} }), { id: "nope" });
    expect([out.status, out.location]).toEqual([302, "/admin/schedules"]);
    expect(await flashOf(out)).toEqual({ kind: "error", message: "Failed to delete schedule. Please try again." });
  });
});
