import { expect, test } from "./fixtures";

/**
 * A shorter home page (issue 27, item 6): at 375 px wide the whole document is at most 8,000 px tall, with one
 * enquiry form, the featured course once, the next three batches and a link to all, with JavaScript off and on.
 */
const MAX_HEIGHT = 8000;

for (const javaScriptEnabled of [false, true]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 375, height: 812 } });

    test("the home page at 375 px is at most 8,000 px tall and shows each thing once", async ({ page }) => {
      await page.goto("/");
      const height = await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body.scrollHeight));
      const parts = await page.evaluate(() =>
        [...document.querySelectorAll("header, main > *, footer")].map(
          (el) => `${el.id || el.tagName.toLowerCase()}:${Math.round(el.getBoundingClientRect().height)}`,
        ),
      );
      console.log(`home page height at 375 px, JavaScript ${javaScriptEnabled ? "on" : "off"}: ${height} px (${parts.join(" ")})`);
      expect(height).toBeLessThanOrEqual(MAX_HEIGHT);

      await expect(page.locator("main form")).toHaveCount(1);
      await expect(page.locator("#enquiry-home-form")).toHaveCount(1);
      await expect(page.locator("main article", { hasText: "Featured Program" })).toHaveCount(1);
      // The featured course is not listed again with the others.
      await expect(page.getByTestId("course-list").getByRole("link", { name: "SOC Analyst Training Program" })).toHaveCount(0);
      await expect(page.getByTestId("course-list").getByRole("link", { name: "Cloud Security Practitioner" })).toBeVisible();
      await expect(page.locator("#schedules-section").getByTestId("batch")).toHaveCount(3);
      await expect(page.locator("#schedules-section").getByRole("link", { name: "View Full Schedule" })).toHaveAttribute("href", "/schedules");
      await expect(page.locator("#courses-section").getByRole("link", { name: "View All Courses" })).toHaveAttribute("href", "/courses");
      await expect(page.locator("#contact-section").getByRole("link", { name: /contact page/i })).toHaveAttribute("href", "/contact");
    });
  });
}

/** Fees (issue 27, item 4) and Add to Google Calendar (item 7) as a visitor meets them, JavaScript off. */
test.describe("fees and Google Calendar, JavaScript off", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });

  test("the course page states its fee and its JSON-LD offer the price in INR", async ({ page }) => {
    await page.goto("/courses/soc-analyst-training-program");
    await expect(page.getByTestId("course-fee")).toHaveText("Fee: ₹45,000 (incl. GST)");
    const blocks = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((b) => JSON.parse(b));
    const course = blocks.find((b) => b["@type"] === "Course");
    expect(course.offers[0]).toMatchObject({ price: 45000, priceCurrency: "INR" });
    // The early-bird batch states its own price; the others the course's.
    await expect(page.getByTestId("batch-fee").filter({ hasText: "Early-bird: ₹40,000 (incl. GST)" })).toHaveCount(1);
    await page.goto("/courses/cloud-security-practitioner");
    await expect(page.getByTestId("course-fee")).toHaveText("Fee on request");
    await expect(page.locator("main")).not.toContainText("₹0");
  });

  test("the enquiry form shows the chosen course's fee", async ({ page }) => {
    await page.goto("/enquiry?course=Penetration+Testing+and+Ethical+Hacking");
    await expect(page.getByTestId("enquiry-fee")).toHaveText("Fee: ₹38,000 + GST");
    await page.goto("/enquiry?course=Cloud+Security+Practitioner");
    await expect(page.getByTestId("enquiry-fee")).toHaveText("Fee on request");
  });

  test("every batch card links to Google Calendar beside the .ics file", async ({ page }) => {
    await page.goto("/schedules");
    const card = page.getByTestId("batch").first();
    await expect(card.getByRole("link", { name: /^Add to calendar:/ })).toHaveAttribute("href", /\.ics$/);
    const href = await card.getByRole("link", { name: /^Add to Google Calendar:/ }).getAttribute("href");
    const url = new URL(href!);
    expect(`${url.origin}${url.pathname}`).toBe("https://calendar.google.com/calendar/render");
    expect(url.searchParams.get("action")).toBe("TEMPLATE");
    for (const key of ["text", "dates", "details", "location"]) expect(url.searchParams.get(key)).toBeTruthy();
    expect(url.searchParams.get("dates")).toMatch(/^\d{8}(T\d{6})?\/\d{8}(T\d{6})?$/);
  });
});
