import { randomUUID } from "node:crypto";
import { blockAppScripts, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import { type Page } from "@playwright/test";
import { closeDb, db, openDb } from "~db/client.server";
import { getUserWithSecret } from "~/models/user.server";
import { createUserWithoutActor as createUser } from "~/services/users.server";
import { ADMIN, portFor, startServer, type TestServer } from "./servers";

/**
 * The Audit Log screen on a server of its own: its entries are put straight into that server's database at
 * fixed times in March 2026, since no screen writes the log at a chosen time. Whatever the app itself
 * records meanwhile (sign-ins, the editor made here) happens today, outside the filters checked below.
 */
const OFFSET = 6;
test.use({ baseURL: `http://127.0.0.1:${portFor(OFFSET)}` });

const EDITOR = { name: "Eve Auditless", email: "audit-editor@example.com", password: "editor-password-1" };
let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer(OFFSET);
  await openDb(`file:${server.dbFile}`);
  try {
    const admin = (await getUserWithSecret({ email: ADMIN.email }))!;
    const editor = await createUser({ ...EDITOR, role: "editor" });
    const entry = (at: string, who: { id: string; name: string }, action: string, entityType: string, entityId: string, summary: string) => ({
      id: randomUUID(),
      at,
      userId: who.id,
      userName: who.name,
      ip: "203.0.113.7",
      requestId: randomUUID().replace(/-/g, "").slice(0, 16),
      action,
      entityType,
      entityId,
      summary,
    });
    const rows = [
      // 24 enquiry entries on Mar 2…25 (noon in Hyderabad), plus the first and last moments that count as March there.
      ...Array.from({ length: 24 }, (_, i) => {
        const day = String(i + 2).padStart(2, "0");
        return entry(`2026-03-${day}T06:30:00.000Z`, admin, "status", "enquiry", `enq-${day}`, `Changed status of enquiry ${day}`);
      }),
      entry("2026-02-28T18:30:00.000Z", admin, "status", "enquiry", "enq-first-moment", "Midnight starting Mar 1 in Hyderabad"),
      entry("2026-02-28T18:29:00.000Z", admin, "status", "enquiry", "enq-still-february", "Still Feb 28 in Hyderabad"),
      entry("2026-03-31T18:30:00.000Z", admin, "status", "enquiry", "enq-already-april", "Already Apr 1 in Hyderabad"),
      ...[10, 11, 12].map((d) => entry(`2026-03-${d}T09:00:00.000Z`, editor, "update", "course", `course-${d}`, `Changed title of course ${d}`)),
    ];
    await db().insertInto("audit_log").values(rows).execute();
  } finally {
    await closeDb();
  }
});
test.afterAll(async () => {
  await server?.stop();
});

const rows = (page: Page) => page.locator("#admin-main tbody tr");
const MARCH_ENQUIRIES = "/admin/audit-log?entityType=enquiry&from=2026-03-01&to=2026-03-31";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Audit Log, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an admin opens it from the sidebar, filters by entity type, dates and user, pages, and clears", async ({ page }) => {
      await signIn(page);
      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit Log" }).click();
      await expect(page).toHaveURL(/\/admin\/audit-log$/);
      await expect(page.getByRole("heading", { level: 1, name: "Audit Log" })).toBeVisible();
      await expect(page).toHaveTitle("Audit Log · Admin");

      const form = page.getByRole("search", { name: "Filter the audit log" });
      await form.getByLabel("Entity type").selectOption({ label: "Enquiry" });
      await form.getByLabel("From").fill("2026-03-01");
      await form.getByLabel("To").fill("2026-03-31");
      await form.getByRole("button", { name: "Apply" }).click();

      await expect(page).toHaveURL(/entityType=enquiry/);
      expect(new URL(page.url()).searchParams.get("from")).toBe("2026-03-01");
      expect(new URL(page.url()).searchParams.get("to")).toBe("2026-03-31");
      await expect(page.getByText("Page 1 of 2 · 25 entries")).toBeVisible();
      await expect(rows(page)).toHaveCount(20);
      // Newest first; each row names the entity, links to its screen and says what happened.
      await expect(rows(page).first()).toContainText("Mar 25, 2026");
      await expect(rows(page).first()).toContainText("Administrator");
      await expect(rows(page).first()).toContainText("Status changed");
      await expect(rows(page).first()).toContainText("Changed status of enquiry 25");
      await expect(
        rows(page)
          .first()
          .getByRole("link", { name: /^Enquiry/ }),
      ).toHaveAttribute("href", "/admin/enquiries/enq-25");
      // The form shows the filter in force.
      await expect(form.getByLabel("Entity type")).toHaveValue("enquiry");
      await expect(form.getByLabel("From")).toHaveValue("2026-03-01");
      await expect(form.getByLabel("To")).toHaveValue("2026-03-31");

      await page.getByRole("link", { name: "Next" }).click();
      await expect(page.getByText("Page 2 of 2 · 25 entries")).toBeVisible();
      const url = new URL(page.url());
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ entityType: "enquiry", from: "2026-03-01", to: "2026-03-31", page: "2" });
      await expect(rows(page)).toHaveCount(5);
      // Hyderabad days: 18:30 UTC on Feb 28 is midnight on Mar 1 there (in); 18:29 is still Feb 28, and 18:30 UTC on Mar 31 is Apr 1 (out).
      await expect(rows(page).last()).toContainText("Midnight starting Mar 1 in Hyderabad");
      await expect(rows(page).last()).toContainText("Mar 1, 2026");
      await expect(rows(page).last()).toContainText("12:00 AM");
      await expect(page.getByText("Still Feb 28 in Hyderabad")).toHaveCount(0);
      await expect(page.getByText("Already Apr 1 in Hyderabad")).toHaveCount(0);

      await page.getByRole("link", { name: "Previous" }).click();
      await expect(page.getByText("Page 1 of 2 · 25 entries")).toBeVisible();

      // By user, all entity types, still in March.
      await form.getByLabel("User").selectOption({ label: EDITOR.name });
      await form.getByLabel("Entity type").selectOption({ label: "All types" });
      await form.getByRole("button", { name: "Apply" }).click();
      await expect(page.getByText("3 entries", { exact: true })).toBeVisible();
      await expect(rows(page)).toHaveCount(3);
      for (const row of await rows(page).all()) await expect(row).toContainText(EDITOR.name);
      await expect(
        rows(page)
          .first()
          .getByRole("link", { name: /^Course/ }),
      ).toHaveAttribute("href", "/admin/courses/course-12/edit");

      // A filter nothing matches.
      await form.getByLabel("Entity type").selectOption({ label: "Review" });
      await form.getByRole("button", { name: "Apply" }).click();
      await expect(page.getByText("No audit entries found for the selected filter.")).toBeVisible();

      await form.getByRole("link", { name: "Clear" }).click();
      await expect(page).toHaveURL(/\/admin\/audit-log$/);
      await expect(form.getByLabel("User")).toHaveValue("");
      await expect(form.getByLabel("Entity type")).toHaveValue("");
      await expect(form.getByLabel("From")).toHaveValue("");
      await expect(rows(page).first()).toBeVisible();
    });

    test("a date that does not exist shows a clear message, not a crash", async ({ page }) => {
      await signIn(page);
      const response = await page.goto("/admin/audit-log?entityType=enquiry&from=2026-13-01");
      expect(response?.status()).toBe(400);
      await expect(page.getByRole("alert")).toHaveText("The filter was not applied. From: Enter a date as YYYY-MM-DD.");
      await expect(page.getByRole("search", { name: "Filter the audit log" }).getByLabel("From")).toHaveAttribute("aria-invalid", "true");
      await expect(rows(page)).toHaveCount(0);
    });

    test("an editor sees no Audit Log item and gets the access-denied screen at its URL", async ({ page }) => {
      await signIn(page, EDITOR.email, EDITOR.password);
      const nav = page.getByRole("navigation", { name: "Admin" });
      await expect(nav.getByRole("link", { name: "Courses" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Audit Log" })).toHaveCount(0);
      const response = await page.goto(MARCH_ENQUIRIES);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { level: 1, name: "Access denied" })).toBeVisible();
      await expect(page.getByText("You do not have permission to view this page.")).toBeVisible();
      await expect(page.getByText("Changed status of enquiry")).toHaveCount(0);
    });
  });

  test.describe(`axe on the Audit Log, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    // One test per width: ten axe runs in one took 41 to 47 s of its 60 on a quiet machine, and timed out in CI.
    for (const width of [1280, 375])
      test(`the list, a filtered page, the last page, the empty state and a bad filter have no WCAG 2.1 A/AA violations at ${width} px`, async ({ page }) => {
        // axe runs as a script, so "off" keeps the browser's JavaScript but never loads the app's.
        if (!javaScriptEnabled) await blockAppScripts(page);
        await signIn(page);
        await page.setViewportSize({ width, height: 900 });
        for (const path of [
          "/admin/audit-log",
          MARCH_ENQUIRIES,
          `${MARCH_ENQUIRIES}&page=2`,
          "/admin/audit-log?entityType=review",
          "/admin/audit-log?to=2026-02-30",
        ]) {
          await page.goto(path);
          await expect(page.getByRole("heading", { level: 1, name: "Audit Log" })).toBeVisible();
          await expectNoAxeViolations(page, `${path} at ${width} px`, "#admin-main");
        }
      });
  });
}
