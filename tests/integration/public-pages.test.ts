import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb } from "~db/client.server";
import { seedDemo } from "../../server/seed";
import { FALLBACK_COURSE_TITLES } from "~/config/site";
import { loader as homeLoader } from "~/routes/_site._index";
import { loader as courseLoader } from "~/routes/_site.courses.$slug";
import { loader as coursesLoader } from "~/routes/_site.courses._index";
import { loader as enquiryLoader } from "~/routes/_site.enquiry";
import { loader as reviewsLoader } from "~/routes/_site.reviews";
import { loader as schedulesLoader } from "~/routes/_site.schedules";
import { loader as robotsLoader } from "~/routes/robots[.]txt";
import { loader as sitemapLoader } from "~/routes/sitemap[.]xml";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";
import { callLoader, getRequest } from "./public-helpers";

// A fresh migrated database for this file (named apart from React hooks for the linter).
setupTestDatabase();
beforeAll(() => seedDemo(() => {}));

describe("/courses", () => {
  it("filters by ?category= and always shows every featured course", async () => {
    const { body } = await callLoader(coursesLoader, getRequest("/courses?category=intermediate"));
    expect(body.failed).toBe(false);
    expect(body.courses.map((c: { title: string }) => c.title)).toEqual(["Network Security Specialist", "Cloud Security Practitioner"]);
    expect(body.featured.map((c: { title: string }) => c.title)).toEqual(["SOC Analyst Training Program", "Penetration Testing and Ethical Hacking"]);
  });

  it("treats an unknown category as all courses", async () => {
    const { body } = await callLoader(coursesLoader, getRequest("/courses?category=expert"));
    expect(body.category).toBe("");
    expect(body.courses).toHaveLength(5);
  });

  it("opens the syllabus of ?syllabus=<slug> as sanitised HTML under the dialog's heading", async () => {
    const { body } = await callLoader(coursesLoader, getRequest("/courses?syllabus=soc-analyst-training-program"));
    expect(body.syllabus.title).toBe("SOC Analyst Training Program");
    expect(body.syllabus.html).toContain("<h3>SOC Analyst Training Program: syllabus</h3>");
    expect(body.syllabus.html).toContain("<li>Log ingestion and parsing</li>");
    expect(body.syllabus.html).not.toContain("<h1>");
  });

  it("gives an empty syllabus for a course without one (the page says it will be available soon)", async () => {
    const { body } = await callLoader(coursesLoader, getRequest("/courses?syllabus=cloud-security-practitioner"));
    expect(body.syllabus).toMatchObject({ title: "Cloud Security Practitioner", html: "" });
  });

  it("does not send each course's whole syllabus with the list", async () => {
    const { body } = await callLoader(coursesLoader, getRequest("/courses"));
    expect(body.courses[0]).not.toHaveProperty("syllabus");
  });
});

describe("/ (home)", () => {
  it("sends the cards' fields, not each course's whole syllabus", async () => {
    const { body } = await callLoader(homeLoader, getRequest("/"));
    expect(body.courses).toHaveLength(5);
    expect(body.courses[0]).not.toHaveProperty("syllabus");
    expect(body.courses[0]).not.toHaveProperty("syllabusFile");
    expect(JSON.stringify(body)).not.toContain("Log ingestion and parsing");
    expect(body.schedules.length).toBeGreaterThan(0);
  });
});

describe("/courses/:slug", () => {
  it("shows the course with its upcoming batches, soonest first", async () => {
    const { body } = await callLoader(courseLoader, getRequest("/courses/soc-analyst-training-program"), { slug: "soc-analyst-training-program" });
    expect(body.course.title).toBe("SOC Analyst Training Program");
    expect(body.batches.map((b: { mode: string }) => b.mode)).toEqual(["online", "offline", "hybrid"]);
  });

  it("answers 404 for an unknown slug", async () => {
    const out = await callLoader(courseLoader, getRequest("/courses/nope"), { slug: "nope" });
    expect(out.status).toBe(404);
  });
});

describe("/schedules", () => {
  it("lists hybrid batches under both online and offline", async () => {
    const online = (await callLoader(schedulesLoader, getRequest("/schedules?mode=online"))).body.batches as { mode: string }[];
    const offline = (await callLoader(schedulesLoader, getRequest("/schedules?mode=offline"))).body.batches as { mode: string }[];
    const all = (await callLoader(schedulesLoader, getRequest("/schedules"))).body.batches as { mode: string }[];
    expect(all).toHaveLength(8);
    expect(new Set(online.map((b) => b.mode))).toEqual(new Set(["online", "hybrid"]));
    expect(new Set(offline.map((b) => b.mode))).toEqual(new Set(["offline", "hybrid"]));
    expect(online.length + offline.length).toBe(all.length + 1);
  });
});

describe("/reviews", () => {
  it("shows approved reviews only, with the average of their ratings", async () => {
    const { body } = await callLoader(reviewsLoader, getRequest("/reviews"));
    const names = body.reviews.map((r: { name: string }) => r.name);
    expect(names).toHaveLength(6);
    expect(names).not.toContain("Ananya Iyer");
    expect(body.average).toBe(4.8);
  });

  it("filters by ?course= text", async () => {
    const { body } = await callLoader(reviewsLoader, getRequest("/reviews?course=Cloud"));
    expect(body.reviews.map((r: { name: string }) => r.name)).toEqual(["Vikram Rao"]);
  });
});

describe("/enquiry", () => {
  it("lists the courses from the database and preselects ?course= by title, whatever its case, and ?mode=", async () => {
    const { body } = await callLoader(enquiryLoader, getRequest("/enquiry?course=network%20security%20specialist&date=2027-01-05&mode=offline"));
    expect(body.courses).toHaveLength(5);
    expect(body.defaultCourse).toBe("Network Security Specialist");
    expect(body.batchDate).toBe("2027-01-05");
    expect(body.defaultMode).toBe("offline");
  });

  it("ignores a course, a date or a mode it does not know", async () => {
    const { body } = await callLoader(enquiryLoader, getRequest("/enquiry?course=<b>x</b>&date=tomorrow&mode=boat"));
    expect(body.defaultCourse).toBeUndefined();
    expect(body.defaultMode).toBeUndefined();
    expect(body.batchDate).toBeNull();
  });
});

describe("search engine files", () => {
  it("lists every public page and course in the sitemap", async () => {
    const { body, headers } = await callLoader(sitemapLoader, getRequest("/sitemap.xml"));
    expect(headers.get("content-type")).toContain("application/xml");
    for (const path of ["/", "/about", "/courses", "/schedules", "/reviews", "/enquiry", "/contact", "/courses/cloud-security-practitioner"]) {
      expect(body).toContain(`<loc>http://localhost:3000${path}</loc>`);
    }
  });

  it("keeps crawlers out of /admin and /api", async () => {
    const { body } = await callLoader(robotsLoader, getRequest("/robots.txt"));
    expect(body).toContain("Disallow: /admin");
    expect(body).toContain("Disallow: /api");
    expect(body).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });
});

describe("when the database cannot be read", () => {
  const log = console.error;
  beforeAll(async () => {
    await closeDb();
    // The loaders log each failure; keep the test output readable.
    console.error = () => {};
  });
  afterAll(async () => {
    console.error = log;
    await openDb(process.env.DATABASE_URL!);
  });

  // The pages render their Try Again state, under 503 so search engines and caches do not keep it.
  it("/courses reports the failure (the page shows Try Again)", async () => {
    const out = await callLoader(coursesLoader, getRequest("/courses"));
    expect(out.body).toMatchObject({ failed: true, courses: [] });
    expect(out.status).toBe(503);
    expect(out.headers.get("Retry-After")).toBe("5");
  });

  it("/schedules reports the failure", async () => {
    const out = await callLoader(schedulesLoader, getRequest("/schedules?mode=online"));
    expect(out.body).toMatchObject({ failed: true, mode: "online" });
    expect(out.status).toBe(503);
  });

  it("/reviews reports the failure and falls back to sample reviews", async () => {
    const { body, status } = await callLoader(reviewsLoader, getRequest("/reviews"));
    expect(status).toBe(503);
    expect(body.failed).toBe(true);
    expect(body.reviews.length).toBeGreaterThan(0);
    // The rating shown is the site's figure (settings, or their defaults when the database is away), not an average.
    expect(body.average).toBeNull();
  });

  it("/reviews applies the course filter to the sample reviews too", async () => {
    const { body } = await callLoader(reviewsLoader, getRequest("/reviews?course=Network"));
    expect(body.failed).toBe(true);
    expect(body.reviews.map((r: { course: string }) => r.course)).toEqual(["Network Security Specialist"]);
    expect((await callLoader(reviewsLoader, getRequest("/reviews?course=Cloud"))).body.reviews).toEqual([]);
  });

  it("/enquiry falls back to the five fixed course titles", async () => {
    expect((await callLoader(enquiryLoader, getRequest("/enquiry"))).body.courses).toEqual([...FALLBACK_COURSE_TITLES]);
  });

  it("the home page hides the courses and schedules instead of failing", async () => {
    const out = await callLoader(homeLoader, getRequest("/"));
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ courses: null, schedules: null });
  });
});
