import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./env";

/**
 * What the specs share: signing in through the real form, names no other test uses, small files the upload
 * checks accept, and rows made through the public API. Servers of a spec's own are in ./servers.ts.
 */
export { ADMIN_EMAIL, ADMIN_PASSWORD, expect };

type Navigation = "goto" | "reload" | "goBack" | "goForward";
const NAVIGATIONS: Navigation[] = ["goto", "reload", "goBack", "goForward"];

/**
 * axe finds no violation: in the whole page, or only in `within` (a screen's own content, when the frame around it
 * is checked by the frame's own spec). axe-core's default rules, as an outside checker runs it: WCAG 2.x A/AA and
 * the best practices (every piece of content in a landmark: `region`; one main, headings in order …), plus the
 * experimental label-content-name-mismatch (WCAG 2.5.3: a control's visible text is part of its name).
 */
export async function expectNoAxeViolations(page: Page, label: string, within?: string) {
  const builder = new AxeBuilder({ page }).options({ rules: { "label-content-name-mismatch": { enabled: true } } });
  const results = await (within ? builder.include(within) : builder).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, label).toEqual([]);
}

const withoutAppScripts = new WeakSet<Page>();

/**
 * The page as the server sent it, for axe: the browser keeps its JavaScript (axe runs as a script in the page)
 * but never loads the app's.
 */
export async function blockAppScripts(page: Page) {
  withoutAppScripts.add(page);
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
}

/**
 * With JavaScript on, a page the test navigates to is only handed back once it has hydrated: public pages start
 * their modules at the first sign of use after the first paint (app/web/deferred-modules.server.ts), which the
 * fixture gives them, and a test acting before then would test the plain HTML by chance. A test about
 * the moments before hydration navigates with `waitUntil: "commit"` or `"domcontentloaded"`.
 */
export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled) {
      for (const name of NAVIGATIONS) {
        const navigate = page[name].bind(page) as (...args: unknown[]) => ReturnType<Page[Navigation]>;
        (page as unknown as Record<Navigation, unknown>)[name] = async (...args: unknown[]) => {
          const response = await navigate(...args);
          const options = args.find((a): a is { waitUntil?: string } => typeof a === "object" && a !== null);
          const early = options?.waitUntil === "commit" || options?.waitUntil === "domcontentloaded";
          if (!early && !withoutAppScripts.has(page)) await waitForHydration(page);
          return response;
        };
      }
    }
    await use(page);
  },
});

/**
 * Until this page's modules have run and, on a public page, its header has hydrated; at once on anything else.
 * A public page starts its modules at the first sign of use (or a few idle seconds after its load), so the test
 * first moves the pointer, as a visitor would.
 */
export async function waitForHydration(page: Page) {
  await page.evaluate(() => window.dispatchEvent(new Event("pointermove"))).catch(() => {});
  await page.waitForFunction(
    () => {
      const w = window as unknown as Record<string, unknown>;
      if (!w.__reactRouterContext) return true; // not one of our pages (a JSON answer, a download)
      const header = document.querySelector("header.site-header");
      return (
        typeof w.__reactRouterRouteModules === "object" &&
        !document.querySelector("script[type='text/x-deferred-module']") &&
        (!header || header.hasAttribute("data-enhanced"))
      );
    },
    undefined,
    { timeout: 15_000 },
  );
}

/** Signs in through the real login form (works with JavaScript on or off) and waits for the course list. */
export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
}

/** A staff API token for the admin (the JSON API's login), for arranging what a test needs through the API. */
export async function staffToken(request: APIRequestContext): Promise<string> {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  expect(login.status()).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

/** A unique name such as "Trainer lq3k9a2x", so tests sharing the e2e database (and both JavaScript modes) never collide. */
export function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A short unique tag without spaces ("Tag" + 8 characters), for search boxes and e-mail addresses. */
export function uniqueTag(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A few-pixel PNG made on the spot, for image uploads. */
export async function pngFile(name = "course.png") {
  const buffer = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 30, g: 64, b: 175 } } })
    .png()
    .toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/** The smallest file the server's content check accepts as a PDF. */
export function pdfFile(name = "syllabus.pdf") {
  return { name, mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n") };
}

/** Sends an enquiry the way an integration would: the public JSON API. */
export async function postEnquiry(request: APIRequestContext, over: Record<string, unknown> = {}) {
  const res = await request.post("/api/enquiries", {
    data: {
      fullName: "E2E Student",
      email: "student@example.com",
      phone: "98765 43210",
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "online",
      message: "Weekend batch?",
      ...over,
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data;
}

export async function postContactQuery(request: APIRequestContext, over: Record<string, unknown> = {}) {
  const res = await request.post("/api/contact-queries", {
    data: {
      name: "E2E Visitor",
      email: "visitor@example.com",
      phone: "+91 90000 11111",
      subject: "Weekend batch",
      message: "Do you run weekend batches?",
      ...over,
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data;
}

/**
 * Holds the requests to `url` (only those of `method`, when given) until the returned function is called, so a
 * pending state ("Submitting...", "Signing in...") can be seen however fast this machine answers.
 */
export async function holdRequests(page: Page, url: string | RegExp, method?: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    if (!method || route.request().method() === method) await released;
    await route.continue();
  });
  return release;
}

/**
 * A form field's own message (`<p id="…-error">`), not the error summary's link to it that repeats the text at the
 * form's top. Exact text.
 */
export function fieldMessage(scope: Page | Locator, text: string): Locator {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return scope.locator('[id$="-error"]', { hasText: new RegExp(`^\\s*${escaped}\\s*$`) });
}
