import type { Browser, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * The enquiry desk as counsellors use it, in Chromium, with JavaScript on and off (and once with the scripts 6 s
 * late): after every action the controls show what is stored (assign, save, note, a duplicate's link), a second
 * press adds nothing, two tabs cannot overwrite each other, the morning's call takes a handful of clicks with the
 * confirmation in view, and the list fits at 1280 px. A server of its own, so the round-robin and the queue hold
 * only what these tests make.
 */
const OFFSET = 9;
let server: TestServer;
let token = "";
let adminId = "";
let n = 0;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function enquiry(over: Record<string, unknown> = {}): Promise<{ id: string; fullName: string }> {
  n++;
  const r = await api("POST", "/api/enquiries", {
    fullName: `Desk Student ${n}${Date.now().toString(36).slice(-3)}`,
    email: `desk.${n}.${Date.now()}@example.com`,
    phone: `95${String(10_000_000 + Math.floor(Math.random() * 89_999_999)).padStart(8, "0")}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    ...over,
  });
  expect(r.status).toBe(201);
  return r.body.data;
}

const stored = async (id: string) => (await api("GET", `/api/enquiries/${id}`)).body.data;

test.beforeAll(async () => {
  server = await startServer(OFFSET);
  token = (
    await (await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) })).json()
  ).token;
  const me = (await api("GET", "/api/auth/me")).body.data;
  adminId = me.id;
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

/** Whether the round-robin gives the admin new enquiries (off: they arrive unassigned). */
async function roundRobin(on: boolean) {
  const me = (await api("GET", `/api/users/${adminId}`)).body.data;
  expect((await api("PUT", `/api/users/${adminId}`, { name: me.name, email: me.email, takesEnquiries: on })).status).toBe(200);
}

const details = (page: Page, js: boolean): Locator => (js ? page.getByRole("dialog", { name: "Enquiry Details" }) : page.locator("dialog"));

/** True when the element is inside the viewport right now (no scrolling needed to read it). */
async function inView(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });
}

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("after assign, save, a note and a duplicate's link, every control shows what is stored, and one note", async ({ page }) => {
      await roundRobin(false);
      const phone = `94${String(Date.now()).slice(-8)}`;
      const first = await enquiry({ phone });
      const second = await enquiry({ phone });
      await roundRobin(true);
      await signIn(page);
      await page.goto(`${server.url}/admin/enquiries/${second.id}`);
      const d = details(page, js);
      const owner = d.locator("#follow-up-owner");
      const activityOwner = d.locator("#activity-owner");
      await expect(owner).toHaveValue("");

      await d.getByRole("button", { name: "Assign to me" }).click();
      await expect(d.getByText("Assigned to you.")).toBeVisible();
      expect((await stored(second.id)).assigneeId).toBe(adminId);
      await expect(owner).toHaveValue(adminId);
      await expect(activityOwner).toHaveValue(adminId);
      // Saving the owner now keeps it (the form was redrawn from the stored record, not left saying Unassigned).
      await d.getByRole("button", { name: "Save owner" }).click();
      await expect(d.getByText("Owner saved.")).toBeVisible();
      expect((await stored(second.id)).assigneeId).toBe(adminId);
      await expect(owner).toHaveValue(adminId);

      // A note: the box empties, the confirmation is beside it, and a double click adds it once.
      const note = d.getByLabel("Add a note");
      await note.fill("Called; asked for the fee sheet.");
      await d.getByRole("button", { name: "Add note" }).dblclick();
      await expect(d.locator("#timeline").getByText("Note added.")).toBeVisible();
      await expect(note).toHaveValue("");
      await expect(d.locator("#timeline li").filter({ hasText: "Called; asked for the fee sheet." })).toHaveCount(1);
      expect((await api("GET", `/api/enquiries/${second.id}/timeline`)).body.data.filter((l: { kind: string }) => l.kind === "note")).toHaveLength(1);

      // The duplicate's link opens the other enquiry with its own stored values, not the first one's.
      await d.getByRole("link", { name: new RegExp(first.fullName) }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/enquiries/${first.id}`));
      await expect(d.getByText(first.fullName).first()).toBeVisible();
      await expect(d.locator("#follow-up-owner")).toHaveValue("");
      await expect(d.locator("#follow-up-batch")).toHaveValue("");
      await expect(d.getByLabel("Add a note")).toHaveValue("");
      if (js) await expect(d.getByRole("heading", { name: "Enquiry Details" })).toBeFocused();
      await expect(d.locator("#timeline li").filter({ hasText: "Called; asked for the fee sheet." })).toHaveCount(0);

      // Back: the first enquiry again, as stored (its owner, its one note, an empty box), not as the page last drew it.
      await page.goBack();
      await expect(page).toHaveURL(new RegExp(`/admin/enquiries/${second.id}`));
      await expect(d.getByText(second.fullName).first()).toBeVisible();
      await expect(d.locator("#follow-up-owner")).toHaveValue(adminId);
      await expect(d.getByLabel("Add a note")).toHaveValue("");
      await expect(d.locator("#timeline li").filter({ hasText: "Called; asked for the fee sheet." })).toHaveCount(1);
    });

    test("two tabs: the save drawn from the older record is refused with what it holds now, nothing overwritten", async ({ browser }) => {
      const e = await enquiry();
      const [a, b] = await Promise.all([tab(browser, js), tab(browser, js)]);
      await a.goto(`${server.url}/admin/enquiries/${e.id}`);
      await b.goto(`${server.url}/admin/enquiries/${e.id}`);
      const da = details(a, js);
      const db = details(b, js);
      await da.locator("#activity-status").selectOption("contacted");
      await da.getByLabel("Note", { exact: true }).fill("First call done.");
      await da.getByRole("button", { name: "Save", exact: true }).click();
      await expect(da.locator("#activity").getByText(/Activity logged for/)).toBeVisible();

      // Tab B still shows the record as it was; its owner change is refused, the choice kept beside what is stored now.
      await db.locator("#follow-up-owner").selectOption("");
      await db.getByRole("button", { name: "Save owner" }).click();
      await expect(db.getByText(/^This enquiry was changed by Administrator at .+ IST\. Here is what it holds now\.$/)).toBeVisible();
      await expect(db.locator("#activity-status")).toContainText("Unchanged (Contacted)");
      await expect(db.locator("#follow-up-owner")).toHaveValue("");
      await expect(db.locator("#follow-up").getByText("You chose:").locator("xpath=following-sibling::dd[1]")).toHaveText("Unassigned");
      await expect(db.locator("#follow-up").getByText("Stored now:").locator("xpath=following-sibling::dd[1]")).toHaveText("Administrator");
      const now = await stored(e.id);
      expect([now.status, now.assigneeId]).toEqual(["contacted", adminId]);

      // Again through Log activity: A closes the lead while B, on the version before, logs a call that would
      // unassign it and put it back to New. Refused; B's choices stay in the form, said beside what is stored now,
      // and one click applies them again.
      await da.locator("#activity-status").selectOption("closed");
      await da.getByRole("button", { name: "Save", exact: true }).click();
      // The first save's confirmation is still on A's screen: wait for the second to be stored (and redrawn).
      await expect.poll(async () => (await stored(e.id)).status).toBe("closed");
      await expect(da.locator("#activity-status")).toContainText("Unchanged (Closed)");
      await db.locator("#activity-status").selectOption("new");
      await db.locator("#activity-owner").selectOption("");
      await db.getByLabel("Note", { exact: true }).fill("Called back, keen on the weekend batch.");
      await db.getByRole("button", { name: "Save", exact: true }).click();
      // Beside the form that was refused (with JavaScript the owner form's earlier refusal may still show too).
      const activity = db.locator("#activity");
      await expect(activity.getByText(/^This enquiry was changed by Administrator at .+ IST\. Here is what it holds now\.$/)).toBeVisible();
      await expect(db.locator("#activity-status")).toContainText("Unchanged (Closed)");
      await expect(db.locator("#activity-status")).toHaveValue("new");
      await expect(db.locator("#activity-owner")).toHaveValue("");
      await expect(db.getByLabel("Note", { exact: true })).toHaveValue("Called back, keen on the weekend batch.");
      await expect(activity.getByText("You chose:").locator("xpath=following-sibling::dd[1]")).toHaveText(
        'New, note "Called back, keen on the weekend batch.", owner Unassigned',
      );
      await expect(activity.getByText("Stored now:").locator("xpath=following-sibling::dd[1]")).toHaveText(
        "Closed, follow-up none, owner Administrator, batch none",
      );
      const apply = activity.getByRole("button", { name: "Apply my choices again" });
      expect(await inView(apply)).toBe(true);
      const after = await stored(e.id);
      expect([after.status, after.assigneeId]).toEqual(["closed", adminId]);
      await apply.click();
      await expect(activity.getByText(/^Activity logged for /)).toBeVisible();
      await expect.poll(async () => (await stored(e.id)).status).toBe("new");
      expect((await stored(e.id)).assigneeId).toBeNull();

      await a.context().close();
      await b.context().close();
    });

    test("the morning's call: oldest New from My queue, a note, tomorrow's follow-up, Contacted, in one save", async ({ page }) => {
      // An empty queue first (earlier tests leave New enquiries behind), then two: the older is the one to call.
      for (const e of (await api("GET", "/api/enquiries?status=new&limit=100")).body.data)
        await api("PUT", `/api/enquiries/${e.id}/status`, { status: "closed" });
      const older = await enquiry();
      await enquiry();
      await signIn(page);
      const loads: string[] = [];
      const writes: string[] = [];
      page.on("request", (r) => {
        if (r.isNavigationRequest() && r.frame() === page.mainFrame() && !r.redirectedFrom()) loads.push(r.url());
        if (r.method() === "POST") writes.push(r.url());
      });
      let clicks = 0;
      const click = async (l: Locator) => {
        clicks++;
        await l.click();
      };
      await page.goto(`${server.url}/admin/enquiries?view=queue`);
      // Oldest first: the older one is the first row.
      await expect(page.getByRole("row").nth(1)).toContainText(older.fullName);
      await click(page.getByRole("link", { name: `View enquiry from ${older.fullName}` }));
      const d = details(page, js);
      await d.getByLabel("Note", { exact: true }).fill("Called: interested in the weekend batch.");
      await click(d.getByRole("radio", { name: /^Tomorrow 10:00 AM/ }));
      await d.locator("#activity-status").selectOption("contacted");
      clicks++; // choosing from the outcome list
      await click(d.getByRole("button", { name: "Save", exact: true }));
      const confirmation = d.locator("#activity").getByText(`Activity logged for ${older.fullName}.`);
      await expect(confirmation).toBeVisible();
      expect(await inView(confirmation)).toBe(true);
      const saved = await stored(older.id);
      expect(saved.status).toBe("contacted");
      expect(saved.followUpAt).toMatch(/T04:30:00\.000Z$/);
      await expect(d.locator("#activity-status")).toContainText("Unchanged (Contacted)");
      expect(clicks).toBeLessThanOrEqual(4);
      expect(writes.filter((u) => !u.includes("/admin/login"))).toHaveLength(1);
      if (!js) expect(loads).toHaveLength(3);
    });

    test("the list fits at 1280 px, ticks the page from its header and clears after a bulk change", async ({ page }) => {
      const names = ["Priya Sharma", "Arjun Varma", "Sneha Kulkarni"];
      for (const fullName of names) await enquiry({ fullName, preferredCourse: "Penetration Testing and Ethical Hacking" });
      await signIn(page);
      await page.goto(`${server.url}/admin/enquiries`);
      const fit = await page.evaluate(() => {
        const table = document.querySelector("table")!;
        const rows = [...table.querySelectorAll("tbody tr")].slice(0, 3).map((r) => r.getBoundingClientRect().height);
        const cols = [...table.querySelectorAll("thead th")].map((t) => Math.round(t.getBoundingClientRect().width));
        return { table: table.scrollWidth, box: table.parentElement!.clientWidth, rows, cols };
      });
      expect(fit.table, JSON.stringify(fit)).toBeLessThanOrEqual(fit.box);
      for (const h of fit.rows) expect(h).toBeLessThanOrEqual(66);
      const row = page.getByRole("row").filter({ hasText: "Sneha Kulkarni" }).first();
      await expect(row.getByRole("link", { name: /^Delete enquiry from/ })).toBeInViewport();
      await expect(row.locator('a[href^="tel:"]')).toHaveCount(1);
      const bulk = page.getByRole("form", { name: "Change the selected enquiries" });
      if (js) {
        await page.getByLabel("Select every enquiry on this page").check();
        const boxes = await page.locator('input[name="ids"]').count();
        await expect(bulk).toContainText(`${boxes} selected:`);
        await page.getByLabel("Select every enquiry on this page").uncheck();
      }
      for (const name of names) await page.getByRole("row").filter({ hasText: name }).first().getByRole("checkbox").check();
      await bulk.getByLabel("Set status").selectOption("contacted");
      await bulk.getByRole("button", { name: "Apply to selected" }).click();
      await expect(page.getByRole("status").filter({ hasText: "3 enquiries updated." })).toBeVisible();
      await expect(page.locator('input[name="ids"]:checked')).toHaveCount(0);
      await expect(bulk.getByLabel("Set status")).toHaveValue("");
    });
  });
}

test.describe("on a phone, scripts 6 s late", () => {
  test.use({ javaScriptEnabled: true, viewport: { width: 375, height: 740 } });

  test("the details show who to call first, and a call logged before the scripts arrive is saved once", async ({ page }) => {
    const e = await enquiry();
    await signIn(page);
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 6_000));
      await route.continue();
    });
    await page.goto(`${server.url}/admin/enquiries/${e.id}`, { waitUntil: "commit" });
    const d = page.locator("dialog");
    const name = d.getByText(e.fullName).first();
    const call = d.getByRole("link", { name: /^Call / });
    const activity = d.getByRole("heading", { name: "Log activity" });
    await expect(activity).toBeVisible();
    const top = async (l: Locator) => (await l.boundingBox())!.y;
    expect(await top(name)).toBeLessThan(await top(activity));
    expect(await top(call)).toBeLessThan(await top(activity));
    await d.getByLabel("Note", { exact: true }).fill("Reached on WhatsApp.");
    await d.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.locator("#activity").getByText(`Activity logged for ${e.fullName}.`)).toBeVisible({ timeout: 20_000 });
    expect((await api("GET", `/api/enquiries/${e.id}/timeline`)).body.data.filter((l: { kind: string }) => l.kind === "note")).toHaveLength(1);
  });
});

/** A signed-in tab of its own (another counsellor's browser). */
async function tab(browser: Browser, js: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page);
  return page;
}
