import { blockAppScripts, expect, expectNoAxeViolations, postContactQuery, postEnquiry, signIn, test, uniqueTag } from "./fixtures";
import { type Page } from "@playwright/test";

/** Set ADMIN_SHOTS_DIR to keep a full-page screenshot of every screen checked. */
const SHOTS = process.env.ADMIN_SHOTS_DIR;

async function shoot(page: Page, path: string, suffix: string) {
  if (!SHOTS) return;
  // "/admin/enquiries/<id>/delete" at 375 px is saved as "enquiries_item_delete-375.png".
  // The search that picks this spec's own row (?q=…) is left out of the name.
  const name = path
    .replace(/^\/admin\//, "")
    .replace(/[?&]q=[^&]*/, "")
    .replace(/\/[0-9a-f-]{36}(?=[/?]|$)/, "/item")
    .replace(/[^\w-]+/g, "_");
  await page.screenshot({ path: `${SHOTS}/${name}-${suffix}.png`, fullPage: true });
}

/** The href of the link whose accessible name starts with `name`, in the row holding `rowText`. */
async function rowHref(page: Page, rowText: string, name: RegExp): Promise<string> {
  const href = await page.getByRole("row").filter({ hasText: rowText }).getByRole("link", { name }).first().getAttribute("href");
  expect(href).toBeTruthy();
  return href!;
}

for (const javaScriptEnabled of [true, false]) {
  // The narrow view restyles each table into cards, so both widths are scanned.
  for (const width of [1280, 375]) {
    test.describe(`axe on Schedules, Reviews, Enquiries and Contact Queries at ${width} px, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test("every list, dialog and confirmation page has no WCAG 2.1 A/AA violations", async ({ page }) => {
        test.setTimeout(240_000);
        await page.setViewportSize({ width, height: 900 });
        const suffix = `${width}${javaScriptEnabled ? "" : "-nojs"}`;
        // axe runs as a script in the page, so "off" keeps the browser's JavaScript but never loads the app's:
        // the markup is then exactly the server's, with dialogs as in-flow pages.
        if (!javaScriptEnabled) await blockAppScripts(page);
        const student = `Axe ${uniqueTag("a")}`;
        const visitor = `Axe ${uniqueTag("a")}`;
        await postEnquiry(page.request, { fullName: student });
        await postContactQuery(page.request, { name: visitor });
        await signIn(page);

        // Rows other specs never touch: they add and delete rows in the same database meanwhile.
        const pages: string[] = [];
        for (const [list, row, edit] of [
          ["/admin/schedules", "Cloud Security Practitioner", /^Edit/],
          ["/admin/reviews", "Vikram Rao", /^Edit/],
          [`/admin/enquiries?q=${encodeURIComponent(student)}`, student, /^View/],
          [`/admin/contact-queries?q=${encodeURIComponent(visitor)}`, visitor, /^View/],
        ] as const) {
          await page.goto(list);
          pages.push(list, await rowHref(page, row, edit), await rowHref(page, row, /^Delete/));
        }
        pages.push(
          "/admin/schedules/new",
          "/admin/reviews/new",
          "/admin/reviews?status=pending",
          "/admin/enquiries?status=closed&q=nobody-matches-this",
          "/admin/contact-queries?status=replied",
        );

        for (const path of pages) {
          await page.goto(path);
          await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
          await expectNoAxeViolations(page, path, "#admin-main");
          await shoot(page, path, suffix);
        }

        // Forms showing their error messages.
        for (const [path, save] of [
          ["/admin/schedules/new", "Save Schedule"],
          ["/admin/reviews/new", "Save Review"],
        ] as const) {
          await page.goto(path);
          // With JavaScript, hydration re-opens the in-flow dialog as a modal (it moves to the centre);
          // a click aimed while it moves can land on the backdrop, so wait until it has settled.
          if (javaScriptEnabled) await expect(page.locator("dialog:modal")).toHaveCount(1);
          await page.getByRole("button", { name: save }).click();
          await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
          await expectNoAxeViolations(page, `${path} with errors`, "#admin-main");
          await shoot(page, `${path}/errors`, suffix);
        }
      });
    });
  }
}
