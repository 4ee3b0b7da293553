import { blockAppScripts, expect, expectNoAxeViolations, fieldMessage, test } from "./fixtures";

/**
 * axe (its default rules: WCAG 2.1 A and AA and the best practices, see expectNoAxeViolations) finds nothing on any
 * public page, at 375 and 1280 px, in each state a visitor can reach.
 */

const PAGES = [
  "/",
  "/about",
  "/courses",
  "/courses?category=advanced",
  "/courses?syllabus=soc-analyst-training-program",
  "/courses?syllabus=cloud-security-practitioner",
  "/courses/soc-analyst-training-program",
  "/schedules",
  "/schedules?mode=offline",
  "/reviews",
  "/reviews?course=Cloud",
  "/enquiry?course=Cloud%20Security%20Practitioner&date=2027-01-05",
  "/contact",
  "/no-such-page",
];

/**
 * Two ways a page is seen: hydrated (JavaScript on), and as the server sent it. axe needs JavaScript to run, so
 * "as sent" is the page with its own scripts blocked: the DOM a visitor without JavaScript gets.
 */
for (const mode of ["hydrated", "server-rendered"] as const) {
  test.describe(mode, () => {
    test.beforeEach(async ({ page }) => {
      if (mode === "server-rendered") await blockAppScripts(page);
    });

    for (const width of [375, 1280]) {
      for (const path of PAGES) {
        test(`no violations on ${path} at ${width} px`, async ({ page }) => {
          await page.setViewportSize({ width, height: 800 });
          await page.goto(path);
          await expectNoAxeViolations(page, `${path} at ${width} px`);
          if (path === "/" || path === "/courses") {
            // Scrolled: the header has turned white over the content.
            await page.evaluate(() => window.scrollTo(0, 900));
            await page.waitForTimeout(300);
            await expectNoAxeViolations(page, `${path} scrolled at ${width} px`);
          }
        });
      }
    }

    test("no violations with the forms' error messages and success panels showing", async ({ page }) => {
      // With JavaScript the first click also fetches the form's code; the submit waits for it (lazy-forms).
      await page.goto("/contact");
      await page.getByRole("button", { name: "Send Message" }).click();
      await expect(fieldMessage(page, "Name is required")).toBeVisible();
      if (mode === "hydrated") await expect(page.locator("#contact-form")).toHaveAttribute("data-enhanced", "");
      await expectNoAxeViolations(page, "contact errors");

      await page.goto("/enquiry");
      await page.getByRole("button", { name: "Submit Registration" }).click();
      await expect(fieldMessage(page, "Full name is required")).toBeVisible();
      if (mode === "hydrated") await expect(page.locator("#enquiry-page-form")).toHaveAttribute("data-enhanced", "");
      await expectNoAxeViolations(page, "enquiry errors");

      const form = page.locator("#enquiry-page-form");
      await form.getByLabel("Full Name").fill("Axe Visitor");
      await form.getByLabel("Email").fill("axe@example.com");
      await form.getByLabel("Phone Number").fill("9876543210");
      await form.getByLabel("Preferred Course").selectOption({ index: 1 });
      await form.getByLabel("Preferred Mode").selectOption("online");
      await form.getByRole("button", { name: "Submit Registration" }).click();
      await expect(page.getByRole("heading", { name: "Registration Successful!" })).toBeVisible();
      await expectNoAxeViolations(page, "enquiry success");
    });
  });
}

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test("no violations with the mobile menu open", async ({ page }) => {
    await page.goto("/courses");
    await page.locator("summary", { hasText: "Menu" }).click();
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
    await expectNoAxeViolations(page, "mobile menu");
  });
});
