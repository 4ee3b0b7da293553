import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_BASE_URL } from "./env";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * Security headers on every kind of response (pages, API, static files, errors), the CSP nonce really used
 * by the page's scripts, no CSP violations in the browser on the public and staff screens, HSTS only for an
 * https deployment, and uploaded files served so a browser never runs them.
 */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

function expectBaseHeaders(headers: Headers, what: string) {
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
  expect(headers.get("x-frame-options"), what).toBe("DENY");
  expect(headers.get("x-powered-by"), what).toBeNull();
  const csp = directives(headers.get("content-security-policy") ?? "");
  const script = csp.get("script-src") ?? [];
  expect(script, what).toContain("'self'");
  expect(
    script.some((s) => /^'nonce-[A-Za-z0-9+/=]{16,}'$/.test(s)),
    what,
  ).toBe(true);
  expect(script.join(" "), what).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  expect(csp.get("script-src-attr"), what).toEqual(["'none'"]);
  expect(csp.get("object-src"), what).toEqual(["'none'"]);
  expect(csp.get("base-uri"), what).toEqual(["'none'"]);
  expect(csp.get("frame-ancestors"), what).toEqual(["'none'"]);
  expect(csp.get("frame-src"), what).toEqual(["https://www.openstreetmap.org"]);
  expect(csp.get("default-src"), what).toEqual(["'self'"]);
  expect(csp.get("form-action"), what).toEqual(["'self'"]);
  return csp;
}

test.describe("headers on the shared server (http)", () => {
  test("pages, API, errors and static files all carry the headers; no HSTS over http", async () => {
    const home = await fetch(`${E2E_BASE_URL}/`);
    const html = await home.text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const targets = [
      "/",
      "/courses",
      "/contact",
      "/enquiry",
      "/admin/login",
      "/api/courses",
      "/healthz",
      "/no-such-page",
      "/favicon.svg",
      asset!,
      "/media/images/missing.webp",
    ];
    for (const target of targets) {
      const res = await fetch(`${E2E_BASE_URL}${target}`, { redirect: "manual" });
      expectBaseHeaders(res.headers, target);
      expect(res.headers.get("strict-transport-security"), target).toBeNull();
      expect(res.headers.get("x-request-id"), target).toMatch(/^[0-9a-f]{16}$/);
    }
    // Staff screens and API answers are never kept in a shared or browser cache.
    for (const target of ["/admin/login", "/admin/courses", "/api/auth/me", "/api/enquiries"]) {
      const res = await fetch(`${E2E_BASE_URL}${target}`, { redirect: "manual" });
      expect(res.headers.get("cache-control"), target).toMatch(/no-store/);
    }
  });

  test("every script in the page carries this response's nonce, and the nonce changes per response", async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${E2E_BASE_URL}/`);
      const csp = directives(res.headers.get("content-security-policy")!);
      const nonce = csp
        .get("script-src")!
        .find((s) => s.startsWith("'nonce-"))!
        .slice(7, -1);
      nonces.push(nonce);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attrs of scripts) {
        if (/type="application\/ld\+json"/.test(attrs)) continue; // data, not script
        expect(attrs).toContain(`nonce="${nonce}"`);
      }
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test("no CSP violation on the public pages and the staff screens", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(`${page.url()}: ${msg.text()}`);
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`Refused to: CSP ${e.violatedDirective} ${e.blockedURI}`));
    });
    for (const target of ["/", "/about", "/courses", "/courses?syllabus=soc-analyst-training-program", "/schedules", "/reviews", "/enquiry", "/contact"]) {
      await page.goto(target);
      await page.waitForLoadState("networkidle");
      // A form's code (zod among it) loads when a visitor starts to use the form.
      const field = page.locator("form input[name=email]").first();
      if (await field.count()) {
        await field.focus();
        await expect(field.locator("xpath=ancestor::form")).toHaveAttribute("data-enhanced", "");
      }
    }
    await page.goto("/admin/login");
    await page.getByLabel(/email/i).fill(ADMIN_EMAIL);
    await page.getByLabel(/password/i).fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(/\/admin\/courses/);
    for (const target of ["/admin/courses", "/admin/courses/new", "/admin/dashboard", "/admin/enquiries", "/admin/reviews", "/admin/users"]) {
      // A screen may still be settling its own client-side navigation; a second try lands on the target.
      await page.goto(target).catch(() => page.goto(target));
      await page.waitForLoadState("networkidle");
    }
    expect(violations).toEqual([]);
  });
});

test.describe("an https deployment", () => {
  let server: TestServer;
  const image = `${"a".repeat(32)}.webp`;
  const syllabus = `${"b".repeat(32)}.pdf`;
  const attachment = `${"c".repeat(32)}-cv.pdf`;

  test.beforeAll(async () => {
    server = await startServer(2, { PUBLIC_URL: "https://soc-institute.example", TRUST_PROXY: "true" });
    for (const [folder, name, body] of [
      ["images", image, "RIFF....WEBPVP8 "],
      ["syllabus", syllabus, "%PDF-1.4\n<html><script>alert(1)</script>"],
      ["enquiries", attachment, "%PDF-1.4\n"],
      ["tmp", "partial", "x"],
    ]) {
      fs.mkdirSync(path.join(server.uploadDir, folder), { recursive: true });
      fs.writeFileSync(path.join(server.uploadDir, folder, name), body);
    }
    fs.writeFileSync(path.join(server.uploadDir, "images", ".hidden"), "secret");
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("HSTS, upgrade-insecure-requests and a Secure session cookie", async () => {
    for (const target of ["/", "/api/courses", "/admin/login", "/favicon.svg"]) {
      const res = await fetch(`${server.url}${target}`);
      const csp = expectBaseHeaders(res.headers, target);
      expect(res.headers.get("strict-transport-security"), target).toBe("max-age=31536000; includeSubDomains");
      expect(csp.has("upgrade-insecure-requests"), target).toBe(true);
    }
    const login = await fetch(`${server.url}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }),
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    const cookie = login.headers.get("set-cookie") ?? "";
    // Over https the cookie carries the __Host- prefix: Secure, Path=/ and no Domain, or browsers refuse it.
    expect(cookie).toMatch(/^__Host-session=/);
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
    expect(cookie).not.toMatch(/;\s*Domain=/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
  });

  test("course images display inline; syllabus files download; neither is sniffed", async () => {
    const img = await fetch(`${server.url}/media/images/${image}`);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/webp");
    expect(img.headers.get("content-disposition")).toBeNull();
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");

    const pdf = await fetch(`${server.url}/media/syllabus/${syllabus}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(pdf.headers.get("x-content-type-options")).toBe("nosniff");
    expect(directives(pdf.headers.get("content-security-policy") ?? "").has("sandbox")).toBe(true);
  });

  test("attachments, partial uploads and dot files are never served as media", async () => {
    for (const target of [
      `/media/enquiries/${attachment}`,
      `/media/images/../enquiries/${attachment}`,
      `/media/images/..%2fenquiries%2f${attachment}`,
      `/media/syllabus/..%2f..%2fapp.db`,
      "/media/tmp/partial",
      "/media/images/.hidden",
      `/enquiries/${attachment}`,
      "/uploads/tmp/partial",
    ]) {
      const res = await fetch(`${server.url}${target}`);
      expect(res.status, target).toBe(404);
      expect(await res.text(), target).not.toMatch(/%PDF|secret/);
    }
  });
});
