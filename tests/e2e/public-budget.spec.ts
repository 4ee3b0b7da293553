import { gzipSync } from "node:zlib";
import { expect, test } from "./fixtures";
import { type Response } from "@playwright/test";

/**
 * DESIGN.md §6: at most 130 KiB of gzipped JavaScript per public route.
 *
 * 1. Counted like a browser would load it before the page is interactive: every module the HTML preloads or imports.
 * 2. Everything a page fetches in Chromium after hydration and a scroll to the end: also within the budget.
 * 3. The forms' code (conform, zod/mini, the schemas: about 20 KiB) is fetched only when a visitor starts to use
 *    a form (lazy-forms.tsx). With it, the three form pages come to 144-155 KiB (November 2026), over the
 *    budget: the React and router runtime alone is 109 KiB. The home page has one form (its enquiry form; the
 *    contact form is on /contact since issue 27). The third test reports each total and holds it to
 *    FORM_IN_USE_CEILING, so it cannot grow unnoticed.
 */

const BUDGET = 130 * 1024;
// Every public route, the home page included: it was 131.1 KiB (1.1 over) from issue 27's fees, figures and
// testimonials until the browser's code was minified with terser instead of esbuild (128.2 KiB, November 2026).
const ROUTES = [
  "/",
  "/about",
  "/courses",
  "/courses?syllabus=soc-analyst-training-program",
  "/courses/soc-analyst-training-program",
  "/schedules",
  "/reviews",
  "/enquiry",
  "/contact",
  "/no-such-page",
];
// 155 KiB until the forms gained the privacy fields the DPDP Act asks for (issue 29: the short notice, the marketing
// choice, "I am under 18" and the guardian, with their checks): about 2 KiB; and in issue 31 the floating WhatsApp
// link stepping aside for the controls under it, and a route's notice above the header's bar (+0.4 KiB); 159 since
// the spec's three testimonials came back to the home page (its total with the enquiry form in use: 158.6 KiB); 156
// since terser minifies the browser's code (154.8 KiB); 157 since issue 37: the confirmation a person can keep (the
// reference, what was sent, where the copy went), the minor's honest answer, and the first edit or course choice that
// wakes the scripts clearing its message and showing its fee (156.5 KiB).
const FORM_IN_USE_CEILING = 157 * 1024;
const ADMIN_CODE = /admin|mdxeditor|syllabus-editor/i;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

test("each public route stays within 130 KiB of gzipped JavaScript, and loads no admin code", async ({ request }) => {
  const sizes = new Map<string, number>();
  const report: string[] = [];
  for (const route of ROUTES) {
    const html = await (await request.get(route)).text();
    const scripts = new Set<string>();
    for (const m of html.matchAll(/<link rel="modulepreload"[^>]*? href="([^"]+)"/g)) scripts.add(m[1]);
    // Public pages list their preloads in the script that starts them after the first paint (deferred-modules.server.ts).
    for (const m of html.matchAll(/\[((?:"[^"]+\.js",?)+)\]\.forEach/g)) for (const src of JSON.parse(`[${m[1]}]`) as string[]) scripts.add(src);
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

test("after hydration and a scroll to the end: within 130 KiB, no admin code", async ({ page }) => {
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
    report.push(`${route}: ${kib(total)} in ${scripts.length} files${total > BUDGET ? " (over its budget)" : ""}`);
    expect(total, `${route} after hydration: ${kib(total)}`).toBeLessThanOrEqual(BUDGET);
  }
  console.log(report.join("\n"));
});

test("once a visitor starts to fill in a form: the form's code is added, held to a ceiling", async ({ page }) => {
  test.setTimeout(60_000);
  const report: string[] = [];
  for (const [route, formId] of [
    ["/", "enquiry-home-form"],
    ["/enquiry", "enquiry-page-form"],
    ["/contact", "contact-form"],
  ]) {
    const fetched: Promise<number>[] = [];
    const onResponse = (res: Response) => {
      if (new URL(res.url()).pathname.endsWith(".js")) fetched.push(res.body().then((b) => gzipSync(b).length));
    };
    page.on("response", onResponse);
    await page.goto(route, { waitUntil: "networkidle" });
    const form = page.locator(`#${formId}`);
    await form.locator("input[name=email]").focus();
    await expect(form).toHaveAttribute("data-enhanced", "");
    await page.waitForLoadState("networkidle");
    page.off("response", onResponse);
    const total = (await Promise.all(fetched)).reduce((sum, n) => sum + n, 0);
    report.push(`${route} with #${formId} in use: ${kib(total)}`);
    expect.soft(total, `${route} #${formId}: ${kib(total)}`).toBeLessThanOrEqual(FORM_IN_USE_CEILING);
  }
  console.log(report.join("\n"));
});
