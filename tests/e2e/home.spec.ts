import { expect, test } from "./fixtures";

const COURSES = [
  "SOC Analyst Training Program",
  "Cybersecurity Fundamentals",
  "Penetration Testing and Ethical Hacking",
  "Network Security Specialist",
  "Cloud Security Practitioner",
];

for (const javaScriptEnabled of [true, false]) {
  test.describe(`home page, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    test("lists the demo courses from the database", async ({ page }) => {
      const response = await page.goto("/");
      expect(response?.status()).toBe(200);
      for (const title of COURSES) await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
    });
  });
}

test("healthz answers ok", async ({ request }) => {
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ok" });
});

test("unknown paths answer 404 with Page Not Found", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
});
