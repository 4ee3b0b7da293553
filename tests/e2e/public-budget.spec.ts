import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";

/**
 * DESIGN.md §6: at most 130 KiB of gzipped JavaScript per public route. Counted like a browser would load it
 * before the page is interactive: every module the HTML preloads or imports. (The forms' validation code is
 * fetched afterwards, when their Suspense boundary hydrates; it is reported separately, not counted here.)
 */

const BUDGET = 130 * 1024;
const ROUTES = ["/", "/about", "/courses", "/courses?syllabus=soc-analyst-training-program", "/courses/soc-analyst-training-program", "/schedules", "/reviews", "/enquiry", "/contact", "/no-such-page"];

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
      expect(src, `${route} loads admin code`).not.toMatch(/admin|mdxeditor|syllabus-editor/i);
      if (!sizes.has(src)) sizes.set(src, gzipSync(await (await request.get(src)).body()).length);
      total += sizes.get(src)!;
    }
    report.push(`${route}: ${(total / 1024).toFixed(1)} KiB in ${scripts.size} files`);
    expect(total, `${route}: ${(total / 1024).toFixed(1)} KiB`).toBeLessThanOrEqual(BUDGET);
  }
  console.log(report.join("\n"));
});
