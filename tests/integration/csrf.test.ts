import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, db, openDb } from "~db/client.server";
import { ADMIN, apiClient, startApiServer, signInCookie } from "../helpers/api-server";

/**
 * Cross-site request forgery, for every route module under /admin and /api: a write carrying a valid staff
 * session cookie and a foreign Origin is refused with 403 in the site's error shape and changes nothing;
 * the same write from the site's own pages works.
 */
const server = startApiServer();
const api = apiClient(server);
const EVIL = "http://evil.example";

let cookie = "";
const ids: Record<string, string> = {};

/** The URL path a flat-routes file name stands for, with real ids for its parameters. */
function routePath(file: string): string | null {
  const name = file.replace(/\.tsx?$/, "");
  if (!/^(admin|api)[._]/.test(name)) return null;
  // `[.]` is a literal dot (api.openapi[.]json); every other dot separates segments.
  const segments = name
    .split(/(?<!\[)\.(?!\])/)
    .map((seg) => seg.replace("[.]", "."))
    .map((seg) => seg.replace(/_$/, ""))
    .filter((seg) => seg !== "_index");
  const parts = segments.map((seg) => {
    if (seg === "$") return "no-such-page";
    if (seg === "$id") return ids[file.split(".")[1]] ?? ids.any;
    if (seg.startsWith("$")) return "some-file.pdf";
    return seg;
  });
  return `/${parts.join("/")}`;
}

const ROUTE_FILES = fs.readdirSync(path.resolve(import.meta.dirname, "../../app/routes")).filter((f) => /^(admin|api)[._]/.test(f));

/** Every row of every table: any change at all shows as a different digest. */
async function digest(): Promise<string> {
  const tables = ["courses", "schedules", "reviews", "enquiries", "contact_queries", "users", "revoked_sessions", "audit_log"] as const;
  const hash = createHash("sha256");
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by ${sql.ref("id")}`.execute(db());
    hash.update(`${table}:${JSON.stringify(rows.rows)}`);
  }
  return hash.digest("hex");
}

beforeAll(async () => {
  cookie = await signInCookie(server.url);
  const token = await api.login(ADMIN.email, ADMIN.password);
  const first = async (p: string) => (await api.get(p, { token })).body.data[0].id as string;
  ids.courses = await first("/api/courses");
  ids.schedules = await first("/api/schedules");
  ids.reviews = await first("/api/reviews?status=pending");
  ids.enquiries = (
    await api.post("/api/enquiries", {
      json: { fullName: "Csrf Test", email: "c@example.com", phone: "9876543210", preferredCourse: "SOC Analyst Training Program", preferredMode: "online" },
    })
  ).body.data.id;
  ids["contact-queries"] = (await api.post("/api/contact-queries", { json: { name: "Csrf Test", email: "c@example.com", message: "Hi" } })).body.data.id;
  ids.users = (await api.get("/api/auth/me", { token })).body.data.id;
  ids.any = ids.courses;
  ids.auth = ids.users;
  await openDb(server.databaseUrl);
}, 120_000);

afterAll(async () => {
  await closeDb();
});

/**
 * The ways a path can be spelt that React Router still routes to the same module (it matches case-insensitively,
 * on the percent-decoded path, and the URL parser folds "//"): a guard that tests the raw spelling misses them.
 * Only the first segment changes, so an id later in the path still names a real record.
 */
function spellings(urlPath: string): string[] {
  const [, first, rest] = /^\/([^/]+)(.*)$/.exec(urlPath)!;
  return [
    urlPath,
    `/${first.toUpperCase()}${rest}`,
    `/${first[0].toUpperCase()}${first.slice(1)}${rest}`,
    `/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${rest}`,
    `//${first}${rest}`,
  ];
}

describe("a write with the staff cookie from another site", () => {
  it("is refused with 403 and changes nothing, on every /admin and /api route and method, however the path is spelt", async () => {
    const before = await digest();
    const checked: string[] = [];
    for (const file of ROUTE_FILES) {
      const canonical = routePath(file);
      if (!canonical) continue;
      const api = canonical.startsWith("/api");
      for (const urlPath of spellings(canonical)) {
        for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
          const res = await fetch(`${server.url}${urlPath}`, {
            method,
            headers: { Cookie: cookie, Origin: EVIL, "Content-Type": api ? "application/json" : "application/x-www-form-urlencoded" },
            body: api
              ? JSON.stringify({ status: "closed", name: "Forged", email: "forged@example.com", password: "forged-password-1", role: "admin" })
              : "intent=status&status=closed&name=Forged",
            redirect: "manual",
          });
          const text = await res.text();
          expect(res.status, `${method} ${urlPath} (${file})`).toBe(403);
          if (api)
            expect(JSON.parse(text), `${method} ${urlPath}`).toEqual({ error: { code: "cross_origin", message: "Cross-site requests are not allowed" } });
          else expect(text, `${method} ${urlPath}`).toContain("<h1");
          checked.push(`${method} ${urlPath}`);
        }
      }
    }
    expect(checked.length).toBeGreaterThan(5 * 4 * 50);
    expect(await digest()).toBe(before);
    // Over a thousand requests one after another (every route module, five spellings, four methods).
  }, 120_000);

  it("is refused on the public forms too, and with the cookie's name spaced or in another case", async () => {
    const before = await digest();
    const value = cookie.slice(cookie.indexOf("=") + 1);
    const cookies = [cookie, `__session =${value}`, ` __session\t=${value}`, `other=1; __SESSION=${value}`];
    for (const sent of cookies) {
      for (const target of ["/enquiry", "/contact", "/API/auth/register", "/%61pi/auth/register", "/ADMIN/logout"]) {
        const res = await fetch(`${server.url}${target}`, {
          method: "POST",
          headers: { Cookie: sent, Origin: EVIL, "Content-Type": "application/x-www-form-urlencoded" },
          body: "name=Forged&email=forged%40example.com&password=forged-password-1&role=admin",
          redirect: "manual",
        });
        await res.text();
        expect(res.status, `${target} with Cookie: ${sent.slice(0, 12)}`).toBe(403);
      }
    }
    expect(await digest()).toBe(before);
  });

  it("is refused when the browser says the request is cross-site or same-site, whatever the Origin says", async () => {
    for (const site of ["cross-site", "same-site"]) {
      const res = await fetch(`${server.url}/api/enquiries/${ids.enquiries}/status`, {
        method: "PUT",
        headers: { Cookie: cookie, Origin: server.url, "Sec-Fetch-Site": site, "Content-Type": "application/json" },
        body: JSON.stringify({ status: "closed" }),
      });
      expect(res.status, site).toBe(403);
    }
  });

  it("an Origin of null (a sandboxed page) is foreign too", async () => {
    const res = await fetch(`${server.url}/admin/reviews`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: "null", "Content-Type": "application/x-www-form-urlencoded" },
      body: `intent=approve&id=${ids.reviews}`,
      redirect: "manual",
    });
    expect(res.status).toBe(403);
  });
});

describe("the same writes from the site's own pages", () => {
  it("work: an API status change, an admin approve, and sign-out", async () => {
    const status = await fetch(`${server.url}/api/enquiries/${ids.enquiries}/status`, {
      method: "PUT",
      headers: { Cookie: cookie, Origin: server.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
      body: JSON.stringify({ status: "contacted" }),
    });
    expect(status.status).toBe(200);
    expect((await status.json()).data.status).toBe("contacted");

    const approve = await fetch(`${server.url}/admin/reviews`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: `intent=approve&id=${ids.reviews}`,
      redirect: "manual",
    });
    expect(approve.status).toBe(302);
    const token = await api.login(ADMIN.email, ADMIN.password);
    expect((await api.get(`/api/reviews/${ids.reviews}`, { token })).body.data.approved).toBe(true);

    // A client that sends no Origin at all (curl, a server) is no browser and cannot be forged.
    const noOrigin = await fetch(`${server.url}/api/enquiries/${ids.enquiries}/status`, {
      method: "PUT",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "contacted" }),
    });
    expect(noOrigin.status).toBe(200);

    const logout = await fetch(`${server.url}/admin/logout`, { method: "POST", headers: { Cookie: cookie, Origin: server.url }, redirect: "manual" });
    expect(logout.status).toBe(302);
    expect((await fetch(`${server.url}/admin/courses`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(302);
  });

  it("a bearer-token call needs no Origin check: it carries no cookie", async () => {
    const token = await api.login(ADMIN.email, ADMIN.password);
    const res = await api.put(`/api/enquiries/${ids.enquiries}/status`, { token, json: { status: "closed" }, headers: { Origin: EVIL } });
    expect(res.status).toBe(200);
  });
});

describe("the back office and the API in any spelling", () => {
  it("are never kept by a cache, and the API answers in its own error shape", async () => {
    // The sign-out test above ended the first session.
    const cookie = await signInCookie(server.url);
    for (const target of ["/admin/courses", "/ADMIN/courses", "/%61dmin/courses", "/Api/auth/me", "/%61pi/auth/me"]) {
      const res = await fetch(`${server.url}${target}`, { headers: { Cookie: cookie }, redirect: "manual" });
      await res.text();
      expect(res.status, target).toBe(200);
      expect(res.headers.get("cache-control"), target).toBe("no-store");
    }
    for (const target of ["/API/no-such-endpoint", "/%61pi/no-such-endpoint"]) {
      const res = await fetch(`${server.url}${target}`, { method: "DELETE" });
      expect(res.headers.get("content-type"), target).toContain("application/json");
      expect((await res.json()).error.code, target).toBe("not_found");
    }
  });
});
