import { expect, test } from "./fixtures";

/**
 * A page answered from the page cache (server/page-cache.ts) runs its own scripts under this response's nonce,
 * and the policy still blocks an injected script, including one carrying the nonce of an earlier answer.
 */
test.use({ javaScriptEnabled: true });

test("a cached page hydrates under a fresh nonce, and the CSP still blocks an injected script", async ({ page, request }) => {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  });
  // Another visitor's answer: it fills the cache.
  const first = await request.get("/about?cache-csp");
  const firstNonce = /'nonce-([^']+)'/.exec(first.headers()["content-security-policy"])![1];
  const second = await page.goto("/about?cache-csp");
  expect(second!.headers()["x-page-cache"]).toBe("hit");
  const nonce = /'nonce-([^']+)'/.exec(second!.headers()["content-security-policy"])![1];
  expect(nonce).not.toBe(firstNonce);

  // The page's own modules ran (React Router keeps its route modules on window once hydrated).
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as Record<string, unknown>).__reactRouterRouteModules)).toBe("object");
  expect(violations).toEqual([]);

  const inject = (withNonce: string | null) =>
    page.evaluate(async (n) => {
      const w = window as unknown as Record<string, unknown>;
      delete w.__injected;
      const s = document.createElement("script");
      if (n) s.nonce = n;
      s.textContent = "window.__injected = true";
      document.body.append(s);
      await new Promise((r) => setTimeout(r, 50));
      return w.__injected === true;
    }, withNonce);
  expect(await inject(null)).toBe(false);
  expect(await inject(firstNonce)).toBe(false);
  // The control: with this answer's nonce the same script runs, so the two refusals above are the policy's doing.
  expect(await inject(nonce)).toBe(true);
  expect(violations.length).toBeGreaterThanOrEqual(2);

  // A reload revalidates (304): the browser keeps its page and the policy that came with it, and it hydrates again.
  violations.length = 0;
  const revalidated = page.waitForResponse((r) => new URL(r.url()).search === "?cache-csp" && r.request().resourceType() === "document");
  await page.reload();
  // Chromium reports the kept copy (status 200, its stored headers): the nonce it had, not a new one.
  expect(/'nonce-([^']+)'/.exec((await revalidated).headers()["content-security-policy"])![1]).toBe(nonce);
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as Record<string, unknown>).__reactRouterRouteModules)).toBe("object");
  expect(violations).toEqual([]);
});
