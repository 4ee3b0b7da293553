import type { Locator, Page } from "@playwright/test";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { expect, test, waitForHydration } from "./fixtures";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * What stays fixed on the screen never hides what a visitor must use (issue 27.7):
 * - the floating WhatsApp link covers no form field or button at 375 px, on every public page with a form and on
 *   a waitlist offer's Accept and Decline, with JavaScript off, on, and on with the scripts 6 s late; it lives in
 *   a landmark (the footer);
 * - the staff Preview banner of an unpublished course sits above the site header, neither covering the other.
 * Its own server (offset 30) with a real SMTP server, for a real offer e-mail.
 */
const OFFSET = 30;
let server: TestServer;
let smtp: SmtpSink;
let token = "";
let offerLink = "";
let draftSlug = "";
const SHOTS = process.env.FIXED_SHOTS_DIR ?? "";

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpSink();
  server = await startServer(OFFSET, { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>" });
  token = (
    await (await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) })).json()
  ).token;

  // A waitlist offer: a full batch, one enquiry waiting, then a seat more.
  const course = (await api("GET", "/api/courses")).body.data[0];
  const batch = {
    course: course.id,
    startDate: "2033-03-03",
    endDate: "2033-04-30",
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    totalSeats: 1,
  };
  const batchId = (await api("POST", "/api/schedules", batch)).body.data.id;
  // Its one seat taken by an enrolment (seats are counted, never set), so the next enquiry joins the waitlist.
  const taker = await api("POST", "/api/enquiries", {
    fullName: "Seat Holder",
    email: `holder.${Date.now()}@example.com`,
    phone: "9812345671",
    preferredCourse: course.title,
    preferredMode: "online",
    batchDate: batch.startDate,
  });
  expect((await api("PUT", `/api/enquiries/${taker.body.data.id}/status`, { status: "enrolled" })).status).toBe(200);
  const email = `fixed.${Date.now()}@example.com`;
  const joined = await fetch(`${server.url}/api/enquiries`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      fullName: "Fixed Elements",
      email,
      phone: "9812345670",
      preferredCourse: course.title,
      preferredMode: "online",
      batchDate: batch.startDate,
    }),
  });
  expect(joined.status).toBe(201);
  expect((await api("PUT", `/api/schedules/${batchId}`, { ...batch, totalSeats: 2 })).status).toBe(200);
  const [mail] = await smtp.waitFor((m) => m.envelope.to.includes(email) && /A seat is free for you/.test(m.parsed.subject ?? ""), 1, 30_000);
  offerLink = /https?:\/\/\S+\/waitlist\/offer\?token=[\w%-]+/.exec(mail.parsed.text ?? "")![0];

  // A draft course, for the preview.
  const draft = await api("POST", "/api/courses", {
    title: `Draft Preview ${Date.now()}`,
    category: "advanced",
    description: "A course staff are still writing: only they see it, with the Preview banner.",
    state: "draft",
  });
  expect(draft.status).toBe(201);
  draftSlug = draft.body.data.slug;
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The WhatsApp link's box when it shows (null when it has stepped aside or is not there). */
async function floatBox(page: Page): Promise<Box | null> {
  const link = page.getByRole("link", { name: "Chat with us on WhatsApp" });
  if (!(await link.isVisible())) return null;
  // It may step aside (leave the page) between the two reads: then it covers nothing, instead of waiting for it.
  return link.boundingBox({ timeout: 2_000 }).catch(() => null);
}

/**
 * Every visible form control and button of the page, scrolled into view one after the other as a visitor (or a
 * checker) would: at no point may the floating link's box overlap the control's. Measured at once after the scroll.
 */
async function expectNothingCovered(page: Page, label: string, hasForm: boolean) {
  const controls = page.locator("main :is(input:not([type=hidden]), select, textarea, button, [role=button])");
  const count = await controls.count();
  let checked = 0;
  const covered: string[] = [];
  for (let i = 0; i < count; i++) {
    const control: Locator = controls.nth(i);
    if (!(await control.isVisible())) continue;
    await control.scrollIntoViewIfNeeded();
    const [box, float] = [await control.boundingBox(), await floatBox(page)];
    checked++;
    if (box && float && overlap(box, float)) covered.push(`${await control.evaluate((e) => e.outerHTML.slice(0, 100))} at ${JSON.stringify(box)}`);
  }
  if (hasForm) expect(checked, `${label}: controls checked`).toBeGreaterThan(0);
  expect(covered, `${label}: controls under the WhatsApp link ${JSON.stringify(await floatBox(page))}`).toEqual([]);
}

/** Pages with a form; the others are checked for their buttons (a course's syllabus, a batch's actions) as well. */
const FORM_PAGES = ["/", "/enquiry", "/contact"];
const OTHER_PAGES = ["/courses", "/courses/soc-analyst-training-program", "/schedules", "/reviews", "/about"];

for (const mode of ["off", "on", "slow"] as const) {
  test.describe(`375 px, JavaScript ${mode === "slow" ? "on, scripts 6 s late" : mode}`, () => {
    test.use({ javaScriptEnabled: mode !== "off", viewport: { width: 375, height: 667 } });

    test.beforeEach(async ({ page }) => {
      if (mode === "slow") {
        await page.route(/\/assets\/.*\.js$/, async (route) => {
          await new Promise((r) => setTimeout(r, 6_000));
          await route.continue().catch(() => {});
        });
      }
    });

    test("the WhatsApp link is in the footer's landmark and covers no field or button", async ({ page }) => {
      test.setTimeout(180_000);
      const offer = offerLink.replace(/^https?:\/\/[^/]+/, "");
      for (const path of [...FORM_PAGES, offer, ...OTHER_PAGES]) {
        await page.goto(`${server.url}${path}`, { waitUntil: mode === "slow" ? "commit" : "load" });
        const link = page.getByRole("link", { name: "Chat with us on WhatsApp" });
        await expect(link).toHaveCount(1);
        await expect(page.getByRole("contentinfo").getByRole("link", { name: "Chat with us on WhatsApp" })).toHaveCount(1);
        await expectNothingCovered(page, path, FORM_PAGES.includes(path) || path === offer);
        // At the end of the page it is there to be used (in the footer's flow before the scripts, floating after).
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await expect(link).toBeVisible();
      }
    });
  });
}

test.describe("375 px, JavaScript on", () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test("the WhatsApp link floats, steps aside over a control and comes back past it", async ({ page }) => {
    await page.goto(`${server.url}/contact`);
    await waitForHydration(page);
    const link = page.getByRole("link", { name: "Chat with us on WhatsApp" });
    await expect(link).toHaveCSS("position", "fixed");
    // The message box scrolled to the bottom edge of the screen, under where the link floats.
    const message = page.getByRole("textbox", { name: "Message" });
    await page.evaluate(() => {
      const box = document.querySelector("textarea")!.getBoundingClientRect();
      window.scrollBy(0, box.bottom - window.innerHeight + 10);
    });
    await expect(link).toBeHidden();
    expect(await message.isVisible()).toBe(true);
    // The footer's top: no control near the corner, the link is back.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(link).toBeVisible();
    await expect(link).toHaveCSS("position", "fixed");
  });
});

async function signInTo(page: Page) {
  await page.goto(`${server.url}/admin/login`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/(dashboard|courses)/);
}

for (const width of [375, 1280]) {
  test(`the Preview banner of an unpublished course sits above the site header at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await signInTo(page);
    await page.goto(`${server.url}/courses/${draftSlug}`);
    const banner = page.getByRole("status").filter({ hasText: "Preview" });
    await expect(banner).toContainText("this course is not public yet (Draft)");
    const header = page.locator("header.site-header");
    const bar = header.locator(":scope > div").last();
    const heading = page.getByRole("heading", { level: 1 });
    for (const scrolled of [false, true]) {
      if (scrolled) {
        await page.evaluate(() => window.scrollTo(0, 600));
        await page.waitForTimeout(300);
      }
      const [b, h, title] = [await banner.boundingBox(), await bar.boundingBox(), await heading.boundingBox()];
      expect(b && h && title).toBeTruthy();
      // The banner on top, fully on screen; the header's bar right under it, neither covering the other.
      expect(b!.y).toBeGreaterThanOrEqual(0);
      expect(h!.y).toBeGreaterThanOrEqual(b!.y + b!.height - 1);
      expect(overlap(b!, h!)).toBe(false);
      // What the banner hides is only ever hidden by the header, never by the banner as well: at the top, the page's heading shows.
      if (!scrolled) expect(title!.y).toBeGreaterThanOrEqual(h!.y + h!.height);
      // The header's links are what a visitor sees and taps at that point, not the banner.
      const logo = header.getByRole("link", { name: "CyberSOC Academy home" });
      const logoBox = (await logo.boundingBox())!;
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.closest("a")?.getAttribute("aria-label") ?? null,
        [logoBox.x + logoBox.width / 2, logoBox.y + logoBox.height / 2],
      );
      expect(hit).toBe("CyberSOC Academy home");
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/preview-${width}${scrolled ? "-scrolled" : ""}.png` });
    }
    // Visitors get no banner, and the header is fixed over the page as always.
    await page.context().clearCookies();
    await page.goto(`${server.url}/courses/${(await api("GET", "/api/courses")).body.data[0].slug}`);
    await expect(page.getByRole("status").filter({ hasText: "Preview" })).toHaveCount(0);
    await expect(header).toHaveCSS("position", "fixed");
  });
}
