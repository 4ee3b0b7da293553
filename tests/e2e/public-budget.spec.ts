import { gzipSync } from "node:zlib";
import { expect, test, type Response } from "@playwright/test";

/**
 * DESIGN.md §6: at most 130 KiB of gzipped JavaScript per public route. Counted like a browser would load it
 * before the page is interactive: every module the HTML preloads or imports.
 *
 * The forms' validation code (zod and conform, about 37 KiB gzipped) is fetched afterwards, when the form's
 * Suspense boundary hydrates. The second test loads each page in Chromium, scrolls to the end and reports
 * everything the page fetched, deferred code included. Pages without a form must stay within the budget.
 * On the pages with forms (/enquiry, /contact, and home once scrolled to them) that total is over the budget
 * (163-171 KiB in November 2026), a known gap: until it is closed they are held to FORM_PAGE_CEILING, so the
 * gap cannot grow unnoticed.
 */

const BUDGET = 130 * 1024;
const ROUTES = ["/", "/about", "/courses", "/courses?syllabus=soc-analyst-training-program", "/courses/soc-analyst-training-program", "/schedules", "/reviews", "/enquiry", "/contact", "/no-such-page"];
const FORM_PAGES = new Set(["/", "/enquiry", "/contact"]);
const FORM_PAGE_CEILING = 175 * 1024;
const ADMIN_CODE = /admin|mdxeditor|syllabus-editor/i;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

test("each public route stays within 130 KiB of gzipped JavaScript, and loads no admin code", async ({ request }) => {
  const sizes = new Map<string, number>();
  const report: string[] = [];
  for (const route of ROUTES) {
    const html = await (await request.get(route)).text();
    const scripts = new Set<string>();
    for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) scripts.add(m[1]);
    for (const m of html.matchAll(/import\("([^"]+\.js)"\)|import \* as \w+ from "([^"]+\.js)"/g)) scripts.add(m[1] ?? m[2]);
    expect(scripts.size, route).toBeGreaterThan(0);
    let total = 0;
    for (const src of scripts) {
      expect(src, `${route} loads admin code`).not.toMatch(ADMIN_CODE);
      if (!sizes.has(src)) sizes.set(src, gzipSync(await (await request.get(src)).body()).length);
      total += sizes.get(src)!;
    }
    report.push(`${route}: ${kib(total)} in ${scripts.size} files`);
    expect(total, `${route}: ${kib(total)}`).toBeLessThanOrEqual(BUDGET);
  }
  console.log(report.join("\n"));
});

test("after hydration and a scroll to the end: pages without forms within 130 KiB, form pages no bigger than today, no admin code", async ({ page }) => {
  test.setTimeout(120_000);
  const report: string[] = [];
  for (const route of ROUTES) {
    const fetched: Promise<{ url: string; gz: number }>[] = [];
    const onResponse = (res: Response) => {
      if (new URL(res.url()).pathname.endsWith(".js")) fetched.push(res.body().then((b) => ({ url: res.url(), gz: gzipSync(b).length })));
    };
    page.on("response", onResponse);
    await page.goto(route, { waitUntil: "networkidle" });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    page.off("response", onResponse);
    const scripts = await Promise.all(fetched);
    for (const s of scripts) expect(s.url, `${route} loads admin code`).not.toMatch(ADMIN_CODE);
    const total = scripts.reduce((sum, s) => sum + s.gz, 0);
    report.push(`${route}: ${kib(total)} in ${scripts.length} files${total > BUDGET ? " (over the 130 KiB budget)" : ""}`);
    expect(total, `${route} after hydration: ${kib(total)}`).toBeLessThanOrEqual(FORM_PAGES.has(route) ? FORM_PAGE_CEILING : BUDGET);
  }
  console.log(report.join("\n"));
});
