import { expect, signIn, test } from "./fixtures";

test("the dashboard shows real counts and the recent panels", async ({ page }) => {
  await signIn(page);
  await page.goto("/admin/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  // The seed holds at least 5 courses and 7 reviews; the spec's placeholders (12, 24, 18) would not match these.
  expect(Number(await page.getByTestId("count-Total Courses").textContent())).toBeGreaterThanOrEqual(5);
  expect(Number(await page.getByTestId("count-Total Reviews").textContent())).toBeGreaterThanOrEqual(7);
  expect(Number(await page.getByTestId("count-Active Schedules").textContent())).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole("heading", { name: "Recent Enquiries" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent Reviews" })).toBeVisible();
  const recentReviews = page.getByRole("region", { name: "Recent Reviews" }).getByRole("listitem");
  await expect(recentReviews.first()).toBeVisible();
  expect(await recentReviews.count()).toBeLessThanOrEqual(5);
});
