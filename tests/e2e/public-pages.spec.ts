import { expect, test } from "./fixtures";
import { type Page } from "@playwright/test";

/** Each public route renders its spec content (spec §1, §2), filters work through the URL, with and without JavaScript. */

const COURSES = [
  "SOC Analyst Training Program",
  "Cybersecurity Fundamentals",
  "Penetration Testing and Ethical Hacking",
  "Network Security Specialist",
  "Cloud Security Practitioner",
];

async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((b) => JSON.parse(b));
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("home: every section, the five anchors and the first featured course with at most 4 highlights", async ({ page }) => {
      const response = await page.goto("/");
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("SOC Analyst");
      for (const id of ["about-section", "courses-section", "schedules-section", "enquiry-section", "contact-section"])
        await expect(page.locator(`#${id}`)).toHaveCount(1);
      for (const stat of ["5000+", "10+", "100%", "24/7"]) await expect(page.getByText(stat, { exact: true })).toBeVisible();
      for (const reason of [
        "Proven Track Record",
        "Specialised SOC Training",
        "End-to-End Job Support",
        "24/7 Support via Messaging Apps",
        "Continuous Learning",
        "Industry-Professional Trainers",
        "Internship for Freshers",
      ]) {
        await expect(page.getByRole("heading", { name: reason })).toBeVisible();
      }
      await expect(page.locator("#about-section")).toContainText("7-day money-back");
      // The three static testimonials of spec §1, five stars each, with the way to every review.
      await expect(page.getByRole("heading", { name: "What our students say" })).toBeVisible();
      await expect(page.getByRole("list", { name: "Student testimonials" }).getByRole("img", { name: "Rated 5 out of 5" })).toHaveCount(3);
      await expect(page.getByRole("link", { name: /Read more student success stories/ })).toHaveAttribute("href", "/reviews");
      await expect(page.getByText("Every course includes")).toBeVisible();
      const featured = page.locator("article", { hasText: "Featured Program" });
      await expect(featured).toHaveCount(1);
      await expect(featured.getByRole("heading", { name: "SOC Analyst Training Program" })).toBeVisible();
      await expect(featured.locator("li")).toHaveCount(4);
      // The featured course once; every other course one linked row (issue 27: a shorter home page).
      for (const title of COURSES.slice(1)) await expect(page.getByTestId("course-list").getByRole("link", { name: title, exact: true })).toBeVisible();
      await expect(page.getByTestId("course-list").getByRole("link", { name: COURSES[0], exact: true })).toHaveCount(0);
      // On the home page the header and hero buttons jump to the sections.
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link", { name: "About Us" })).toHaveAttribute("href", "#about-section");
      await expect(nav.getByRole("link", { name: "Contact" })).toHaveAttribute("href", "#contact-section");
      await expect(page.getByRole("banner").getByRole("link", { name: "Enroll Now" })).toHaveAttribute("href", "#enquiry-section");
      await expect(page.getByRole("link", { name: "Explore Courses" })).toHaveAttribute("href", "#courses-section");
      await expect(page.getByRole("main").getByRole("link", { name: "Contact Us", exact: true })).toHaveAttribute("href", "#contact-section");
    });

    test("home: the schedules filter works through ?mode= and keeps the anchor", async ({ page }) => {
      await page.goto("/");
      await page.getByRole("navigation", { name: "Filter batches by mode" }).getByRole("link", { name: "Offline" }).click();
      await expect(page).toHaveURL(/\/\?mode=offline#schedules-section$/);
      await expect(page.getByRole("navigation", { name: "Filter batches by mode" }).getByRole("link", { name: "Offline" })).toHaveAttribute(
        "aria-current",
        "true",
      );
      // The next three of the four (issue 27: the home page shows three and links to all).
      await expect(page.locator("#schedules-section").getByTestId("batch")).toHaveCount(3);
      const modes = await page.locator("#schedules-section [data-testid=batch] span.rounded-full:first-child").allTextContents();
      expect(modes.length).toBeGreaterThan(0);
      // Hybrid batches show under Offline too (DESIGN.md §4.4); which of them are the next three depends on the dates.
      expect(modes.every((m) => ["Offline", "Hybrid"].includes(m))).toBe(true);
    });

    test("elsewhere the header links navigate, the active one is marked, and the footer has the spec's links", async ({ page }) => {
      await page.goto("/schedules");
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link", { name: "Schedules" })).toHaveAttribute("aria-current", "page");
      await expect(nav.getByRole("link", { name: "About Us" })).toHaveAttribute("href", "/about");
      await expect(page.getByRole("banner").getByRole("link", { name: "Enroll Now" })).toHaveAttribute("href", "/enquiry");
      const footer = page.getByRole("contentinfo");
      for (const [name, href] of [
        ["Home", "/"],
        ["About Us", "/about"],
        ["Courses", "/courses"],
        ["Contact", "/contact"],
      ]) {
        await expect(footer.getByRole("navigation", { name: "Quick Links" }).getByRole("link", { name })).toHaveAttribute("href", href);
      }
      await expect(footer).toContainText("Hyderabad");
      await expect(footer.locator('a[href^="mailto:"]')).toHaveCount(1);
      await expect(footer.locator('a[href^="tel:"]')).toHaveCount(1);
      for (const s of ["YouTube", "Instagram", "LinkedIn"]) await expect(footer.getByRole("link", { name: `CyberSOC Academy on ${s}` })).toBeVisible();
      await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
      await expect(page.getByRole("link", { name: "Chat with us on WhatsApp" })).toHaveAttribute("href", /^https:\/\/wa\.me\/\d+/);
    });

    test("/about: mission, vision, four core values, three testimonials and Apply Now", async ({ page }) => {
      await page.goto("/about");
      for (const h of ["Our Mission", "Our Vision", "Excellence", "Innovation", "Integrity", "Community"])
        await expect(page.getByRole("heading", { name: h, exact: true })).toBeVisible();
      await expect(page.getByRole("img", { name: "Rated 5 out of 5" })).toHaveCount(3);
      await expect(page.getByRole("link", { name: "Apply Now" })).toHaveAttribute("href", "/enquiry");
    });

    test("/courses: featured programs, the grid, the ?category= filter and the calls to action", async ({ page }) => {
      await page.goto("/courses");
      await expect(page.getByRole("heading", { name: "Featured Programs" })).toBeVisible();
      await expect(page.locator("article", { hasText: "Featured Program" })).toHaveCount(2);
      await expect(page.getByTestId("course-grid").locator("article")).toHaveCount(5);
      await page.getByRole("navigation", { name: "Filter courses by level" }).getByRole("link", { name: "Advanced" }).click();
      await expect(page).toHaveURL(/\/courses\?category=advanced#filters$/);
      await expect(page.getByTestId("course-grid").locator("article")).toHaveCount(1);
      await expect(page.getByTestId("course-grid")).toContainText("Penetration Testing and Ethical Hacking");
      await expect(page.getByRole("navigation", { name: "Filter courses by level" }).getByRole("link", { name: "Advanced" })).toHaveAttribute(
        "aria-current",
        "true",
      );
      await expect(page.getByRole("main").getByRole("link", { name: "Enroll Now", exact: true })).toHaveAttribute("href", "/enquiry");
      await expect(page.getByRole("main").getByRole("link", { name: "View Schedules" })).toHaveAttribute("href", "/schedules");
    });

    test("/courses/:slug: the course page with its batches", async ({ page }) => {
      await page.goto("/courses/network-security-specialist");
      await expect(page.getByRole("heading", { level: 1, name: "Network Security Specialist" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Upcoming batches" })).toBeVisible();
      await expect(page.getByTestId("batch")).toHaveCount(1);
      await expect(page.getByText("Firewalls", { exact: true })).toBeVisible();
    });

    test("/schedules: ?mode= filter (hybrid under both), seat bar, Limited Seats!, FAQ and Contact Us", async ({ page }) => {
      await page.goto("/schedules");
      await expect(page.getByTestId("batch")).toHaveCount(8);
      // The batch with 6 of 30 seats left: red, Limited Seats!, bar filled to (30 - 6) / 30.
      const limited = page.getByTestId("batch").filter({ hasText: "6 of 30 seats left" });
      await expect(limited.getByText("Limited Seats!")).toBeVisible();
      await expect(limited.locator(".seat-bar")).toHaveAttribute("style", /width: ?80%/);
      await expect(limited.locator(".seat-bar")).toHaveClass(/bg-red-600/);
      const roomy = page.getByTestId("batch").filter({ hasText: "24 of 30 seats left" });
      await expect(roomy.getByText("Limited Seats!")).toHaveCount(0);
      await expect(roomy.locator(".seat-bar")).toHaveAttribute("style", /width: ?20%/);
      await expect(page.getByText("Limited Seats!")).toHaveCount(2);
      await expect(limited.getByRole("link", { name: /Enroll now/i })).toHaveAttribute(
        "href",
        /^\/enquiry\?course=SOC\+Analyst\+Training\+Program&date=\d{4}-\d{2}-\d{2}&mode=(online|offline|hybrid)$/,
      );

      await page.getByRole("navigation", { name: "Filter batches by mode" }).getByRole("link", { name: "Online" }).click();
      await expect(page).toHaveURL(/\/schedules\?mode=online#filters$/);
      await expect(page.getByTestId("batch")).toHaveCount(5);
      await page.goto("/schedules?mode=offline");
      await expect(page.getByTestId("batch")).toHaveCount(4);
      await expect(page.getByTestId("batch").filter({ hasText: "Hybrid" })).toHaveCount(1);

      await expect(page.getByRole("heading", { name: "Frequently asked questions" })).toBeVisible();
      const question = page.locator("summary", { hasText: "What happens if I miss a class?" });
      await question.click();
      await expect(page.getByText("Every live session is recorded")).toBeVisible();
      await expect(page.getByRole("main").getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
    });

    test("/reviews: Student Success Stories, stat cards, ?course= filter buttons, approved reviews only", async ({ page }) => {
      await page.goto("/reviews");
      await expect(page.getByRole("heading", { level: 1, name: "Student Success Stories" })).toBeVisible();
      // The rating every page shows (the site settings; the dashboard warns when the reviews average less).
      await expect(page.getByText("4.9/5")).toBeVisible();
      await expect(page.getByText("98%")).toBeVisible();
      await expect(page.getByText("92%")).toBeVisible();
      await expect(page.getByRole("figure")).toHaveCount(6);
      await expect(page.getByText("Ananya Iyer")).toHaveCount(0);
      const filters = page.getByRole("navigation", { name: "Filter reviews by course" });
      for (const label of ["All Reviews", "SOC Analyst", "Fundamentals", "Penetration Testing", "Network", "Cloud"])
        await expect(filters.getByRole("link", { name: label, exact: true })).toBeVisible();
      await filters.getByRole("link", { name: "Penetration Testing" }).click();
      await expect(page).toHaveURL(/\/reviews\?course=Penetration%20Testing#filters$/);
      await expect(page.getByRole("figure")).toHaveCount(1);
      await expect(page.getByRole("figure")).toContainText("Fatima Khan");
      await page.goto("/reviews?course=Fundamentals");
      await expect(page.getByRole("figure")).toHaveCount(1);
      await expect(page.getByText("No reviews found for the selected course.")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Submit Your Testimonial" })).toHaveAttribute("href", "/contact");
    });

    test("/enquiry: the course dropdown comes from the database", async ({ page }) => {
      await page.goto("/enquiry?course=SOC%20Analyst%20Training%20Program");
      const select = page.getByLabel("Preferred Course");
      await expect(select).toHaveValue("SOC Analyst Training Program");
      await expect(select.locator("option")).toHaveText(["Select a course", ...COURSES]);
      await expect(page.getByLabel("Preferred Mode").locator("option")).toHaveCount(4);
      await expect(page.locator("form#enquiry-page-form")).toHaveAttribute("enctype", "multipart/form-data");
    });

    test("/contact: details, lazy map, WhatsApp and social links, the form", async ({ page }) => {
      await page.goto("/contact");
      await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
      await expect(page.locator("iframe")).toHaveAttribute("loading", "lazy");
      await expect(page.locator("iframe")).toHaveAttribute("title", /Map/);
      await expect(page.getByRole("main").getByRole("link", { name: "Chat on WhatsApp" }).first()).toHaveAttribute("href", /wa\.me/);
      for (const s of ["YouTube", "Instagram", "LinkedIn"])
        await expect(page.getByRole("main").getByRole("link", { name: `CyberSOC Academy on ${s}` })).toBeVisible();
      await expect(page.getByRole("main")).toContainText("Mon-Fri");
      await expect(page.getByRole("button", { name: "Send Message" })).toBeVisible();
    });

    test("unknown paths: Page Not Found with Back to Home, status 404, inside the public shell", async ({ page }) => {
      const response = await page.goto("/courses/no-such-course");
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
      await expect(page.getByRole("main").getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(page).toHaveTitle("Page Not Found");
    });
  });
}

test.describe("syllabus modal", () => {
  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("?syllabus=<slug> renders the dialog open, and its close link returns to the list", async ({ page }) => {
      await page.goto("/courses?category=beginner&syllabus=soc-analyst-training-program");
      const dialog = page.getByRole("dialog", { name: "SOC Analyst Training Program" });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("heading", { name: "Module 2: SIEM operations" })).toBeVisible();
      await dialog.getByRole("link", { name: "Close syllabus" }).click();
      await expect(page).toHaveURL(/\/courses\?category=beginner$/);
      await expect(page.getByRole("dialog")).toHaveCount(0);
    });

    test("a course without a syllabus says it will be available soon", async ({ page }) => {
      await page.goto("/courses?syllabus=cloud-security-practitioner");
      await expect(page.getByRole("dialog").getByText("Detailed syllabus will be available soon.")).toBeVisible();
    });
  });

  test("with JavaScript it is a modal dialog: focus moves in, Escape closes, focus returns to its button", async ({ page }) => {
    await page.goto("/courses");
    const trigger = page.getByTestId("course-grid").getByRole("link", { name: "View syllabus: Network Security Specialist" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/courses\?syllabus=network-security-specialist$/);
    const dialog = page.getByRole("dialog", { name: "Network Security Specialist" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Close syllabus" })).toBeFocused();
    expect(await dialog.evaluate((d) => d.matches(":modal"))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(/\/courses$/);
    await expect(trigger).toBeFocused();

    await page.getByTestId("course-grid").getByRole("link", { name: "View syllabus: Cybersecurity Fundamentals" }).click();
    await expect(page.getByRole("dialog", { name: "Cybersecurity Fundamentals" })).toBeVisible();
    await page.getByRole("link", { name: "Close syllabus" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});

test("home page links land each section just below the fixed header", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await page.goto("/", { waitUntil: "networkidle" });
  for (const [label, id] of [
    ["Contact", "contact-section"],
    ["Schedules", "schedules-section"],
    ["About Us", "about-section"],
    ["Enquiry", "enquiry-section"],
  ]) {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`#${id}$`));
    // Smooth scrolling takes a moment; the section ends up right under the 64 px header.
    await expect
      .poll(() => page.evaluate((i) => Math.round(document.getElementById(i)!.getBoundingClientRect().top), id), { timeout: 5000 })
      .toBeGreaterThanOrEqual(60);
    await expect
      .poll(() => page.evaluate((i) => Math.round(document.getElementById(i)!.getBoundingClientRect().top), id), { timeout: 5000 })
      .toBeLessThanOrEqual(80);
  }
  // Jumping around the page is not using a form: the forms' code stays unloaded (lazy-forms, use-section-jumps).
  expect(scripts.filter((url) => /\/assets\/(contact|enquiry)-form-/.test(url))).toEqual([]);
  await page.goBack();
  expect(page.url()).not.toContain("#");
});

test.describe("header", () => {
  test("transparent at the top, white with a shadow after more than 20 px of scroll", async ({ page }) => {
    await page.goto("/about");
    const header = page.getByRole("banner");
    await expect(header).toHaveAttribute("data-scrolled", "false");
    expect(await header.evaluate((h) => getComputedStyle(h).backgroundColor)).toBe("rgba(0, 0, 0, 0)");
    await page.evaluate(() => window.scrollTo(0, 20));
    await expect(header).toHaveAttribute("data-scrolled", "false");
    await page.evaluate(() => window.scrollTo(0, 300));
    await expect(header).toHaveAttribute("data-scrolled", "true");
    await expect.poll(() => header.evaluate((h) => getComputedStyle(h).backgroundColor)).toBe("rgb(255, 255, 255)");
    expect(await header.evaluate((h) => getComputedStyle(h).boxShadow)).not.toBe("none");
    expect(await header.evaluate((h) => getComputedStyle(h).position)).toBe("fixed");
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).toHaveAttribute("data-scrolled", "false");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("still turns white on scroll (CSS scroll-driven fallback)", async ({ page }) => {
      await page.goto("/about");
      const header = page.getByRole("banner");
      expect(await header.evaluate((h) => getComputedStyle(h).backgroundColor)).toBe("rgba(0, 0, 0, 0)");
      await page.evaluate(() => window.scrollTo(0, 300));
      await expect.poll(() => header.evaluate((h) => getComputedStyle(h).backgroundColor)).toBe("rgb(255, 255, 255)");
    });
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`mobile menu at 375 px, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ viewport: { width: 375, height: 740 }, javaScriptEnabled });
    test("opens from the toggle, navigates, and nothing overflows sideways", async ({ page }) => {
      for (const path of ["/", "/about", "/courses", "/schedules", "/reviews", "/enquiry", "/contact"]) {
        await page.goto(path);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
      }
      await page.goto("/about");
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      const mobile = page.getByRole("navigation", { name: "Mobile" });
      await expect(mobile).toBeHidden();
      await page.locator("summary", { hasText: "Menu" }).click();
      await expect(mobile).toBeVisible();
      await expect(mobile.getByRole("link", { name: "About Us" })).toHaveAttribute("aria-current", "page");
      await mobile.getByRole("link", { name: "Schedules" }).click();
      await expect(page).toHaveURL(/\/schedules$/);
      await expect(page.getByRole("heading", { level: 1, name: "Upcoming Batches" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
    });
  });
}

test("search engines: title, description, canonical, Open Graph and JSON-LD", async ({ page, request }) => {
  await page.goto("/?mode=online");
  await expect(page).toHaveTitle(/CyberSOC Academy/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /SOC Analyst/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/images\/og-cover\.png$/);
  expect((await jsonLd(page)).map((b) => b["@type"])).toContain("EducationalOrganization");
  expect((await request.get("/images/og-cover.png")).status()).toBe(200);

  await page.goto("/courses/soc-analyst-training-program");
  await expect(page).toHaveTitle("SOC Analyst Training Program | CyberSOC Academy");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/courses\/soc-analyst-training-program$/);
  const blocks = await jsonLd(page);
  type Ld = { offers: { category: string }[]; hasCourseInstance: { courseMode: string; courseSchedule: object }[]; itemListElement: { name: string }[] };
  const course = blocks.find((b) => b["@type"] === "Course") as Record<string, unknown> & Ld;
  expect(course).toMatchObject({ name: "SOC Analyst Training Program", provider: { name: "CyberSOC Academy" } });
  expect(course.offers[0].category).toBe("Paid");
  expect(course.hasCourseInstance).toHaveLength(3);
  expect(course.hasCourseInstance.map((i: { courseMode: string }) => i.courseMode)).toEqual(["Online", "Onsite", "Blended"]);
  expect(course.hasCourseInstance[0].courseSchedule).toMatchObject({ duration: "PT2H", repeatFrequency: "Weekly" });
  const crumbs = blocks.find((b) => b["@type"] === "BreadcrumbList") as Ld;
  expect(crumbs.itemListElement.map((i: { name: string }) => i.name)).toEqual(["Home", "Courses", "SOC Analyst Training Program"]);

  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.headers()["content-type"]).toContain("xml");
  expect(await sitemap.text()).toContain("/courses/cloud-security-practitioner</loc>");
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain("Disallow: /admin");
  expect(robots).toContain("Disallow: /api");
});
