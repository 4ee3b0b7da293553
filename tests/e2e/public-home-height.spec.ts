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
        [...document.querySelectorAll("header, main > *, footer")].map((el) => `${el.id || el.tagName.toLowerCase()}:${Math.round(el.getBoundingClientRect().height)}`),
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
