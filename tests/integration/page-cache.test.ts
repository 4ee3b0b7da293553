import fs from "node:fs";
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, apiClient, launchServer, startApiServer, type RunningServer, signInCookie } from "../helpers/api-server";

/**
 * The page cache (server/page-cache.ts) on the built server: repeat visits come from memory with a fresh CSP
 * nonce each time, a write (on this instance or another one on the same database) retires the cached pages at
 * once, and nothing personal is ever kept.
 */
// Every change switches at once here (the behaviour before warming, and still that of an unpublish or a delete):
// these tests read a write on the very next visit. Warming before switching: page-cache-warming-instances.test.ts.
const server = startApiServer({ PAGE_CACHE_GRACE_SECONDS: "0" });
const api = apiClient(server);
let admin = "";
let cookie = "";

const REVIEW = { position: "SOC Analyst", image: "https://example.com/photo.jpg", rating: 5 };
const nonceOf = (html: string) => /<script[^>]* nonce="([^"]+)"/.exec(html)?.[1];
const cspNonce = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers, redirect: "manual" });
  return { res, status: res.status, cache: res.headers.get("x-page-cache"), html: await res.text() };
}

beforeAll(async () => {
  admin = await api.login(ADMIN.email, ADMIN.password);
  cookie = await signInCookie(server.url);
});

describe("the page cache", () => {
  it("answers a repeat visit from memory, with a new nonce in the policy and the page each time", async () => {
    await page("/about?first");
    const one = await page("/about?first");
    const two = await page("/about?first");
    expect([one.cache, two.cache]).toEqual(["hit", "hit"]);
    const [n1, n2] = [nonceOf(one.html), nonceOf(two.html)];
    expect(n1).toBeTruthy();
    expect(n1).not.toBe(n2);
    expect(cspNonce(one.res)).toBe(n1);
    expect(cspNonce(two.res)).toBe(n2);
    // Nothing else differs, and the old nonce is nowhere in the new page.
    expect(two.html.replaceAll(n2!, "N")).toBe(one.html.replaceAll(n1!, "N"));
    expect(two.html).not.toContain(n1!);
  });

  it("sends a kept page gzipped without compressing it again: a valid stream carrying this answer's nonce", async () => {
    const raw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${server.url}/courses?gzip-check`, { headers: { "Accept-Encoding": encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    await raw("identity");
    const plain = await raw("identity");
    const zipped = await raw("gzip");
    expect([plain.headers["x-page-cache"], zipped.headers["x-page-cache"]]).toEqual(["hit", "hit"]);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    const html = gunzipSync(zipped.body).toString();
    const nonce = /'nonce-([^']+)'/.exec(String(zipped.headers["content-security-policy"]))![1];
    expect(nonceOf(html)).toBe(nonce);
    expect(html.replaceAll(nonce, "N")).toBe(plain.body.toString().replaceAll(nonceOf(plain.body.toString())!, "N"));
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
  });

  it("serves the public API reads and sitemap from memory too", async () => {
    for (const path of ["/api/courses", "/api/schedules?limit=5", "/api/reviews", "/sitemap.xml", "/robots.txt", "/courses.data"]) {
      await page(path);
      expect((await page(path)).cache, path).toBe("hit");
    }
  });

  it("answers 304 to If-None-Match, without a policy that would block the kept page's scripts", async () => {
    const first = await page("/courses");
    const etag = first.res.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"/);
    const again = await fetch(`${server.url}/courses`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("content-security-policy")).toBeNull();
    expect(await again.text()).toBe("");
    expect(first.res.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("shows a staff edit on the very next visit: courses, reviews and the seats of a batch", async () => {
    expect((await page("/courses")).html).not.toContain("Cache Busting Course");
    const course = await api.post("/api/courses", {
      token: admin,
      json: { title: "Cache Busting Course", category: "beginner", description: "A course made by the page cache test.", modes: ["online"] },
    });
    expect(course.status).toBe(201);
    const after = await page("/courses");
    expect(after.cache).toBe("miss");
    expect(after.html).toContain("Cache Busting Course");

    const schedule = await api.post("/api/schedules", {
      token: admin,
      json: {
        course: course.body.data.id,
        startDate: "2033-03-01",
        endDate: "2033-04-01",
        time: "7 PM",
        days: "Sat",
        mode: "online",
        location: "Online",
        totalSeats: 1,
      },
    });
    expect(schedule.status).toBe(201);
    const before = (await page("/schedules")).html;
    expect(before).toContain("Mar 1, 2033");
    await page("/schedules");
    expect((await page("/schedules")).cache).toBe("hit");
    // Enrolling takes the last seat: the card says so at once.
    const lead = await api.post("/api/enquiries", {
      json: { fullName: "Seat Taker", email: "seat.taker@example.com", phone: "9876501234", preferredCourse: "Cache Busting Course", preferredMode: "online" },
    });
    await api.put(`/api/enquiries/${lead.body.data.id}`, {
      token: admin,
      json: {
        fullName: "Seat Taker",
        email: "seat.taker@example.com",
        phone: "9876501234",
        preferredCourse: "Cache Busting Course",
        preferredMode: "online",
        scheduleId: schedule.body.data.id,
      },
    });
    expect((await api.put(`/api/enquiries/${lead.body.data.id}/status`, { token: admin, json: { status: "enrolled" } })).status).toBe(200);
    const full = (await page("/schedules")).html;
    const card = full.slice(full.lastIndexOf("<article", full.indexOf("Mar 1, 2033")), full.indexOf("</article>", full.indexOf("Mar 1, 2033")));
    expect(card).toContain("This batch is full");

    const review = await api.post("/api/reviews", {
      token: admin,
      json: { ...REVIEW, name: "Cache Reviewer", course: "Cache Busting Course", review: "Approved right away by the cache test.", approved: true },
    });
    expect(review.status).toBe(201);
    expect((await page("/reviews")).html).toContain("Cache Reviewer");
  });

  it("never keeps what staff see, a form's result, an error page or a flash", async () => {
    // A review waiting for approval: staff see it in the API list, visitors never do.
    const pending = await api.post("/api/reviews", {
      token: admin,
      json: { ...REVIEW, name: "Pending Secret", course: "SOC Analyst Training Program", review: "Staff-only until approved.", approved: false },
    });
    expect(pending.status).toBe(201);
    const staffList = await api.get("/api/reviews?status=pending", { token: admin });
    expect(staffList.text).toContain("Pending Secret");
    expect(staffList.headers.get("x-page-cache")).toBeNull();
    const withCookie = await page("/api/reviews?status=pending", { Cookie: cookie });
    expect(withCookie.cache).toBeNull();
    const anonymous = await page("/api/reviews?status=pending");
    expect(anonymous.html).not.toContain("Pending Secret");
    // React Router's cookie parser trims names, so "__session =…" is the staff session to the route; a cookie
    // header that mentions the session in any spelling is never answered from, or stored in, the cache.
    const value = cookie.slice(cookie.indexOf("=") + 1);
    for (const spelt of [`__session =${value}`, ` __session\t=${value}`, `x=1;__session =${value}`]) {
      const spaced = await page("/api/reviews?status=pending&spelt", { Cookie: spelt });
      expect(spaced.cache, spelt).toBeNull();
      expect((await page("/api/reviews?status=pending&spelt")).html, spelt).not.toContain("Pending Secret");
    }

    // A signed-in visit to a public page is rendered for them and not kept.
    const staffHome = await page("/?staff", { Cookie: cookie });
    expect(staffHome.cache).toBeNull();
    expect((await page("/?staff")).cache).toBe("miss");

    // A contact form sent without JavaScript, with a mistake: its messages are that visitor's only.
    const posted = await fetch(`${server.url}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ name: "Form Result Person", email: "not-an-email", subject: "Hi", message: "Hello there" }),
    });
    expect(await posted.text()).toContain("Form Result Person");
    expect((await page("/contact")).html).not.toContain("Form Result Person");

    // A 404 is rendered every time.
    await page("/courses/no-such-course");
    expect((await page("/courses/no-such-course")).cache).toBe("miss");
  });
});

describe("HEAD", () => {
  it("answers a page not yet kept with the headers GET sends (Cache-Control, ETag), and keeps the page", async () => {
    const head = await fetch(`${server.url}/about?head-check=1`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-page-cache")).toBe("miss");
    expect(await head.text()).toBe("");
    const get = await page("/about?head-check=1");
    expect(get.cache).toBe("hit");
    for (const name of ["cache-control", "etag", "content-type"]) expect(head.headers.get(name), name).toBe(get.res.headers.get(name));
    expect(head.headers.get("etag")).toMatch(/^W\/"/);
  });
});

describe("a link's tracking parameters", () => {
  it("are read for the lead source, then dropped: every ad click shares the page's one kept copy", async () => {
    const first = await page("/contact?tracking-check=1&fbclid=CLICK-ONE&utm_source=fb-ads&utm_campaign=diwali");
    const second = await page("/contact?tracking-check=1&fbclid=CLICK-TWO&utm_source=fb-ads&utm_campaign=diwali");
    expect(second.cache).toBe("hit");
    for (const visit of [first, second]) {
      // Each visitor still gets their own lead-source cookie, from a kept page too.
      expect(visit.res.headers.getSetCookie().find((c) => c.startsWith("lead_src="))).toBeTruthy();
      expect(visit.html).not.toMatch(/CLICK-|utm_|fb-ads/);
      expect(visit.html).toContain('action="/contact?tracking-check=1#contact-form-panel"');
    }
    // The address without the tags is the same kept page, and other parameters keep their exact bytes.
    expect((await page("/contact?tracking-check=1")).cache).toBe("hit");
    await page("/courses?category=beginner&tracking-check=%20x");
    expect((await page("/courses?gclid=G1&category=beginner&srsltid=S1&tracking-check=%20x")).cache).toBe("hit");
  });
});

describe("several instances on one database", () => {
  let second: RunningServer | undefined;
  afterAll(async () => {
    await second?.stop();
  });

  it("see each other's writes within a second", async () => {
    if (process.env.TEST_MYSQL_URL === undefined) expect(fs.existsSync(server.databaseUrl.replace(/^file:/, ""))).toBe(true);
    second = await launchServer({ databaseUrl: server.databaseUrl, uploadDir: server.uploadDir });
    const other = `${second.url}/courses?second`;
    await fetch(other);
    expect((await fetch(other)).headers.get("x-page-cache")).toBe("hit");
    const made = await api.post("/api/courses", {
      token: admin,
      json: { title: "Made On The First Instance", category: "beginner", description: "Seen by the second one within a second.", modes: ["online"] },
    });
    expect(made.status).toBe(201);
    const start = Date.now();
    let seen = false;
    while (!seen && Date.now() - start < 3000) {
      seen = (await (await fetch(other)).text()).includes("Made On The First Instance");
      if (!seen) await new Promise((r) => setTimeout(r, 25));
    }
    expect(seen).toBe(true);
    expect(Date.now() - start).toBeLessThan(1000);
  });
});

describe("PAGE_CACHE_MB", () => {
  const small = startApiServer({ PAGE_CACHE_MB: "1" });
  it("bounds the memory: a flood of query strings pushes out the least recently used pages", async () => {
    // A home page is about 90 KB, so 1 MB holds about ten.
    const visit = async (i: number) => (await fetch(`${small.url}/?flood=${i}`)).headers.get("x-page-cache");
    for (let i = 0; i < 30; i++) expect(await visit(i)).toBe("miss");
    expect(await visit(29)).toBe("hit");
    expect(await visit(0)).toBe("miss");
  });
});

describe("PAGE_CACHE=off", () => {
  const plain = startApiServer({ PAGE_CACHE: "off" });
  it("renders every visit", async () => {
    await fetch(`${plain.url}/`);
    const res = await fetch(`${plain.url}/`);
    expect(res.headers.get("x-page-cache")).toBeNull();
    expect(res.headers.get("etag")).toBeNull();
  });
});
