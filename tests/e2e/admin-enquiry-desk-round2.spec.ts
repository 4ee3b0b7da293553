import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * The enquiry desk, round 2 (issue 37), in Chromium with JavaScript on, off and 6 s late, reading the screen after
 * every action: two unanswered calls never bounce between each other; the batch list is grouped by course with
 * seats left and another course's batch asks first (no e-mail reaches the real SMTP server before the answer); a
 * full batch is refused once, with Add a seat beside it; closing an enrolled student says who was offered the seat;
 * the CSV from My queue holds the queue's rows. A server of its own, with e-mail to a sink in this process.
 */
const OFFSET = 45;
let server: TestServer;
let smtp: SmtpSink;
let token = "";
let n = 0;
const courses: Record<string, string> = {};
const SOC = "SOC Analyst Training Program";
const CSP = "Cloud Security Practitioner";
const SHOTS = process.env.DESK_SCREENSHOTS;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

type Lead = { id: string; fullName: string; email: string; phone: string };

async function enquiry(over: Record<string, unknown> = {}): Promise<Lead> {
  n++;
  const body = {
    fullName: `Round Two ${n}${Date.now().toString(36).slice(-3)}`,
    email: `round2.${n}.${Date.now()}@example.com`,
    phone: `93${String(10_000_000 + n * 7919 + (Date.now() % 1000)).padStart(8, "0")}`,
    preferredCourse: SOC,
    preferredMode: "online",
    ...over,
  };
  const r = await api("POST", "/api/enquiries", body);
  expect(r.status).toBe(201);
  return { ...r.body.data, email: body.email, phone: r.body.data.phone };
}

/** A batch of `course` starting on `day`, with `total` seats, all free. */
async function batch(course: string, day: string, total: number): Promise<string> {
  const r = await api("POST", "/api/schedules", {
    course: courses[course],
    startDate: day,
    endDate: "2039-12-31",
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    seats: total,
    totalSeats: total,
  });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

/** Enrols a new enquiry in the batch through the API (a seat taken). */
async function enrolled(scheduleId: string, over: Record<string, unknown> = {}): Promise<Lead> {
  const e = await enquiry(over);
  const { fullName, email, phone, preferredCourse, preferredMode } = (await api("GET", `/api/enquiries/${e.id}`)).body.data;
  const r = await api("PUT", `/api/enquiries/${e.id}`, { fullName, email, phone, preferredCourse, preferredMode, scheduleId, status: "enrolled" });
  expect(r.status).toBe(200);
  return e;
}

const stored = async (id: string) => (await api("GET", `/api/enquiries/${id}`)).body.data;

/** Every enquiry still open (New or Contacted) closed, so My queue holds only what a test makes. */
async function emptyQueue() {
  for (const status of ["new", "contacted"])
    for (;;) {
      const open = (await api("GET", `/api/enquiries?status=${status}&limit=100`)).body.data as { id: string }[];
      if (!open.length) break;
      for (const e of open) await api("PUT", `/api/enquiries/${e.id}/status`, { status: "closed" });
    }
}

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startServer(OFFSET, { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>", NOTIFY_EMAIL: "desk@cybersoc.test" });
  token = (
    await (await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) })).json()
  ).token;
  for (const c of (await api("GET", "/api/courses?limit=100")).body.data as { id: string; title: string }[]) courses[c.title] = c.id;
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

async function signIn(page: Page) {
  // Signed in already (before the scripts were made late).
  if (page.url().endsWith("/admin/courses")) return;
  await page.goto(`${server.url}/admin/login`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
}

const details = (page: Page, js: boolean): Locator => (js ? page.getByRole("dialog", { name: "Enquiry Details" }) : page.locator("dialog"));

/** True when the element is inside the viewport right now (no scrolling needed to read it). */
async function inView(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

const MODES = [
  { name: "on", js: true, late: false },
  { name: "off", js: false, late: false },
  { name: "on, scripts 6 s late", js: true, late: true },
] as const;

for (const mode of MODES) {
  // A laptop with JavaScript, a phone without it or with it late.
  const width = mode.js && !mode.late ? 1280 : 375;
  test.describe(`JavaScript ${mode.name}, ${width} px`, () => {
    test.use({ javaScriptEnabled: mode.js, viewport: { width, height: width === 1280 ? 900 : 740 } });

    test("two unanswered calls, Save and open next twice: the next one opens at its confirmation and the first never comes back", async ({ page }) => {
      await emptyQueue();
      const first = await enquiry();
      const second = await enquiry();
      await signIn(page);
      if (mode.late)
        await page.route(/\/assets\/.*\.js$/, async (route) => {
          await new Promise((r) => setTimeout(r, 6_000));
          await route.continue();
        });
      const opened: string[] = [];
      const shown: string[] = [];
      page.on("framenavigated", (f) => f === page.mainFrame() && shown.push(new URL(f.url()).pathname));
      page.on("request", (r) => {
        if (r.isNavigationRequest() && r.frame() === page.mainFrame() && r.method() === "GET") opened.push(new URL(r.url()).pathname);
      });
      await page.goto(`${server.url}/admin/enquiries?view=queue`, { waitUntil: mode.late ? "commit" : "load" });
      const rows = page.getByRole("link", { name: /^View enquiry from / });
      await expect(rows).toHaveCount(2);
      // The sidebar counts what the list shows.
      // (At 375 px the sidebar is behind the Menu button: read the link itself.)
      await expect(page.locator('aside a[href="/admin/enquiries?view=queue"]')).toHaveText(/^My queue\s*2 in your queue$/);
      await page.getByRole("link", { name: `View enquiry from ${first.fullName}` }).click();

      const d = details(page, mode.js);
      await expect(d.getByText(first.fullName).first()).toBeVisible();
      const noAnswer = async () => {
        await d.getByLabel("Note", { exact: true }).fill("No answer");
        await d.getByRole("radio", { name: /^Tomorrow 10:00 AM/ }).check();
        await d.getByRole("button", { name: "Save and open next" }).click();
      };
      await expect(page).toHaveURL(new RegExp(`/admin/enquiries/${first.id}`));
      const before = shown.length;
      await noAnswer();
      const confirmation = page.getByRole("status").filter({ hasText: `Activity logged for ${first.fullName}. This is the next enquiry in your queue.` });
      await expect(confirmation).toBeVisible({ timeout: mode.late ? 20_000 : 7_000 });
      await expect(page).toHaveURL(new RegExp(`/admin/enquiries/${second.id}\\?view=queue&run=${first.id}`));
      await expect(d.getByText(second.fullName).first()).toBeVisible();
      expect(await inView(confirmation)).toBe(true);
      // Focus is on the confirmation (the browser's landing on #saved, or the dialog's own focus with JavaScript).
      await expect(page.locator("#saved")).toBeFocused();
      await shot(page, `queue-next-${mode.js ? (mode.late ? "late" : "js") : "nojs"}-${width}`);

      await noAnswer();
      await expect(page.getByRole("status").filter({ hasText: `Activity logged for ${second.fullName}. Your queue is empty.` })).toBeVisible({
        timeout: mode.late ? 20_000 : 7_000,
      });
      await expect(page).toHaveURL(/\/admin\/enquiries\?view=queue#admin-main$/);
      expect(await inView(page.getByRole("status").filter({ hasText: "Your queue is empty." }))).toBe(true);
      await expect(rows).toHaveCount(0);
      // The first enquiry's page was opened once only, from the list: never by Save and open next (with JavaScript
      // the dialog opens without a page load, so none).
      expect(opened.filter((p) => p === `/admin/enquiries/${first.id}`).length).toBeLessThanOrEqual(1);
      expect(opened.filter((p) => p === `/admin/enquiries/${second.id}`).length).toBeLessThanOrEqual(1);
      // Every address shown after the first save (pages and the router's own navigations): never the first enquiry's.
      expect(shown.slice(before)).not.toContain(`/admin/enquiries/${first.id}`);
      expect(shown.slice(before)).toContain(`/admin/enquiries/${second.id}`);
      for (const e of [first, second]) expect((await stored(e.id)).followUpAt).toMatch(/T04:30:00\.000Z$/);
    });
  });
}

for (const [i, mode] of MODES.entries()) {
  const js = mode.js;
  // A day and a letter of each mode's own: every mode makes its own batches and students.
  const dayOf = (day: number) => `2033-0${day}-${String(10 + i).padStart(2, "0")}`;
  const letter = "ABC"[i];
  const printed = (day: number) => `${["", "Jan", "Feb", "Mar", "Apr", "May", "Jun"][day]} ${10 + i}`;
  // With the scripts late, each page is used as soon as it arrives (a click before the scripts is a plain post).
  const go = (page: Page, url: string) => page.goto(url, { waitUntil: mode.late ? "commit" : "load" });
  test.describe(`JavaScript ${mode.name}, the right batch`, () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
    if (mode.late)
      test.beforeEach(async ({ page }) => {
        await signIn(page);
        await page.route(/\/assets\/.*\.js$/, async (route) => {
          await new Promise((r) => setTimeout(r, 6_000));
          await route.continue();
        });
      });

    test("the batch list is grouped by course with seats left; another course's batch asks first and no e-mail goes out before the answer", async ({
      page,
    }) => {
      const day = dayOf(1);
      const own = await batch(SOC, day, 3);
      const other = await batch(CSP, dayOf(2), 25);
      const e = await enquiry({ fullName: `Ravi Kumar ${letter}` });
      await signIn(page);
      await go(page, `${server.url}/admin/enquiries/${e.id}`);
      const d = details(page, js);
      const select = d.locator("#activity-batch");
      const groups = await select.locator("optgroup").evaluateAll((els) => els.map((g) => (g as HTMLOptGroupElement).label));
      expect(groups).toEqual([SOC, "Other courses"]);
      await expect(select.locator(`optgroup[label="${SOC}"] option[value="${own}"]`)).toHaveText(`${printed(1)}, 2033 (Online) · 3 seats left`);
      await expect(select.locator(`optgroup[label="Other courses"] option[value="${other}"]`)).toHaveText(
        `${CSP}, starts ${printed(2)}, 2033 (Online) · 25 seats left`,
      );

      await d.locator("#activity-status").selectOption("enrolled");
      await select.selectOption(other);
      await d.getByLabel("Note", { exact: true }).fill("Asked about cloud");
      await d.getByRole("button", { name: "Save", exact: true }).click();
      const question = `Enrol ${e.fullName} (${SOC}) in a ${CSP} batch?`;
      await expect(d.getByText(question)).toBeVisible();
      await shot(page, `cross-course-${i}-1280`);
      if (js) await expectNoAxeViolations(page, "the batch question", "dialog");
      // Nothing saved, nothing queued, nothing at the SMTP server; the choices are still in the form.
      expect(await stored(e.id)).toMatchObject({ status: "new", scheduleId: null });
      const outbox = (await api("GET", "/api/outbox?limit=100")).body.data as { recipient: string; event: string }[];
      expect(outbox.filter((m) => m.recipient === e.email && m.event === "enquiry.enrolled")).toEqual([]);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(smtp.received.filter((m) => m.envelope.to.includes(e.email) && /Enrolment confirmed/.test(m.parsed.subject ?? ""))).toEqual([]);
      await expect(d.locator("#activity-status")).toHaveValue("enrolled");
      await expect(select).toHaveValue(other);
      await expect(d.getByLabel("Note", { exact: true })).toHaveValue("Asked about cloud");

      await d.getByRole("button", { name: `Yes, enrol in the ${CSP} batch` }).click();
      await expect(d.locator("#activity").getByText(`Activity logged for ${e.fullName}.`)).toBeVisible();
      expect(await stored(e.id)).toMatchObject({ status: "enrolled", scheduleId: other });
      const [mail] = await smtp.waitFor((m) => m.envelope.to.includes(e.email) && /Enrolment confirmed/.test(m.parsed.subject ?? ""), 1, 30_000);
      expect(mail.parsed.subject).toBe(`Enrolment confirmed: ${CSP}, starts ${printed(2)}, 2033 | CyberSOC Academy`);
    });

    test("a full batch is refused once, under Batch, with Add a seat for the student beside it", async ({ page }) => {
      const full = await batch(SOC, dayOf(3), 1);
      await enrolled(full);
      const e = await enquiry({ fullName: `Kiran Das ${letter}` });
      await signIn(page);
      await go(page, `${server.url}/admin/enquiries/${e.id}`);
      const d = details(page, js);
      await expect(d.locator(`#activity-batch option[value="${full}"]`)).toHaveText(/· full$/);
      await d.locator("#activity-status").selectOption("enrolled");
      await d.locator("#activity-batch").selectOption(full);
      await d.getByLabel("Note", { exact: true }).fill("Paid today");
      await d.getByRole("button", { name: "Save", exact: true }).click();
      const refusal = page.getByText("This batch is full: no seats are left. Choose another batch, or add a seat for this student.");
      await expect(refusal).toHaveCount(1);
      await expect(d.locator("#activity-batch-error")).toHaveText(
        "This batch is full: no seats are left. Choose another batch, or add a seat for this student.",
      );
      const addSeat = d.locator("#activity").getByRole("button", { name: `Add a seat for ${e.fullName}` });
      await expect(addSeat).toBeVisible();
      expect(Math.abs((await addSeat.boundingBox())!.y - (await d.locator("#activity-batch-error").boundingBox())!.y)).toBeLessThan(40);
      await shot(page, `full-batch-${i}-1280`);
      if (js) await expectNoAxeViolations(page, "a full batch's refusal", "dialog");
      expect((await stored(e.id)).status).toBe("new");

      await addSeat.click();
      await expect(d.locator("#activity").getByText(`Activity logged for ${e.fullName}. A seat was added to the batch for them.`)).toBeVisible();
      expect(await stored(e.id)).toMatchObject({ status: "enrolled", scheduleId: full });
      expect((await api("GET", `/api/schedules/${full}`)).body.data.totalSeats).toBe(2);
    });

    test("closing an enrolled student says who was offered the seat", async ({ page }) => {
      const day = dayOf(4);
      const b = await batch(SOC, day, 1);
      const student = await enrolled(b, { fullName: `Anil Menon ${letter}` });
      const keerthi = await enquiry({ fullName: `Keerthi Rao ${letter}`, batchDate: day });
      await signIn(page);
      await go(page, `${server.url}/admin/enquiries/${student.id}`);
      const d = details(page, js);
      await d.locator("#activity-status").selectOption("closed");
      await d.getByRole("button", { name: "Save", exact: true }).click();
      await expect(
        d.locator("#activity").getByText(`Activity logged for ${student.fullName}. Their seat was offered to ${keerthi.fullName} (waitlist 1).`),
      ).toBeVisible();
      const audit = (await api("GET", "/api/audit-log?limit=20")).body.data as { summary: string }[];
      expect(audit.map((a) => a.summary)).toContain(
        `${SOC}, starts ${printed(4)}, 2033 (Online): the seat ${student.fullName} held was offered to ${keerthi.fullName} (waitlist 1)`,
      );
    });

    test("Export CSV from My queue holds the queue's rows, in its order", async ({ page }) => {
      await emptyQueue();
      const queued = [await enquiry(), await enquiry()];
      // Not in the queue: another's follow-up tomorrow, a closed one.
      const later = await enquiry();
      await api("PUT", `/api/enquiries/${later.id}`, { ...(await stored(later.id)), followUpAt: new Date(Date.now() + 86_400_000).toISOString() });
      await signIn(page);
      await go(page, `${server.url}/admin/enquiries?view=queue`);
      const listed = await page
        .getByRole("link", { name: /^View enquiry from / })
        .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname.split("/").pop()!));
      expect(listed).toEqual(queued.map((e) => e.id));
      const link = page.getByRole("link", { name: "Export CSV" });
      expect(await link.getAttribute("href")).toBe("/admin/enquiries/export.csv?view=queue");
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      const rows = parse(fs.readFileSync((await download.path())!, "utf8"), { columns: true, bom: true }) as Record<string, string>[];
      expect(rows.map((r) => r["Enquiry ID"])).toEqual(listed);
    });
  });
}

test.describe("screens at 375 px", () => {
  test.use({ javaScriptEnabled: true, viewport: { width: 375, height: 740 } });

  test("the batch question and the list's batch filter fit a phone", async ({ page }) => {
    const b = await batch(SOC, "2033-06-01", 5);
    const other = await batch(CSP, "2033-06-02", 5);
    const e = await enquiry({ fullName: "Meera Nair" });
    await signIn(page);
    await page.goto(`${server.url}/admin/enquiries/${e.id}`);
    const d = details(page, true);
    await d.locator("#activity-status").selectOption("enrolled");
    await d.locator("#activity-batch").selectOption(other);
    await d.getByRole("button", { name: "Save", exact: true }).click();
    const confirm = d.getByRole("button", { name: `Yes, enrol in the ${CSP} batch` });
    await confirm.scrollIntoViewIfNeeded();
    await expect(confirm).toBeInViewport();
    expect(await d.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shot(page, "cross-course-375");
    await enrolled(b, { fullName: "Batch Student" });
    await page.goto(`${server.url}/admin/enquiries?batch=${b}`);
    // A filter set: the filters are open, showing it.
    await expect(page.locator("#filter-batch")).toHaveValue(b);
    await expect(page.getByRole("link", { name: /^View enquiry from / })).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.locator("#filter-batch").scrollIntoViewIfNeeded();
    await shot(page, "batch-filter-375");
  });

  test("a save refused for a change meanwhile shows the choices beside what is stored now, on a phone", async ({ browser }) => {
    const e = await enquiry({ fullName: "Sneha Kulkarni" });
    const tabs = await Promise.all(
      [0, 1].map(async () => {
        const context = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 375, height: 740 } });
        const page = await context.newPage();
        await signIn(page);
        await page.goto(`${server.url}/admin/enquiries/${e.id}`);
        return page;
      }),
    );
    const [a, b] = tabs.map((t) => details(t, true));
    await a.locator("#activity-status").selectOption("closed");
    await a.getByRole("button", { name: "Save", exact: true }).click();
    await expect(a.locator("#activity").getByText(/^Activity logged for/)).toBeVisible();
    await b.locator("#activity-status").selectOption("contacted");
    await b.getByLabel("Note", { exact: true }).fill("Spoke to her father; call back after exams.");
    await b.getByRole("radio", { name: /^In 3 days/ }).check();
    await b.getByRole("button", { name: "Save", exact: true }).click();
    const apply = b.getByRole("button", { name: "Apply my choices again" });
    await expect(apply).toBeVisible();
    await expect(b.getByText("You chose:").locator("xpath=following-sibling::dd[1]")).toHaveText(
      /^Contacted, note "Spoke to her father; call back after exams\.", follow-up In 3 days/,
    );
    await expect(b.getByText("Stored now:").locator("xpath=following-sibling::dd[1]")).toHaveText(/^Closed, follow-up none, owner /);
    await apply.scrollIntoViewIfNeeded();
    await shot(tabs[1], "conflict-375");
    await expectNoAxeViolations(tabs[1], "the choices beside what is stored now", "dialog");
    await apply.click();
    await expect(b.locator("#activity").getByText(/^Activity logged for Sneha Kulkarni\./)).toBeVisible();
    expect((await stored(e.id)).status).toBe("contacted");
    for (const t of tabs) await t.context().close();
  });
});
