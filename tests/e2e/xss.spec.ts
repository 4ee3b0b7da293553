import { expect, test, waitForHydration } from "./fixtures";
import { type Page } from "@playwright/test";
import { closeDb, openDb } from "~db/client.server";
import { renderMarkdown } from "~/util/markdown.server";
import { XSS_CORPUS } from "~/util/markdown.server.xss-corpus";
import { insertCourse } from "~/models/course.server";
import { startServer, type TestServer } from "./servers";

/**
 * The stored-XSS corpus rendered in Chromium. First the sanitiser alone (no CSP at all): nothing may run even
 * when every element is hovered, focused and clicked. Then for real: a course whose syllabus is the corpus,
 * created through the model in the database of a server started for this test, on its course page and in the
 * syllabus dialog, under the app's own headers.
 */
declare global {
  interface Window {
    __xss: (n: number) => void;
    __hits: number[];
  }
}

async function watch(page: Page): Promise<{ dialogs: string[] }> {
  const seen = { dialogs: [] as string[] };
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    window.__hits = [];
    window.__xss = (n: number) => window.__hits.push(n);
  });
  return seen;
}

/** Hover, focus and click everything that could carry a handler or a URL, without leaving the page. */
async function poke(page: Page, scope: string) {
  await page.evaluate((selector) => {
    const root = document.querySelector(selector);
    if (!root) throw new Error(`Nothing matches ${selector}`);
    for (const el of root.querySelectorAll<HTMLElement>("*")) {
      for (const type of ["mouseover", "mouseenter", "pointerenter", "pointerover", "focus", "focusin", "animationstart", "toggle"])
        el.dispatchEvent(new Event(type));
      el.focus?.();
    }
    // Only script-bearing schemes are clicked: any other link would navigate away from the page under test.
    for (const a of root.querySelectorAll("a")) if (/^(javascript|vbscript|data):/i.test(a.href)) a.click();
  }, scope);
  await page.waitForTimeout(500);
}

async function inspect(page: Page, scope: string) {
  return page.evaluate((selector) => {
    const root = document.querySelector(selector);
    if (!root) throw new Error(`Nothing matches ${selector}`);
    const bad: string[] = [];
    for (const el of root.querySelectorAll("*")) {
      for (const attr of el.getAttributeNames()) if (/^on/i.test(attr)) bad.push(`${el.tagName} ${attr}`);
      if (
        ["SCRIPT", "IFRAME", "OBJECT", "EMBED", "FORM", "BASE", "META", "LINK", "STYLE", "SVG", "MATH", "FRAME", "FRAMESET"].includes(el.tagName.toUpperCase())
      )
        bad.push(el.tagName);
    }
    for (const a of root.querySelectorAll("a"))
      if (a.hasAttribute("href") && !["http:", "https:", "mailto:", "tel:"].includes(a.protocol)) bad.push(`a ${a.href}`);
    for (const img of root.querySelectorAll("img")) {
      const src = img.getAttribute("src");
      if (src && !/^https?:$/.test(URL.canParse(img.src) ? new URL(img.src).protocol : "invalid")) bad.push(`img ${img.src}`);
    }
    return { bad, hits: window.__hits };
  }, scope);
}

/** Serves the given HTML at http://corpus.test/ (so relative URLs resolve as on the site) with no CSP; nothing else loads. */
async function serve(page: Page, html: string) {
  await page.route("**/*", (route) =>
    route.request().url() === "http://corpus.test/" ? route.fulfill({ contentType: "text/html", body: html }) : route.fulfill({ status: 404, body: "" }),
  );
  await page.goto("http://corpus.test/");
}

test("the sanitised corpus runs no script in Chromium, even without a CSP", async ({ page }) => {
  const seen = await watch(page);
  const html = XSS_CORPUS.map((p, i) => `<section data-n="${i + 1}">${renderMarkdown(p)}</section>`).join("\n");
  await serve(page, `<!DOCTYPE html><html><head><title>corpus</title></head><body><main id="corpus">${html}</main></body></html>`);
  await poke(page, "#corpus");
  const { bad, hits } = await inspect(page, "#corpus");
  expect(hits).toEqual([]);
  expect(seen.dialogs).toEqual([]);
  expect(bad).toEqual([]);
  // The harmless parts survived: this really is the rendered corpus.
  await expect(page.locator('#corpus span[style="color:#b91c1c"]', { hasText: "safe red" })).toHaveCount(1);
});

test("the unsanitised corpus does run script in the same harness (the harness can see a hit)", async ({ page }) => {
  await watch(page);
  await serve(page, `<!DOCTYPE html><html><body><main id="raw">${XSS_CORPUS.slice(0, 4).join("\n")}</main></body></html>`);
  await poke(page, "#raw");
  const { hits } = await inspect(page, "#raw");
  expect(hits.length).toBeGreaterThan(0);
});

/**
 * One Markdown document holding the whole corpus. The harmless item goes first so the test can see the syllabus
 * rendered; payloads that open a raw-text block Markdown never closes (an unclosed <style>) go last, since
 * they swallow whatever follows them (each is also rendered on its own in the first test).
 */
function syllabus(): string {
  const swallows = (p: string) => /<style>(?![\s\S]*<\/style>)/i.test(p);
  const safe = XSS_CORPUS[XSS_CORPUS.length - 1];
  const rest = XSS_CORPUS.slice(0, -1);
  return [safe, ...rest.filter((p) => !swallows(p)), ...rest.filter(swallows)].join("\n\n");
}

test.describe("a course whose syllabus is the corpus", () => {
  let server: TestServer;
  const slug = "xss-corpus-course";

  test.beforeAll(async () => {
    server = await startServer(3);
    await openDb(`file:${server.dbFile}`);
    try {
      const course = await insertCourse({
        title: "XSS Corpus Course",
        category: "beginner",
        duration: "1 week",
        description: `Description with <script>__xss(1000)</script> and <img src=x onerror=__xss(1001)>`,
        highlights: ['<img src=x onerror="__xss(1002)">'],
        syllabus: syllabus(),
      });
      expect(course.slug).toBe(slug);
    } finally {
      await closeDb();
    }
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  for (const javaScriptEnabled of [true, false]) {
    test(`course page, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      const seen = await watch(page);
      const response = await page.goto(`${server.url}/courses/${slug}`);
      if (javaScriptEnabled) await waitForHydration(page); // a page of its own context: not the fixture's page
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-security-policy"]).toContain("script-src 'self' 'nonce-");
      await expect(page.getByText("safe red").first()).toBeVisible();
      if (javaScriptEnabled) await poke(page, "main");
      const { bad, hits } = await inspect(page, ".syllabus-content");
      expect(hits).toEqual([]);
      expect(seen.dialogs).toEqual([]);
      expect(bad).toEqual([]);
      await context.close();
    });
  }

  test("syllabus dialog on /courses", async ({ page }) => {
    const seen = await watch(page);
    const response = await page.goto(`${server.url}/courses?syllabus=${slug}`);
    expect(response?.status()).toBe(200);
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("safe red")).toBeVisible();
    await poke(page, "dialog[open] .syllabus-content, [role=dialog] .syllabus-content");
    const { bad, hits } = await inspect(page, "dialog[open] .syllabus-content, [role=dialog] .syllabus-content");
    expect(hits).toEqual([]);
    expect(seen.dialogs).toEqual([]);
    expect(bad).toEqual([]);
  });
});
