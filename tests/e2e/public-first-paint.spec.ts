import { expect, test } from "./fixtures";

/**
 * A public page's JavaScript starts after its first paint (app/web/deferred-modules.server.ts): on a slow phone
 * the ~130 KB of modules would otherwise share the line with the stylesheet the first paint waits for.
 * Staff screens keep their modules in the head.
 */
for (const path of ["/", "/courses", "/schedules", "/enquiry"]) {
  test(`${path}: no module is requested before the first paint, and the page still hydrates`, async ({ page, request }) => {
    const html = await (await request.get(path)).text();
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toMatch(/<script[^>]* type="module"/);

    await page.goto(path); // the fixture waits for hydration
    const { paint, modules } = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-paint")[0]?.startTime,
      modules: performance
        .getEntriesByType("resource")
        .filter((r) => /\/assets\/.*\.js$/.test(r.name))
        .map((r) => r.startTime),
    }));
    expect(paint).toBeGreaterThan(0);
    expect(modules.length).toBeGreaterThan(3);
    expect(Math.min(...modules)).toBeGreaterThanOrEqual(paint);
    await expect(page.locator("header.site-header")).toHaveAttribute("data-enhanced", "");
  });
}

test("staff screens still preload their modules from the head", async ({ request }) => {
  const html = await (await request.get("/admin/login")).text();
  expect(html).toContain('<link rel="modulepreload" fetchpriority="low"');
  expect(html).toMatch(/<script[^>]* type="module"/);
});
