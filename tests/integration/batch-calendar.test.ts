import { beforeAll, describe, expect, it } from "vitest";
import { nextDay, siteToday } from "~/util/dates";
import { ADMIN, apiClient, signInCookie, startApiServer } from "../helpers/api-server";
import { readCalendar } from "../helpers/ical";

/**
 * Calendar files on the built server: `/schedules/<id>.ics` for each batch /schedules lists (its "Add to
 * calendar" link) and `/schedules.ics` for all of them, read back with ical.js and expanded in IST; the page
 * cache keeps them like the page; a batch the public list does not show has no file.
 */
const server = startApiServer();
const api = apiClient(server);
let admin = "";
let courseId = "";
let courseSlug = "";

const addDays = (day: string, n: number) => {
  let d = day;
  for (let i = 0; i < n; i++) d = nextDay(d);
  return d;
};
/** The first Monday at least a week away (Hyderabad's today), so every batch below is upcoming. */
const monday = (() => {
  let d = addDays(siteToday(), 7);
  while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 1) d = nextDay(d);
  return d;
})();

async function createBatch(over: Record<string, unknown>): Promise<string> {
  const r = await api.post("/api/schedules", {
    token: admin,
    json: {
      course: courseId,
      startDate: monday,
      endDate: addDays(monday, 13),
      time: "7:00 PM - 9:00 PM",
      days: "Mon, Wed, Fri",
      mode: "online",
      location: "Live online (Zoom)",
      seats: 10,
      totalSeats: 20,
      ...over,
    },
  });
  if (r.status !== 201) throw new Error(`${r.status} ${r.text}`);
  return r.body.data.id as string;
}

async function ics(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers });
  return { res, status: res.status, cache: res.headers.get("x-page-cache"), text: await res.text() };
}

beforeAll(async () => {
  admin = await api.login(ADMIN.email, ADMIN.password);
  const courses = await api.get("/api/courses?limit=100");
  courseId = courses.body.data[0].id;
  courseSlug = courses.body.data[0].slug;
});

describe("a batch's calendar file", () => {
  it("Sat & Sun, 10:00 AM - 1:00 PM, offline: a weekly event in IST at the batch's place, as a download", async () => {
    const id = await createBatch({ days: "Sat & Sun", time: "10:00 AM - 1:00 PM", mode: "offline", location: "HITEC City campus, Hyderabad" });
    const { res, status, text } = await ics(`/schedules/${id}.ics`);
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="[a-z0-9-]+-${monday}\\.ics"$`));
    const { events } = readCalendar(text);
    expect(events).toHaveLength(1);
    const [e] = events;
    expect(e.uid).toBe(`${id}@127.0.0.1`);
    expect(e.location).toBe("HITEC City campus, Hyderabad");
    expect(e.url).toBe(`${server.url}/courses/${courseSlug}`);
    expect(e.occurrences).toEqual([5, 6, 12, 13].map((n) => `${addDays(monday, n)} 10:00–13:00`));
  });

  it("Mon, Wed, Fri at 7:00 PM - 9:00 PM online: Online, six evenings", async () => {
    const id = await createBatch({});
    const [e] = readCalendar((await ics(`/schedules/${id}.ics`)).text).events;
    expect(e.location).toBe("Online");
    expect(e.occurrences).toEqual([0, 2, 4, 7, 9, 11].map((n) => `${addDays(monday, n)} 19:00–21:00`));
  });

  it("a time it cannot read: all-day on the days; days it cannot read: one span", async () => {
    const weekdays = await createBatch({ days: "Weekdays", time: "Evenings, to be confirmed" });
    const w = readCalendar((await ics(`/schedules/${weekdays}.ics`)).text).events[0];
    expect(w.allDay).toBe(true);
    expect(w.occurrences).toEqual([0, 1, 2, 3, 4, 7, 8, 9, 10, 11].map((n) => addDays(monday, n)));
    const alternate = await createBatch({ days: "Alternate days" });
    const a = readCalendar((await ics(`/schedules/${alternate}.ics`)).text).events[0];
    expect([a.allDay, a.rrule, a.occurrences, a.days]).toEqual([true, null, [monday], 14]);
  });

  it("is kept by the page cache for anonymous visitors, not for staff", async () => {
    const id = await createBatch({ days: "Tue, Thu" });
    const first = await ics(`/schedules/${id}.ics`);
    const second = await ics(`/schedules/${id}.ics`);
    expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
    expect(second.text).toBe(first.text);
    expect(second.res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(second.res.headers.get("content-disposition")).toBe(first.res.headers.get("content-disposition"));
    const cookie = await signInCookie(server.url);
    expect((await ics(`/schedules/${id}.ics`, { cookie })).cache).toBeNull();
  });

  it("is a 404 for a batch that has ended or does not exist, and /schedules links every batch it shows", async () => {
    const ended = await createBatch({ startDate: "2020-01-06", endDate: "2020-01-20" });
    expect((await ics(`/schedules/${ended}.ics`)).status).toBe(404);
    expect((await ics("/schedules/no-such-batch.ics")).status).toBe(404);
    const page = await (await fetch(`${server.url}/schedules`)).text();
    const upcoming = (await api.get("/api/schedules?upcoming=true&limit=100")).body.data as { id: string }[];
    const linked = [...page.matchAll(/href="\/schedules\/([^"/]+)\.ics"/g)].map((m) => m[1]);
    expect(linked.sort()).toEqual(upcoming.map((b) => b.id).sort());
    expect(linked).not.toContain(ended);
    expect(page).toContain('href="/schedules.ics"');
  });
});

describe("a batch that is not public", () => {
  it("a draft has no file and is not in the feed; once published it has both", async () => {
    const draft = await createBatch({ state: "draft" });
    expect((await ics(`/schedules/${draft}.ics`)).status).toBe(404);
    expect(readCalendar((await ics("/schedules.ics")).text).events.map((e) => e.uid)).not.toContain(`${draft}@127.0.0.1`);
    const batch = (await api.get(`/api/schedules/${draft}`, { token: admin })).body.data;
    const { id: _id, courseName: _n, createdAt: _c, updatedAt: _u, publishAt: _p, ...fields } = batch;
    expect((await api.put(`/api/schedules/${draft}`, { token: admin, json: { ...fields, state: "published" } })).status).toBe(200);
    expect((await ics(`/schedules/${draft}.ics`)).status).toBe(200);
    expect(readCalendar((await ics("/schedules.ics")).text).events.map((e) => e.uid)).toContain(`${draft}@127.0.0.1`);
  });
});

describe("the feed of upcoming batches", () => {
  it("holds every upcoming public batch once, soonest first, and comes from the page cache the second time", async () => {
    const ended = await createBatch({ startDate: "2020-01-06", endDate: "2020-01-20" });
    const first = await ics("/schedules.ics");
    expect(first.status).toBe(200);
    expect(first.res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(first.res.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+\.ics"$/);
    const { calendar, events } = readCalendar(first.text);
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    const upcoming = (await api.get("/api/schedules?upcoming=true&limit=100")).body.data as { id: string }[];
    expect(events.map((e) => e.uid).sort()).toEqual(upcoming.map((b) => `${b.id}@127.0.0.1`).sort());
    expect(events.map((e) => e.uid)).not.toContain(`${ended}@127.0.0.1`);
    for (const e of events) expect(e.occurrences.length).toBeGreaterThan(0);
    expect((await ics("/schedules.ics")).cache).toBe("hit");
    // A new batch moves the content version: the next answer is built again and has it.
    const added = await createBatch({ days: "Sat, Sun" });
    const after = await ics("/schedules.ics");
    expect(after.cache).toBe("miss");
    expect(readCalendar(after.text).events.map((e) => e.uid)).toContain(`${added}@127.0.0.1`);
  });
});
