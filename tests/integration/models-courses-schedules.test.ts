import { describe, expect, it } from "vitest";
import { insertCourse, deleteCourseRow, getCourse, getCourseBySlug, listAllCourses, listCourses, updateCourseRow } from "~/models/course.server";
import {
  countActiveSchedules,
  insertSchedule,
  deleteScheduleRow,
  getSchedule,
  listSchedules,
  listUpcomingSchedules,
  UnknownCourseError,
  updateScheduleRow,
} from "~/models/schedule.server";
import { useTestDatabase } from "../helpers/db";

useTestDatabase();

const base = { category: "beginner" as const, description: "Learn to defend networks." };

describe("course model", () => {
  it("round-trips every field, with lists as arrays and featured as a boolean", async () => {
    const created = await insertCourse({
      ...base,
      title: "Round Trip Course",
      duration: "3 months",
      featured: true,
      image: "/media/images/abc.webp",
      highlights: ["Labs", "  Internship  ", ""],
      modes: ["online", "offline"],
      schedules: ["Weekend batch"],
      syllabus: "# Week 1\n\n- SIEM",
      syllabusFile: "/media/syllabus/x.pdf",
      syllabusFileName: "soc.pdf",
    });
    const got = await getCourse(created.id);
    expect(got).toMatchObject({
      title: "Round Trip Course",
      slug: "round-trip-course",
      category: "beginner",
      duration: "3 months",
      featured: true,
      image: "/media/images/abc.webp",
      highlights: ["Labs", "Internship"],
      modes: ["online", "offline"],
      schedules: ["Weekend batch"],
      syllabus: "# Week 1\n\n- SIEM",
      syllabusFile: "/media/syllabus/x.pdf",
      syllabusFileName: "soc.pdf",
    });
    expect(got!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(typeof got!.id).toBe("string");
  });

  it("defaults: not featured, empty lists, course-syllabus.pdf", async () => {
    const c = await insertCourse({ ...base, title: "Defaults Course" });
    expect(c).toMatchObject({
      featured: false,
      highlights: [],
      modes: [],
      schedules: [],
      syllabus: "",
      image: null,
      syllabusFile: null,
      syllabusFileName: "course-syllabus.pdf",
    });
  });

  it("makes unique slugs and finds a course by slug", async () => {
    const a = await insertCourse({ ...base, title: "Same Title!" });
    const b = await insertCourse({ ...base, title: "Same Title?" });
    expect(a.slug).toBe("same-title");
    expect(b.slug).toBe("same-title-2");
    expect((await getCourseBySlug("same-title-2"))?.id).toBe(b.id);
  });

  it("lists newest first, filters by category and featured, and pages", async () => {
    const t0 = Date.parse("2030-01-01T00:00:00Z");
    for (let i = 0; i < 5; i++) {
      await insertCourse(
        { ...base, title: `Paged ${i}`, category: i % 2 ? "advanced" : "intermediate", featured: i === 4 },
        { createdAt: new Date(t0 + i * 1000).toISOString() },
      );
    }
    const first = await listCourses({ limit: 2, page: 1 });
    expect(first.data.map((c) => c.title)).toEqual(["Paged 4", "Paged 3"]);
    expect(first.limit).toBe(2);
    const advanced = await listCourses({ category: "advanced", limit: 100 });
    expect(advanced.data.map((c) => c.title)).toEqual(["Paged 3", "Paged 1"]);
    expect(advanced.total).toBe(2);
    const featured = await listAllCourses({ featured: true });
    expect(featured.map((c) => c.title)).toContain("Paged 4");
    expect(featured.every((c) => c.featured)).toBe(true);
    const limited = await listCourses({ limit: 1000 });
    expect(limited.limit).toBe(100);
  });

  it("updates only the given fields and copies a new title to its batches", async () => {
    const c = await insertCourse({ ...base, title: "Old Name", highlights: ["a"] });
    const s = await insertSchedule({
      course: c.id,
      startDate: "2030-02-01",
      endDate: "2030-03-01",
      time: "6:30 PM - 9:30 PM",
      days: "Mon, Wed",
      mode: "online",
      location: "Online",
      seats: 5,
      totalSeats: 10,
    });
    const u = await updateCourseRow(c.id, { title: "New Name", featured: true }, { version: c.version, updatedBy: "Priya" });
    expect(u).toMatchObject({ title: "New Name", featured: true, highlights: ["a"], slug: "old-name", version: c.version + 1, updatedBy: "Priya" });
    // Drawn from the older version: nothing written.
    expect(await updateCourseRow(c.id, { title: "Stale" }, { version: c.version, updatedBy: "Arjun" })).toBeNull();
    expect((await getSchedule(s.id))!.courseName).toBe("New Name");
    expect(await updateCourseRow("missing-id", { title: "x" }, { updatedBy: null })).toBeNull();
  });

  it("deletes a course together with its batches", async () => {
    const c = await insertCourse({ ...base, title: "Doomed" });
    const s = await insertSchedule({
      course: c.id,
      startDate: "2030-02-01",
      endDate: "2030-03-01",
      time: "t",
      days: "d",
      mode: "offline",
      location: "Hyderabad",
      seats: 1,
      totalSeats: 2,
    });
    expect((await deleteCourseRow(c.id))?.title).toBe("Doomed");
    expect(await getCourse(c.id)).toBeNull();
    expect(await getSchedule(s.id)).toBeNull();
    expect(await deleteCourseRow(c.id)).toBeNull();
  });
});

describe("schedule model", () => {
  it("copies courseName from the course and refuses an unknown course", async () => {
    const c = await insertCourse({ ...base, title: "Batch Course" });
    const s = await insertSchedule({
      course: c.id,
      startDate: "2031-01-10",
      endDate: "2031-04-10",
      time: "7:00 AM - 9:00 AM",
      days: "Sat, Sun",
      mode: "hybrid",
      location: "HITEC City",
      seats: 0,
      totalSeats: 30,
    });
    expect(s).toMatchObject({ courseName: "Batch Course", seats: 0, totalSeats: 30, mode: "hybrid", startDate: "2031-01-10" });
    await expect(insertSchedule({ ...s, course: "nope" })).rejects.toBeInstanceOf(UnknownCourseError);
    // What staff set, with one more version; the seats left are the seat operations' alone.
    const updated = await updateScheduleRow(s.id, { ...s, mode: "online" }, { updatedBy: "Priya" });
    expect(updated).toMatchObject({ seats: 0, mode: "online", version: s.version + 1, updatedBy: "Priya" });
    // Drawn from an older version: nothing written.
    expect(await updateScheduleRow(s.id, { ...s, mode: "offline" }, { version: s.version, updatedBy: "Arjun" })).toBeNull();
    expect((await getSchedule(s.id))!.mode).toBe("online");
    expect(await updateScheduleRow("missing", { ...s }, { updatedBy: null })).toBeNull();
    expect(await deleteScheduleRow(s.id)).toBe(true);
    expect(await deleteScheduleRow(s.id)).toBe(false);
  });

  it("public list: upcoming only, soonest first; online/offline filters include hybrid", async () => {
    const c = await insertCourse({ ...base, title: "Mode Course" });
    const mk = (mode: "online" | "offline" | "hybrid", start: string, end: string) =>
      insertSchedule({ course: c.id, startDate: start, endDate: end, time: "t", days: "d", mode, location: "l", seats: 1, totalSeats: 2 });
    const past = await mk("online", "2020-01-01", "2020-02-01");
    const on = await mk("online", "2032-05-01", "2032-06-01");
    const off = await mk("offline", "2032-03-01", "2032-06-01");
    const hy = await mk("hybrid", "2032-04-01", "2032-06-01");
    const all = (await listUpcomingSchedules({ course: c.id }, "2025-01-01")).map((s) => s.id);
    expect(all).toEqual([off.id, hy.id, on.id]);
    expect(all).not.toContain(past.id);
    expect((await listUpcomingSchedules({ course: c.id, mode: "online" }, "2025-01-01")).map((s) => s.id)).toEqual([hy.id, on.id]);
    expect((await listUpcomingSchedules({ course: c.id, mode: "offline" }, "2025-01-01")).map((s) => s.id)).toEqual([off.id, hy.id]);
    expect(await countActiveSchedules("2032-06-01")).toBeGreaterThanOrEqual(3);
    const admin = await listSchedules({ course: c.id, limit: 2 });
    expect(admin.total).toBe(4);
    expect(admin.data).toHaveLength(2);
  });
});
