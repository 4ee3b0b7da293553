import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, apiClient, startApiServer } from "../helpers/api-server";

/**
 * Every read after an acknowledged write shows it, with the page cache warming before it switches
 * (PAGE_CACHE_GRACE_SECONDS above 0, as in production): the API's anonymous reads switch at once on every change,
 * and so do the changed record's own pages (a course's page and its data request, its batches' calendar files);
 * the other pages may serve their previous copy while the new one renders.
 */
const server = startApiServer({ PAGE_CACHE_GRACE_SECONDS: "10" });
const api = apiClient(server);
let admin = "";

const COURSE = { category: "beginner", description: "A course whose title changes while it is read." };

async function anonymous(path: string) {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, cache: res.headers.get("x-page-cache"), text: await res.text() };
}

/** Reads `path` twice, so the cache keeps it and the second answer is a hit. */
async function kept(path: string) {
  await anonymous(path);
  const again = await anonymous(path);
  expect(again.cache, path).toBe("hit");
  return again;
}

beforeAll(async () => {
  admin = await api.login(ADMIN.email, ADMIN.password);
});

describe("the API's anonymous reads", () => {
  it("show a course's new title on the very next read, 20 edits in a row, while other visitors keep reading", async () => {
    const made = await api.post("/api/courses", { token: admin, json: { ...COURSE, title: "Read After Write 0" } });
    expect(made.status).toBe(201);
    const id = made.body.data.id as string;
    const one = `/api/courses/${id}`;
    const list = "/api/courses?limit=100";
    await kept(one);
    await kept(list);
    // Other visitors read the same addresses all along: renders and version reads begin before each write and
    // end after it.
    let reading = true;
    const others = (async () => {
      let n = 0;
      while (reading) {
        await Promise.all([anonymous(one), anonymous(list)]);
        n++;
      }
      return n;
    })();
    const wrong: string[] = [];
    for (let i = 1; i <= 20; i++) {
      const title = `Read After Write ${i}`;
      const put = await api.put(`/api/courses/${id}`, { token: admin, json: { ...COURSE, title } });
      expect([put.status, put.body.data?.title]).toEqual([200, title]);
      const [record, all] = [await anonymous(one), await anonymous(list)];
      if (JSON.parse(record.text).data.title !== title) wrong.push(`${i}: ${one} said ${record.text.slice(0, 120)} (${record.cache})`);
      if (!all.text.includes(`"${title}"`)) wrong.push(`${i}: ${list} lacks it (${all.cache})`);
      for (const answer of [record, all]) expect(answer.cache).not.toBe("stale");
    }
    reading = false;
    expect(await others).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
    // Between writes the reads are kept again: the cache still works.
    expect((await anonymous(one)).cache).toBe("hit");
  }, 120_000);

  it("list a review once it is approved, at once", async () => {
    const review = await api.post("/api/reviews", {
      token: admin,
      json: {
        name: "Approved At Once",
        position: "SOC Analyst",
        image: "/images/a.png",
        rating: 5,
        course: "SOC Analyst Training Program",
        review: "Shown the moment it is approved.",
      },
    });
    expect(review.status).toBe(201);
    const id = review.body.data.id as string;
    const listed = await kept("/api/reviews?limit=100");
    expect(listed.text).not.toContain("Approved At Once");
    expect((await anonymous(`/api/reviews/${id}`)).status).toBe(404);
    expect((await api.put(`/api/reviews/${id}/approve`, { token: admin })).status).toBe(200);
    const after = await anonymous("/api/reviews?limit=100");
    expect(after.cache).not.toBe("stale");
    expect(after.text).toContain("Approved At Once");
    expect((await anonymous(`/api/reviews/${id}`)).status).toBe(200);
  });
});

describe("the HTML pages", () => {
  it("switch the changed course's own page, its data and its batches' calendars at once; the others may warm first", async () => {
    const made = await api.post("/api/courses", { token: admin, json: { ...COURSE, title: "Own Page Before" } });
    const { id, slug } = made.body.data as { id: string; slug: string };
    const batch = await api.post("/api/schedules", {
      token: admin,
      json: {
        course: id,
        startDate: "2031-05-01",
        endDate: "2031-06-01",
        time: "7 PM",
        days: "Sat",
        mode: "online",
        location: "Online",
        seats: 5,
        totalSeats: 10,
      },
    });
    expect(batch.status).toBe(201);
    const own = [`/courses/${slug}`, `/courses/${slug}.data`, `/schedules/${batch.body.data.id}.ics`];
    for (const path of own) expect((await kept(path)).text, path).toContain("Own Page Before");
    await kept("/");
    await kept("/about");

    const put = await api.put(`/api/courses/${id}`, { token: admin, json: { ...COURSE, title: "Own Page After" } });
    expect(put.status).toBe(200);
    for (const path of own) {
      const answer = await anonymous(path);
      expect(answer.cache, path).not.toBe("stale");
      expect(answer.text, path).toContain("Own Page After");
      expect(answer.text, path).not.toContain("Own Page Before");
    }
    // Pages that are not the course's own are answered from memory while their new copies render.
    for (const path of ["/", "/about"]) expect(["stale", "hit"], path).toContain((await anonymous(path)).cache);
  });
});
