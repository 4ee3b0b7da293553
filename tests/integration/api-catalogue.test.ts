import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, startApiServer } from "../helpers/api-server";

// Schedules and reviews over HTTP against the built server with the demo seed.
const server = startApiServer();
const api = apiClient(server);

let admin: string;
let editor: string;
let courses: { id: string; title: string }[];
beforeAll(async () => {
  ({ admin, editor } = await api.staffTokens());
  courses = (await api.get("/api/courses")).body.data;
});

const batch = (course: string, extra: Record<string, unknown> = {}) => ({
  course,
  startDate: "2031-03-01",
  endDate: "2031-06-30",
  time: "6:30 PM - 9:30 PM",
  days: "Mon, Wed, Fri",
  mode: "online",
  location: "Live online",
  seats: 12,
  totalSeats: 30,
  ...extra,
});
const review = (extra: Record<string, unknown> = {}) => ({
  name: "Meera Rao",
  position: "SOC Analyst L1 at Acme",
  image: "https://example.com/meera.jpg",
  rating: 5,
  course: "SOC Analyst Training Program",
  review: "The labs were just like the real job.",
  ...extra,
});

describe("schedules", () => {
  it("lists batches for anyone with paging, and filters by mode (hybrid counts as both) and course", async () => {
    const all = await api.get("/api/schedules");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 20, total: 8, pages: 1 });
    expect(all.body.data[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        course: expect.any(String),
        courseName: expect.any(String),
        seats: expect.any(Number),
        totalSeats: expect.any(Number),
      }),
    );
    const online = (await api.get("/api/schedules?mode=online")).body.data as { mode: string }[];
    expect(online.length).toBeGreaterThan(0);
    expect(new Set(online.map((s) => s.mode))).toEqual(new Set(["online", "hybrid"]));
    const hybrid = (await api.get("/api/schedules?mode=hybrid")).body.data as { mode: string }[];
    expect(hybrid.every((s) => s.mode === "hybrid")).toBe(true);
    const soc = courses.find((c) => c.title === "SOC Analyst Training Program")!;
    const ofSoc = (await api.get(`/api/schedules?course=${soc.id}&upcoming=true`)).body.data as { course: string }[];
    expect(ofSoc).toHaveLength(3);
    expect(ofSoc.every((s) => s.course === soc.id)).toBe(true);
    const bad = await api.get("/api/schedules?mode=weekend");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ mode: "mode must be one of online, offline, hybrid" });
  });

  it("creates a batch with courseName copied from the course, whatever the client sends", async () => {
    const course = courses[1];
    // JSON is held to the document's types (seats is an ignored integer); a form body's seats is ignored too: seats are counted.
    const typed = await api.post("/api/schedules", { token: editor, json: batch(course.id, { seats: "abc" }) });
    expect([typed.status, typed.body.error?.fields]).toEqual([400, { seats: "Must be a number" }]);
    const form = new URLSearchParams(Object.entries(batch(course.id, { courseName: "Made Up", id: "x", seats: "abc" })).map(([k, v]) => [k, String(v)]));
    const r = await api.post("/api/schedules", { token: editor, body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ course: course.id, courseName: course.title, seats: 30, seatsTaken: 0, totalSeats: 30, mode: "online" });
    expect(r.body.data.id).not.toBe("x");
    expect((await api.get(`/api/schedules/${r.body.data.id}`, { token: editor })).body.data).toEqual(r.body.data);
    // Anonymous callers get no staff names.
    expect((await api.get(`/api/schedules/${r.body.data.id}`)).body.data).toEqual({ ...r.body.data, updatedBy: undefined });
  });

  it("gives the form's message for each field", async () => {
    const empty = await api.post("/api/schedules", { token: admin, json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual({
      course: "Course is required",
      startDate: "Start date is required",
      endDate: "End date is required",
      time: "Time is required",
      days: "Days are required",
      mode: "Mode is required",
      location: "Location is required",
      totalSeats: "Total seats must be at least 1",
    });
    const month = await api.post("/api/schedules", { token: admin, json: batch(courses[0].id, { startDate: "2031-02-30" }) });
    expect(month.body.error.fields).toEqual({ startDate: "Enter a date as YYYY-MM-DD" });
    const order = await api.post("/api/schedules", { token: admin, json: batch(courses[0].id, { seats: 40, totalSeats: 30, endDate: "2031-01-01" }) });
    expect(order.body.error.fields).toEqual({ endDate: "End date cannot be before the start date" });
    const unknown = await api.post("/api/schedules", { token: admin, json: batch("no-such-course") });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields).toEqual({ course: "Please select a course" });
  });

  it("replaces a batch (following a course change) and deletes it", async () => {
    const made = (await api.post("/api/schedules", { token: admin, json: batch(courses[0].id) })).body.data;
    const moved = await api.put(`/api/schedules/${made.id}`, { token: editor, json: batch(courses[2].id, { mode: "hybrid", seats: 3 }) });
    expect(moved.status).toBe(200);
    // The seats sent are ignored: every seat of the new batch is still left.
    expect(moved.body.data).toMatchObject({ id: made.id, course: courses[2].id, courseName: courses[2].title, mode: "hybrid", seats: 30 });
    const invalid = await api.put(`/api/schedules/${made.id}`, { token: editor, json: batch(courses[2].id, { location: " " }) });
    expect(invalid.body.error.fields).toEqual({ location: "Location is required" });
    expect((await api.get(`/api/schedules/${made.id}`)).body.data.location).toBe("Live online");
    expect((await api.put("/api/schedules/nope", { token: editor, json: batch(courses[2].id) })).status).toBe(404);
    expect((await api.del(`/api/schedules/${made.id}`, { token: editor })).status).toBe(204);
    expect((await api.get(`/api/schedules/${made.id}`)).status).toBe(404);
    expect((await api.del(`/api/schedules/${made.id}`, { token: editor })).status).toBe(404);
  });

  it("renaming a course renames its batches' copy of the title", async () => {
    const course = (await api.post("/api/courses", { token: admin, json: { title: "Old Name", category: "beginner", description: "d" } })).body.data;
    const b = (await api.post("/api/schedules", { token: admin, json: batch(course.id) })).body.data;
    await api.put(`/api/courses/${course.id}`, { token: admin, json: { title: "New Name", category: "beginner", description: "d" } });
    expect((await api.get(`/api/schedules/${b.id}`)).body.data.courseName).toBe("New Name");
  });

  it("anonymous writes are 401 and change nothing", async () => {
    const first = (await api.get("/api/schedules")).body.data[0];
    expect((await api.post("/api/schedules", { json: batch(courses[0].id) })).status).toBe(401);
    expect((await api.put(`/api/schedules/${first.id}`, { json: batch(courses[0].id, { seats: 0 }) })).status).toBe(401);
    expect((await api.del(`/api/schedules/${first.id}`)).status).toBe(401);
    expect((await api.get(`/api/schedules/${first.id}`)).body.data).toEqual(first);
  });
});

describe("reviews", () => {
  it("anonymous callers see approved reviews only, even when asking for pending ones", async () => {
    const anon = await api.get("/api/reviews");
    expect(anon.status).toBe(200);
    expect(anon.body.total).toBe(6);
    expect(anon.body.data.every((r: { approved: boolean }) => r.approved)).toBe(true);
    const sneaky = await api.get("/api/reviews?status=pending");
    expect(sneaky.body.total).toBe(6);
    expect(sneaky.text).not.toContain("Ananya Iyer");
  });

  it("staff see every review and can filter by status and course", async () => {
    expect((await api.get("/api/reviews", { token: editor })).body.total).toBe(7);
    const pending = await api.get("/api/reviews?status=pending", { token: editor });
    expect(pending.body.data.map((r: { name: string }) => r.name)).toEqual(["Ananya Iyer"]);
    const approved = await api.get("/api/reviews?status=approved", { token: admin });
    expect(approved.body.total).toBe(6);
    const soc = await api.get("/api/reviews?course=SOC Analyst", { token: admin });
    expect(soc.body.data.length).toBeGreaterThan(0);
    expect(soc.body.data.every((r: { course: string }) => r.course.includes("SOC Analyst"))).toBe(true);
  });

  it("a pending review is 404 for anonymous callers until it is approved", async () => {
    const pending = (await api.get("/api/reviews?status=pending", { token: admin })).body.data[0];
    expect((await api.get(`/api/reviews/${pending.id}`)).status).toBe(404);
    expect((await api.get(`/api/reviews/${pending.id}`, { token: editor })).body.data.name).toBe("Ananya Iyer");
    expect((await api.put(`/api/reviews/${pending.id}/approve`)).status).toBe(401);
    expect((await api.get(`/api/reviews/${pending.id}`)).status).toBe(404);
    const approved = await api.put(`/api/reviews/${pending.id}/approve`, { token: editor });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ id: pending.id, approved: true });
    expect((await api.get(`/api/reviews/${pending.id}`)).body.data.approved).toBe(true);
    expect((await api.put("/api/reviews/nope/approve", { token: editor })).status).toBe(404);
  });

  it("creates a review unapproved by default with the form's defaults", async () => {
    const r = await api.post("/api/reviews", { token: editor, json: review() });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ ...review(), approved: false, type: "text", linkedin: null, videoThumbnail: null });
    expect((await api.get(`/api/reviews/${r.body.data.id}`)).status).toBe(404);
    // A form body keeps the form's readings: its empty type and LinkedIn boxes are the defaults.
    const form = await api.post("/api/reviews", {
      token: editor,
      body: new URLSearchParams({ ...review(), rating: "5", type: "", linkedin: "" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect([form.status, form.body.data?.type, form.body.data?.linkedin]).toEqual([201, "text", null]);
  });

  it("gives the form's message for each field", async () => {
    const empty = await api.post("/api/reviews", { token: admin, json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual({
      name: "Student name is required",
      position: "Position is required",
      image: "Profile image URL is required",
      rating: "Rating is required",
      course: "Course is required",
      review: "Review text is required",
    });
    const bad = await api.post("/api/reviews", { token: admin, json: review({ rating: 6, image: "javascript:alert(1)", type: "audio" }) });
    expect(bad.body.error.fields).toEqual({
      rating: "Rating must be from 1 to 5",
      image: "Profile image URL must be a valid URL",
      type: "Review type must be one of text, video",
    });
  });

  it("edits (back to pending only by editing) and deletes", async () => {
    const made = (
      await api.post("/api/reviews", { token: admin, json: review({ approved: true, type: "video", videoThumbnail: "https://example.com/t.jpg" }) })
    ).body.data;
    expect(made).toMatchObject({ approved: true, type: "video", videoThumbnail: "https://example.com/t.jpg" });
    const edited = await api.put(`/api/reviews/${made.id}`, { token: editor, json: review({ rating: 4, approved: false }) });
    expect(edited.body.data).toMatchObject({ rating: 4, approved: false, type: "text", videoThumbnail: null });
    expect((await api.put(`/api/reviews/${made.id}`, { token: editor, json: { rating: 3 } })).status).toBe(400);
    expect((await api.get(`/api/reviews/${made.id}`, { token: editor })).body.data.rating).toBe(4);
    expect((await api.put("/api/reviews/nope", { token: editor, json: review() })).status).toBe(404);
    expect((await api.del(`/api/reviews/${made.id}`)).status).toBe(401);
    expect((await api.del(`/api/reviews/${made.id}`, { token: editor })).status).toBe(204);
    expect((await api.get(`/api/reviews/${made.id}`, { token: editor })).status).toBe(404);
  });
});
