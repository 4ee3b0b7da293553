import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, ensureBuilt, freshDatabase, launchServer, type RunningServer } from "../helpers/api-server";

/**
 * The page cache warms before it switches (server/page-cache.ts), on two built instances sharing one database
 * (one SQLite file, or one MariaDB database with TEST_MYSQL_URL). After an edit made on one instance, both keep
 * answering /courses from memory: the previous copy (X-Page-Cache: stale) until the new one has been rendered in
 * the background, then the new one (hit), within a few seconds, and never the old one again. After an unpublish
 * nothing from before is served again: the writing instance switches at its commit, the other at its next look
 * at the database (every 250 ms). The API's anonymous reads switch the same way after every change, an edit too.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-warm-"));
let database: Awaited<ReturnType<typeof freshDatabase>>;
const servers: RunningServer[] = [];
let token = "";
let courseId = "";
let slug = "";
const FIRST = "Warming Course Original Title";
const SECOND = "Warming Course Edited Title";
const GRACE_SECONDS = 3;

beforeAll(async () => {
  await ensureBuilt();
  database = await freshDatabase(dir);
  const launch = () =>
    launchServer({ databaseUrl: database.url, uploadDir: path.join(dir, "uploads"), env: { PAGE_CACHE_GRACE_SECONDS: String(GRACE_SECONDS) } });
  // On SQLite one after the other (the first one migrates and seeds the file), on MariaDB together.
  if (process.env.TEST_MYSQL_URL) servers.push(...(await Promise.all([launch(), launch()])));
  else {
    servers.push(await launch());
    servers.push(await launch());
  }
  const login = await fetch(`${servers[0].url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  token = ((await login.json()) as { token: string }).token;
  const made = await write("POST", "/api/courses", { title: FIRST, category: "beginner", description: "A course whose title changes under load." });
  courseId = made.id;
  slug = made.slug;
}, 600_000);

afterAll(async () => {
  if (process.env.WARM_DEBUG) for (const s of servers) console.log(s.output());
  await Promise.all(servers.map((s) => s.stop()));
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function write(method: string, p: string, json: unknown): Promise<{ id: string; slug: string }> {
  const res = await fetch(`${servers[0].url}${p}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(json),
  });
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return (JSON.parse(text) as { data: { id: string; slug: string } }).data;
}

type Answer = { at: number; status: number; cache: string | null; html: string };

async function visit(base: string, p: string, since: number): Promise<Answer> {
  const res = await fetch(`${base}${p}`);
  return { at: Date.now() - since, status: res.status, cache: res.headers.get("x-page-cache"), html: await res.text() };
}

/** Visits `p` one request after another for `ms`, noting when each answer came, from where, and what it said. */
async function watch(base: string, p: string, since: number, ms: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (Date.now() - since < ms) answers.push(await visit(base, p, since));
  return answers;
}

/** Both instances keep `p` (rendered once, then a hit). */
async function cached(p: string) {
  for (const s of servers) {
    await fetch(`${s.url}${p}`);
    expect((await fetch(`${s.url}${p}`)).headers.get("x-page-cache")).toBe("hit");
  }
}

describe("after an edit (switch after warming)", () => {
  it("both instances serve the previous /courses from memory until the new one is rendered, then only the new one", async () => {
    await cached("/courses");
    await cached("/");
    const since = Date.now();
    await write("PUT", `/api/courses/${courseId}`, { title: SECOND, category: "beginner", description: "A course whose title changes under load." });
    const [a, b] = await Promise.all(servers.map((s) => watch(s.url, "/courses", since, (GRACE_SECONDS + 2) * 1000)));
    for (const answers of [a, b]) {
      const fresh = (x: Answer) => x.html.includes(SECOND);
      const first = answers.findIndex(fresh);
      expect(first, "the edit shows").toBeGreaterThanOrEqual(0);
      // Visible within the grace time (plus the other instance's poll), and rendered in the background, not by a visitor.
      expect(answers[first].at).toBeLessThan(GRACE_SECONDS * 1000 + 1000);
      expect(answers[first].cache).toBe("hit");
      // No visitor waits for a render: every answer came from memory, the old page marked stale (or a hit before
      // the instance had looked), and never the old page once the new one was served.
      expect(answers.filter((x) => x.cache === "miss")).toEqual([]);
      expect(answers.slice(0, first).every((x) => x.html.includes(FIRST) && !fresh(x))).toBe(true);
      expect(answers.slice(first).every((x) => fresh(x) && x.cache === "hit" && !x.html.includes(FIRST))).toBe(true);
    }
    // The page nobody visited after the edit was warmed too.
    for (const s of servers) expect((await fetch(`${s.url}/`)).headers.get("x-page-cache")).toBe("hit");
  }, 30_000);
});

describe("after an unpublish (switch at once)", () => {
  it("no copy from before is served again: at once on the writing instance, within a poll on the other", async () => {
    await cached("/courses");
    await cached(`/courses/${slug}`);
    const since = Date.now();
    await write("PUT", `/api/courses/${courseId}`, { title: SECOND, category: "beginner", description: "Taken down.", state: "draft" });
    // The writing instance: its very next answer is rendered anew.
    const [list, page] = [await visit(servers[0].url, "/courses", since), await visit(servers[0].url, `/courses/${slug}`, since)];
    expect(list.html).not.toContain(SECOND);
    expect(list.cache).toBe("miss");
    expect(page.status).toBe(404);
    // The other instance: the old copies only as ordinary hits before its next look at the database, never as
    // stale copies after it, and never once the new answer has been given.
    const [lists, pages] = await Promise.all([watch(servers[1].url, "/courses", since, 2000), watch(servers[1].url, `/courses/${slug}`, since, 2000)]);
    for (const [answers, gone] of [
      [lists, (x: Answer) => !x.html.includes(SECOND)],
      [pages, (x: Answer) => x.status === 404],
    ] as const) {
      expect(answers.filter((x) => x.cache === "stale")).toEqual([]);
      const first = answers.findIndex(gone);
      expect(first).toBeGreaterThanOrEqual(0);
      expect(answers[first].at).toBeLessThan(1000);
      expect(answers.slice(first).every(gone)).toBe(true);
    }
  }, 30_000);
});

describe("the API's anonymous reads (switch at once on every change)", () => {
  it("show an edit on the writing instance at once, and on the other within its next look at the version, never a stale copy", async () => {
    const made = await write("POST", "/api/courses", { title: "Warming Course For The API", category: "beginner", description: "Read through the API." });
    const api = `/api/courses/${made.id}`;
    // Both instances have looked at the version since that create (a copy kept before would be a miss after).
    await new Promise((resolve) => setTimeout(resolve, 600));
    await cached(api);
    await cached("/api/courses");
    const title = "Warming Course Read At Once";
    const since = Date.now();
    await write("PUT", api, { title, category: "beginner", description: "Read through the API." });
    const mine = await visit(servers[0].url, api, since);
    expect(mine.cache).not.toBe("stale");
    expect(mine.html).toContain(title);
    expect((await visit(servers[0].url, "/api/courses", since)).html).toContain(title);
    const [one, list] = await Promise.all([watch(servers[1].url, api, since, 1500), watch(servers[1].url, "/api/courses", since, 1500)]);
    for (const answers of [one, list]) {
      expect(answers.filter((x) => x.cache === "stale")).toEqual([]);
      const first = answers.findIndex((x) => x.html.includes(title));
      expect(first).toBeGreaterThanOrEqual(0);
      // Its next look at the database comes within POLL_MS (250 ms); the rest is this busy machine's slack.
      expect(answers[first].at).toBeLessThan(1000);
      expect(answers.slice(first).every((x) => x.html.includes(title))).toBe(true);
    }
  }, 30_000);
});
