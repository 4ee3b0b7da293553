import { beforeAll, describe, expect, it } from "vitest";
import { getCourse, getCourseBySlug, insertCourse, listAllCourses, listCourseTitles } from "~/models/course.server";
import { getReview, insertReview, listReviews, reviewStats } from "~/models/review.server";
import { getSchedule, insertSchedule, listUpcomingSchedules } from "~/models/schedule.server";
import { readContentVersion } from "~/models/content-version.server";
import { listAuditEntries } from "~/models/audit-log.server";
import { loader as schedulesLoader } from "~/routes/admin.schedules";
import { action as newScheduleAction } from "~/routes/admin.schedules.new";
import { action as editScheduleAction, loader as editScheduleLoader } from "~/routes/admin.schedules.$id.edit";
import { loader as reviewsLoader } from "~/routes/admin.reviews";
import { action as newReviewAction } from "~/routes/admin.reviews.new";
import { loader as coursePageLoader } from "~/routes/_site.courses.$slug";
import { publishDueItems } from "~/services/publication.server";
import { formatDateTime } from "~/util/dates";
import { useTestDatabase } from "../helpers/db";
import { makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * The Publication fieldset on the admin forms (plain form posts, as without JavaScript), the lists' state
 * filter, the visibility rule of the model reads, and the publishing job run directly (real database).
 */
useTestDatabase();

let editor: string;
let courseId: string;
const schedule = (over: Record<string, string> = {}) => ({
  course: courseId,
  startDate: "2031-04-01",
  endDate: "2031-07-31",
  time: "7:00 AM - 9:00 AM",
  days: "Sat, Sun",
  mode: "online",
  location: "Publishing Lab",
  seats: "12",
  totalSeats: "25",
  ...over,
});
const review = (over: Record<string, string> = {}) => ({
  name: "Scheduled Student",
  position: "SOC Analyst L1",
  image: "https://example.com/s.png",
  rating: "5",
  course: "SOC Analyst Training Program",
  review: "Worth it.",
  type: "text",
  approved: "on",
  ...over,
});
type Reply = { error: Record<string, string[]>; initialValue: Record<string, string> };
const DUE_LATER = "2031-01-05T09:30";

beforeAll(async () => {
  editor = await staffCookie("editor");
  courseId = (await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "Flagship" })).id;
});

describe("the Publication fieldset (JavaScript off)", () => {
  it("refuses Scheduled without a publish time, or with one in the past, and keeps what was typed", async () => {
    for (const publishAt of ["", "2020-01-01T10:00", "not a time"]) {
      const out = await run(newScheduleAction, makeRequest("/admin/schedules/new", { cookie: editor, form: schedule({ state: "scheduled", publishAt }) }));
      expect(out.status, publishAt).toBe(400);
      const reply = (out.body as { result: Reply }).result;
      expect(reply.error.publishAt).toEqual(["Choose when to publish, in the future"]);
      expect(reply.initialValue.state).toBe("scheduled");
    }
    const bad = await run(
      newReviewAction,
      makeRequest("/admin/reviews/new", { cookie: editor, form: review({ state: "scheduled", publishAt: "2020-01-01T10:00" }) }),
    );
    expect(bad.status).toBe(400);
    expect((bad.body as { result: Reply }).result.error.publishAt).toEqual(["Choose when to publish, in the future"]);
  });

  it("stores a Hyderabad publish time as UTC, shows it back in IST, and lists and filters by state", async () => {
    const out = await run(
      newScheduleAction,
      makeRequest("/admin/schedules/new", { cookie: editor, form: schedule({ state: "scheduled", publishAt: DUE_LATER, location: "Scheduled Hall" }) }),
    );
    expect(out.status).toBe(302);
    const draft = await run(
      newScheduleAction,
      makeRequest("/admin/schedules/new", { cookie: editor, form: schedule({ state: "draft", publishAt: DUE_LATER, location: "Draft Hall" }) }),
    );
    expect(draft.status).toBe(302);
    const plain = await run(newScheduleAction, makeRequest("/admin/schedules/new", { cookie: editor, form: schedule({ location: "Plain Hall" }) }));
    expect(plain.status).toBe(302);

    const list = await run(schedulesLoader, makeRequest("/admin/schedules?state=scheduled", { cookie: editor }));
    const rows = (list.body as { list: { data: { id: string; location: string; state: string; publishAt: string }[] } }).list.data;
    expect(rows.map((r) => [r.location, r.state, r.publishAt])).toEqual([["Scheduled Hall", "scheduled", "2031-01-05T04:00:00.000Z"]]);
    const drafts = await run(schedulesLoader, makeRequest("/admin/schedules?state=draft", { cookie: editor }));
    expect((drafts.body as { list: { data: { location: string; publishAt: string | null }[] } }).list.data).toMatchObject([
      { location: "Draft Hall", publishAt: null },
    ]);
    const all = await run(schedulesLoader, makeRequest("/admin/schedules", { cookie: editor }));
    expect((all.body as { list: { data: { location: string; state: string }[] } }).list.data.find((r) => r.location === "Plain Hall")?.state).toBe("published");

    // The edit form gets the record back; saving it again without a state change keeps it scheduled.
    const id = rows[0].id;
    const edit = await run(editScheduleLoader, makeRequest(`/admin/schedules/${id}/edit`, { cookie: editor }), { id });
    expect((edit.body as { schedule: { state: string } }).schedule.state).toBe("scheduled");
    const published = await run(
      editScheduleAction,
      makeRequest(`/admin/schedules/${id}/edit`, { cookie: editor, form: schedule({ state: "published", location: "Scheduled Hall" }) }),
      { id },
    );
    expect(published.status).toBe(302);
    expect(await getSchedule(id)).toMatchObject({ state: "published", publishAt: null });
  });

  it("filters the review list by state beside its status tabs", async () => {
    const out = await run(newReviewAction, makeRequest("/admin/reviews/new", { cookie: editor, form: review({ state: "draft", name: "Draft Student" }) }));
    expect(out.status).toBe(302);
    const list = await run(reviewsLoader, makeRequest("/admin/reviews?status=approved&state=draft", { cookie: editor }));
    expect((list.body as { list: { data: { name: string }[] } }).list.data.map((r) => r.name)).toEqual(["Draft Student"]);
  });
});

describe("visibility and the publishing job", () => {
  it("keeps unpublished rows out of every public read, and publishes due ones once, moving the content version", async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const course = await insertCourse({ title: "Cloud SOC", category: "advanced", description: "Soon", publication: { state: "scheduled", publishAt: soon } });
    const batch = await insertSchedule({
      course: course.id,
      startDate: "2031-05-01",
      endDate: "2031-08-01",
      time: "7 PM",
      days: "Mon",
      mode: "online",
      location: "Cloud Room",
      seats: 3,
      totalSeats: 9,
    });
    const rev = await insertReview({
      name: "Due Reviewer",
      position: "L1",
      image: "https://example.com/d.png",
      rating: 4,
      review: "Good",
      course: "Cloud SOC",
      approved: true,
      publication: { state: "scheduled", publishAt: soon },
    });
    const statsBefore = await reviewStats();

    expect((await listAllCourses()).map((c) => c.id)).not.toContain(course.id);
    expect((await listCourseTitles()).map((c) => c.id)).not.toContain(course.id);
    expect((await listCourseTitles("staff")).map((c) => c.id)).toContain(course.id);
    expect(await getCourseBySlug(course.slug)).toBeNull();
    expect(await getCourse(course.id, "public")).toBeNull();
    // A published batch of a course that is not public is not public either.
    expect((await listUpcomingSchedules()).map((s) => s.id)).not.toContain(batch.id);
    expect(await getSchedule(batch.id, "public")).toBeNull();
    expect((await listReviews({ audience: "public", limit: 100 })).data.map((r) => r.id)).not.toContain(rev.id);
    expect(await getReview(rev.id, "public")).toBeNull();

    // Staff preview the course at its public URL; visitors get Not Found.
    const anonymous = await run(coursePageLoader, makeRequest(`/courses/${course.slug}`), { slug: course.slug });
    expect(anonymous.status).toBe(404);
    const preview = await run(coursePageLoader, makeRequest(`/courses/${course.slug}`, { cookie: editor }), { slug: course.slug });
    expect(preview.status).toBe(200);
    expect((preview.body as { preview: unknown }).preview).toEqual({ state: "scheduled", publishes: formatDateTime(soon) });
    expect(preview.headers.get("cache-control")).toBe("private, no-store");

    // Not due yet: nothing happens.
    const version = await readContentVersion();
    expect(await publishDueItems()).toEqual([]);
    expect(await readContentVersion()).toBe(version);

    // Due: two runs at once (two instances) publish each row once.
    const later = new Date(Date.parse(soon) + 1000).toISOString();
    const [a, b] = await Promise.all([publishDueItems(later), publishDueItems(later)]);
    const done = [...a, ...b].map((r) => r.id).sort();
    expect(done).toEqual([course.id, rev.id].sort());
    expect(await readContentVersion()).toBeGreaterThan(version);
    expect((await listAllCourses()).map((c) => c.id)).toContain(course.id);
    expect((await listUpcomingSchedules()).map((s) => s.id)).toContain(batch.id);
    expect(await getReview(rev.id, "public")).toMatchObject({ state: "published" });
    expect((await reviewStats()).count).toBe(statsBefore.count + 1);

    const audit = await listAuditEntries({ limit: 100 });
    const publishes = audit.data.filter((e) => e.action === "publish");
    expect(publishes.map((e) => e.entityId).sort()).toEqual([course.id, rev.id].sort());
    expect(publishes[0]).toMatchObject({ userId: null, userName: "System" });
  });
});
