import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, apiClient, launchServer, signInCookie, startApiServer, type RunningServer } from "../helpers/api-server";

/**
 * Drafts and scheduled publishing on the built server (real database, the publishing job running in every
 * instance): a draft or scheduled course, batch or review reaches no visitor, no sitemap, no anonymous API read
 * and no cached page; staff preview it; when its time comes it appears, on two instances of one database.
 */
const server = startApiServer();
const api = apiClient(server);
let admin = "";
let cookie = "";
let second: RunningServer | undefined;

const suffix = Math.random().toString(36).slice(2, 8);
const TITLE = `Threat Hunting Preview ${suffix}`;
const DRAFT_TITLE = `Draft Forensics ${suffix}`;
const LOCATION = `Preview Lab Hall ${suffix}`;
const REVIEWER = `Scheduled Reviewer ${suffix}`;
// Long enough for the checks before it on a busy machine; the job then publishes within its 15-second period.
const SOON_MS = 15_000;

let course: { id: string; slug: string; publishAt: string };
let draft: { id: string; slug: string };
let batchId = "";
let reviewId = "";
let publishAt = "";

async function text(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers, redirect: "manual" });
  return { status: res.status, res, body: await res.text() };
}

beforeAll(async () => {
  admin = await api.login(ADMIN.email, ADMIN.password);
  cookie = await signInCookie(server.url);
  // Warm the page cache: the scheduled items must not appear from a page kept before they were made either.
  for (const path of ["/courses", "/schedules", "/reviews", "/sitemap.xml", "/api/courses"]) await fetch(`${server.url}${path}`);
  publishAt = new Date(Date.now() + SOON_MS).toISOString();
  const made = await api.post("/api/courses", {
    token: admin,
    json: {
      title: TITLE,
      category: "advanced",
      description: "Hunting threats before they become incidents.",
      modes: ["online"],
      state: "scheduled",
      publishAt,
    },
  });
  expect(made.status, made.text).toBe(201);
  course = made.body.data;
  const d = await api.post("/api/courses", { token: admin, json: { title: DRAFT_TITLE, category: "beginner", description: "Not ready yet.", state: "draft" } });
  expect(d.status, d.text).toBe(201);
  draft = d.body.data;
  const published = (await api.get("/api/courses?limit=1")).body.data[0];
  const b = await api.post("/api/schedules", {
    token: admin,
    json: {
      course: published.id,
      startDate: "2031-03-02",
      endDate: "2031-06-30",
      time: "7 PM - 9 PM",
      days: "Tue, Thu",
      mode: "online",
      location: LOCATION,
      seats: 5,
      totalSeats: 10,
      state: "scheduled",
      publishAt,
    },
  });
  expect(b.status, b.text).toBe(201);
  batchId = b.body.data.id;
  const r = await api.post("/api/reviews", {
    token: admin,
    json: {
      name: REVIEWER,
      position: "SOC Analyst",
      image: "https://example.com/r.jpg",
      rating: 5,
      course: published.title,
      review: "Great labs.",
      approved: true,
      state: "scheduled",
      publishAt,
    },
  });
  expect(r.status, r.text).toBe(201);
  reviewId = r.body.data.id;
}, 60_000);

afterAll(async () => {
  await second?.stop();
});

describe("publication states", () => {
  it("the API takes and returns state and publishAt; a record made without a state is published", async () => {
    expect(course).toMatchObject({ state: "scheduled", publishAt });
    expect(draft).toMatchObject({ state: "draft", publishAt: null });
    const plain = await api.post("/api/courses", { token: admin, json: { title: `Plain ${suffix}`, category: "beginner", description: "No state given." } });
    expect(plain.body.data).toMatchObject({ state: "published", publishAt: null });
    // A Hyderabad local time is read as IST.
    const local = await api.put(`/api/courses/${draft.id}`, {
      token: admin,
      json: { title: DRAFT_TITLE, category: "beginner", description: "Not ready yet.", state: "scheduled", publishAt: "2035-01-05T09:30" },
    });
    expect(local.status, local.text).toBe(200);
    expect(local.body.data).toMatchObject({ state: "scheduled", publishAt: "2035-01-05T04:00:00.000Z" });
    const back = await api.put(`/api/courses/${draft.id}`, {
      token: admin,
      json: { title: DRAFT_TITLE, category: "beginner", description: "Not ready yet.", state: "draft" },
    });
    expect(back.body.data).toMatchObject({ state: "draft", publishAt: null });
  });

  it("refuses a scheduled state without a future publish time", async () => {
    const past = await api.post("/api/courses", {
      token: admin,
      json: { title: "Too Late", category: "beginner", description: "x", state: "scheduled", publishAt: "2020-01-01T10:00:00+05:30" },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.fields).toEqual({ publishAt: "Choose when to publish, in the future" });
    const none = await api.post("/api/schedules", {
      token: admin,
      json: {
        course: course.id,
        startDate: "2031-03-02",
        endDate: "2031-06-30",
        time: "7 PM",
        days: "Tue",
        mode: "online",
        location: "x",
        seats: 1,
        totalSeats: 2,
        state: "scheduled",
      },
    });
    expect(none.status).toBe(400);
    expect(none.body.error.fields).toEqual({ publishAt: "Choose when to publish, in the future" });
    const bad = await api.post("/api/reviews", {
      token: admin,
      json: { name: "N", position: "P", image: "https://example.com/i.jpg", rating: 5, course: "C", review: "R", state: "live" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ state: "Publication must be one of draft, scheduled, published" });
  });

  it("keeps drafts and scheduled items from visitors, the sitemap, the anonymous API and the page cache", async () => {
    for (const path of ["/courses", "/"]) {
      const page = await text(server.url, path);
      expect(page.body, path).not.toContain(TITLE);
      expect(page.body, path).not.toContain(DRAFT_TITLE);
    }
    expect((await text(server.url, `/courses/${course.slug}`)).status).toBe(404);
    expect((await text(server.url, `/courses/${draft.slug}`)).status).toBe(404);
    expect((await text(server.url, "/schedules")).body).not.toContain(LOCATION);
    expect((await text(server.url, "/reviews")).body).not.toContain(REVIEWER);
    expect((await text(server.url, "/enquiry")).body).not.toContain(TITLE);
    const sitemap = (await text(server.url, "/sitemap.xml")).body;
    expect(sitemap).toContain("/courses/");
    expect(sitemap).not.toContain(course.slug);
    expect(sitemap).not.toContain(draft.slug);

    const courses = await api.get("/api/courses?limit=100&state=scheduled");
    expect(courses.body.data.map((c: { title: string }) => c.title)).not.toContain(TITLE);
    expect(courses.body.data.every((c: { state: string }) => c.state === "published")).toBe(true);
    expect((await api.get(`/api/courses/${course.id}`)).status).toBe(404);
    expect((await api.get(`/api/schedules/${batchId}`)).status).toBe(404);
    expect((await api.get(`/api/reviews/${reviewId}`)).status).toBe(404);
    expect((await api.get("/api/schedules?limit=100")).text).not.toContain(LOCATION);
    expect((await api.get("/api/reviews?limit=100")).text).not.toContain(REVIEWER);
  });

  it("shows staff every state, filtered by state, and a Preview banner on the real course page", async () => {
    const scheduled = await api.get("/api/courses?limit=100&state=scheduled", { token: admin });
    expect(scheduled.body.data.map((c: { title: string }) => c.title)).toEqual([TITLE]);
    expect((await api.get(`/api/courses/${course.id}`, { token: admin })).body.data.state).toBe("scheduled");
    expect((await api.get("/api/schedules?state=scheduled", { token: admin })).body.data.map((s: { id: string }) => s.id)).toEqual([batchId]);
    expect((await api.get("/api/reviews?state=scheduled", { token: admin })).body.data.map((r: { id: string }) => r.id)).toEqual([reviewId]);

    const preview = await text(server.url, `/courses/${course.slug}`, { Cookie: cookie });
    expect(preview.status).toBe(200);
    expect(preview.body).toContain(TITLE);
    expect(preview.body).toMatch(/<strong>Preview<\/strong>: this course is not public yet \(Scheduled, publishes [^)]+ IST\)/);
    expect(preview.res.headers.get("cache-control")).toContain("no-store");
    expect(preview.res.headers.get("x-page-cache")).not.toBe("hit");
    const draftPreview = await text(server.url, `/courses/${draft.slug}`, { Cookie: cookie });
    expect(draftPreview.body).toContain("not public yet (Draft)");
    // The preview was not kept for visitors.
    expect((await text(server.url, `/courses/${course.slug}`)).status).toBe(404);
  });

  it("the course form (JavaScript off) has the Publication fieldset, refuses a past time, and the list filters by state", async () => {
    const form = (await text(server.url, "/admin/courses/new", { Cookie: cookie })).body;
    expect(form).toMatch(/<legend[^>]*>Publication<\/legend>/);
    expect(form).toMatch(/<input[^>]*type="datetime-local"[^>]*name="publishAt"|<input[^>]*name="publishAt"[^>]*type="datetime-local"/);
    const body = new FormData();
    for (const [k, v] of Object.entries({
      title: `Late ${suffix}`,
      category: "beginner",
      description: "Too late.",
      state: "scheduled",
      publishAt: "2020-01-01T10:00",
    }))
      body.append(k, v);
    const res = await fetch(`${server.url}/admin/courses/new`, { method: "POST", body, headers: { Cookie: cookie, Origin: server.url }, redirect: "manual" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Choose when to publish, in the future");
    expect(html).toContain('value="2020-01-01T10:00"');
    expect((await api.get(`/api/courses?limit=100`, { token: admin })).text).not.toContain(`Late ${suffix}`);

    // (The scheduled course may already be published by now: the draft one stays a draft.)
    const list = (await text(server.url, "/admin/courses?state=draft", { Cookie: cookie })).body;
    expect(list).toContain(DRAFT_TITLE);
    expect(list).not.toContain(TITLE);
    expect(list).toMatch(/Draft<\/span>/);
  });

  it("publishes scheduled items on time, seen by visitors of two instances of one database", async () => {
    second = await launchServer({ databaseUrl: server.databaseUrl, uploadDir: server.uploadDir });
    // Both instances keep the current catalogue page before the time comes.
    for (const base of [server.url, second.url]) for (let i = 0; i < 2; i++) await fetch(`${base}/courses`);
    const before = await text(second.url, "/courses");
    // On a loaded machine the second instance may start after the time has come; before it, nothing shows.
    if (Date.now() < Date.parse(publishAt) - 500) expect(before.body).not.toContain(TITLE);

    const due = Date.parse(publishAt);
    const seen = new Map<string, number>();
    while (seen.size < 4 && Date.now() - due < 30_000) {
      for (const base of [server.url, second.url]) {
        for (const [path, needle] of [
          ["/courses", TITLE],
          ["/sitemap.xml", course.slug],
        ] as const) {
          const key = `${base}${path}`;
          if (!seen.has(key) && (await text(base, path)).body.includes(needle)) seen.set(key, Date.now());
        }
      }
      if (seen.size < 4) await new Promise((r) => setTimeout(r, 250));
    }
    expect([...seen.keys()].sort()).toEqual(
      [`${second.url}/courses`, `${second.url}/sitemap.xml`, `${server.url}/courses`, `${server.url}/sitemap.xml`].sort(),
    );
    for (const at of seen.values()) expect(at).toBeGreaterThanOrEqual(due);

    expect((await text(second.url, `/courses/${course.slug}`)).status).toBe(200);
    expect((await text(second.url, `/courses/${course.slug}`)).body).not.toContain("not public yet");
    expect((await api.get(`/api/courses/${course.id}`)).body.data).toMatchObject({ state: "published" });
    expect((await api.get(`/api/schedules/${batchId}`)).status).toBe(200);
    expect((await text(server.url, "/schedules")).body).toContain(LOCATION);
    expect((await api.get(`/api/reviews/${reviewId}`)).status).toBe(200);
    expect((await text(second.url, "/reviews")).body).toContain(REVIEWER);
    // Still a draft: never published by the job.
    expect((await text(server.url, `/courses/${draft.slug}`)).status).toBe(404);

    // Each row published once, by the system, whichever instance got there first.
    const log = await api.get("/api/audit-log?entityType=course&limit=100", { token: admin });
    const publishes = log.body.data.filter((e: { action: string; entityId: string }) => e.action === "publish" && e.entityId === course.id);
    expect(publishes).toHaveLength(1);
    expect(publishes[0]).toMatchObject({ userId: null, userName: "System" });
  }, 60_000);
});
