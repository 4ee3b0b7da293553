import type { Browser, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test, waitForHydration } from "./fixtures";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * Issue 36.7 and 37.2/37.7 in Chromium, JavaScript on and off: two tabs on a batch's edit form and on the site
 * settings cannot overwrite each other (the second save is refused and shows what is stored now, with what was typed
 * beside it); raising a full batch's Total Seats says who the new seats were offered to; the batch's screen lists
 * who holds its seats next to its waitlist. A server of its own, so its batches and waitlists hold only what these
 * tests make.
 */
const OFFSET = 46;
let server: TestServer;
let token = "";
let courseId = "";
let courseTitle = "";
let n = 0;
let batches = 0;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A batch of its own (a start day no other test uses), with `totalSeats` seats. */
async function batch(totalSeats: number): Promise<{ id: string; startDate: string }> {
  const startDate = new Date(Date.UTC(2034, 0, 1 + 3 * ++batches)).toISOString().slice(0, 10);
  const r = await api("POST", "/api/schedules", {
    course: courseId,
    startDate,
    endDate: "2034-12-31",
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    totalSeats,
  });
  expect(r.status).toBe(201);
  return { id: r.body.data.id, startDate };
}

/** An enquiry for the batch starting `startDate` (on its waitlist when it is full); `enrol` takes a seat. */
async function student(name: string, startDate: string, enrol = false): Promise<{ id: string; fullName: string; phone: string }> {
  const r = await api("POST", "/api/enquiries", {
    fullName: name,
    email: `seats.${++n}.${Date.now()}@example.com`,
    phone: `93${String(10_000_000 + Math.floor(Math.random() * 89_999_999)).padStart(8, "0")}`,
    preferredCourse: courseTitle,
    preferredMode: "online",
    batchDate: startDate,
  });
  expect(r.status).toBe(201);
  if (enrol) expect((await api("PUT", `/api/enquiries/${r.body.data.id}/status`, { status: "enrolled" })).status).toBe(200);
  return r.body.data;
}

test.beforeAll(async () => {
  server = await startServer(OFFSET);
  token = (
    await (await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) })).json()
  ).token;
  const course = (await api("GET", "/api/courses")).body.data[0];
  courseId = course.id;
  courseTitle = course.title;
});

test.afterAll(async () => {
  await server?.stop();
});

async function signIn(page: Page) {
  await page.goto(`${server.url}/admin/login`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
}

/** A second browser tab of its own (its own context), signed in. */
async function tab(browser: Browser, js: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page);
  return page;
}

async function open(page: Page, url: string, js: boolean) {
  await page.goto(url);
  if (js) await waitForHydration(page);
}

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("two tabs on a batch's edit form: the second save is refused and shows the newer values", async ({ browser }) => {
      const b = await batch(3);
      const [first, second] = await Promise.all([tab(browser, js), tab(browser, js)]);
      const edit = `${server.url}/admin/schedules/${b.id}/edit`;
      await open(first, edit, js);
      await open(second, edit, js);

      await first.getByLabel("Time").fill("8:00 PM - 10:00 PM");
      await first.getByRole("button", { name: "Save Schedule" }).click();
      await expect(first.getByText("Schedule saved.")).toBeVisible();

      await second.getByLabel("Location").fill("HITEC City campus");
      await second.getByRole("button", { name: "Save Schedule" }).click();
      const refusal = second.getByTestId("edit-conflict");
      await expect(refusal).toContainText(/This batch was changed by Administrator at .+ IST\. Here is what it holds now\./);
      await expect(refusal).toContainText("HITEC City campus");
      if (js) await expectNoAxeViolations(second, "a refused batch save");
      // The form now holds what is stored: the first tab's time, the location as it was.
      await expect(second.getByLabel("Time")).toHaveValue("8:00 PM - 10:00 PM");
      await expect(second.getByLabel("Location")).toHaveValue("Online");
      const stored = (await api("GET", `/api/schedules/${b.id}`)).body.data;
      expect([stored.time, stored.location]).toEqual(["8:00 PM - 10:00 PM", "Online"]);

      // Saved again from what it shows now, it goes through.
      await second.getByLabel("Location").fill("HITEC City campus");
      await second.getByRole("button", { name: "Save Schedule" }).click();
      await expect(second.getByText("Schedule saved.")).toBeVisible();
      expect((await api("GET", `/api/schedules/${b.id}`)).body.data).toMatchObject({ time: "8:00 PM - 10:00 PM", location: "HITEC City campus" });
      await Promise.all([first.context().close(), second.context().close()]);
    });

    test("two tabs on a course's edit form (with JavaScript, its upload's answer): refused with the newer values", async ({ browser }) => {
      const made = await api("POST", "/api/courses", { title: `Two Tabs ${js ? "On" : "Off"} ${Date.now()}`, category: "advanced", description: "As made" });
      expect(made.status).toBe(201);
      const id = made.body.data.id as string;
      const [first, second] = await Promise.all([tab(browser, js), tab(browser, js)]);
      await open(first, `${server.url}/admin/courses/${id}/edit`, js);
      await open(second, `${server.url}/admin/courses/${id}/edit`, js);

      await first.getByLabel("Description").fill("Saved by the first tab");
      await first.getByRole("button", { name: "Save Course" }).click();
      await expect(first.getByText(`Course ${made.body.data.title} saved`)).toBeVisible();

      await second.getByLabel("Duration").fill("6 weeks");
      await second.getByRole("button", { name: "Save Course" }).click();
      const refusal = second.getByTestId("edit-conflict");
      await expect(refusal).toContainText(/This course was changed by Administrator at .+ IST\. Here is what it holds now\./);
      await expect(refusal).toContainText("6 weeks");
      await expect(second.getByLabel("Description")).toHaveValue("Saved by the first tab");
      await expect(second.getByLabel("Duration")).toHaveValue("");
      expect((await api("GET", `/api/courses/${id}`)).body.data).toMatchObject({ description: "Saved by the first tab", duration: "" });
      await Promise.all([first.context().close(), second.context().close()]);
    });

    test("two tabs on the site settings: the second save is refused and shows the newer values", async ({ browser }) => {
      const before = (await api("GET", "/api/settings")).body.data;
      const [first, second] = await Promise.all([tab(browser, js), tab(browser, js)]);
      await open(first, `${server.url}/admin/settings`, js);
      await open(second, `${server.url}/admin/settings`, js);
      const students = String(before.studentsTrained + 100 + (js ? 1 : 2));

      await first.getByLabel("Students trained").fill(students);
      await first.getByRole("button", { name: "Save Settings" }).click();
      await expect(first.getByText("Settings saved.")).toBeVisible();

      await second.getByLabel("Number of reviews behind the rating").fill("321");
      await second.getByRole("button", { name: "Save Settings" }).click();
      const refusal = second.getByTestId("edit-conflict");
      await expect(refusal).toContainText(/These site settings were changed by Administrator at .+ IST\. Here is what they hold now\./);
      await expect(refusal).toContainText("321");
      await expect(second.getByLabel("Students trained")).toHaveValue(students);
      await expect(second.getByLabel("Number of reviews behind the rating")).toHaveValue(String(before.ratingCount));
      const stored = (await api("GET", "/api/settings")).body.data;
      expect([stored.studentsTrained, stored.ratingCount]).toEqual([Number(students), before.ratingCount]);
      await Promise.all([first.context().close(), second.context().close()]);
    });

    test("raising a full batch's Total Seats names who the seats were offered to; the roster lists who holds them", async ({ page }) => {
      const b = await batch(1);
      const holder = await student(`Holder ${js ? "On" : "Off"}`, b.startDate, true);
      const keerthi = await student(`Keerthi Rao ${js ? "On" : "Off"}`, b.startDate);
      const arjun = await student(`Arjun Das ${js ? "On" : "Off"}`, b.startDate);
      await signIn(page);
      await page.goto(`${server.url}/admin/schedules/${b.id}/edit`);
      await expect(page.getByTestId("seats-left")).toHaveText("0 left (1 taken)");
      const roster = page.getByTestId("batch-roster");
      await expect(roster.getByRole("link", { name: holder.fullName })).toHaveAttribute("href", `/admin/enquiries/${holder.id}`);
      await expect(roster).toContainText(holder.phone);
      await expect(roster).toContainText("Administrator");
      await expect(page.getByTestId("batch-waitlist").getByRole("listitem")).toHaveCount(2);

      await page.getByLabel("Total Seats").fill("3");
      await page.getByRole("button", { name: "Save Schedule" }).click();
      await expect(
        page.getByText(`Schedule saved. 2 seats offered: ${keerthi.fullName}, ${arjun.fullName} (each held for them until they answer).`),
      ).toBeVisible();
      // The list reads seats taken of the total.
      await expect(page.getByText("3 of 3 taken").first()).toBeVisible();

      await page.goto(`${server.url}/admin/schedules/${b.id}/edit`);
      await expect(page.getByRole("heading", { name: "Seats taken: 3 of 3" })).toBeVisible();
      await expect(page.getByText("Also taken: 2 held by open waitlist offers (below).")).toBeVisible();
      await expect(page.getByTestId("batch-waitlist")).toContainText("Offered a seat, held until");
      // axe runs as a script in the page: with JavaScript on only (the HTML is the same).
      if (js) await expectNoAxeViolations(page, "the batch's screen with its roster");
    });
  });
}
