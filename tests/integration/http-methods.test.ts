import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, startApiServer } from "../helpers/api-server";

/**
 * No method on any path gets a 5xx: TRACE, CONNECT, PROPFIND, QUERY and a made-up token answer 405 with `Allow`
 * (the API's error shape under /api, the site's page elsewhere), an unknown API path 404. Sent over a raw socket,
 * since fetch refuses some of these methods itself.
 */
const server = startApiServer();
const api = apiClient(server);

type Raw = { status: number; headers: Record<string, string>; body: string };

function raw(method: string, target: string): Promise<Raw> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => {
      // HTTP/1.0, so the answer is never chunked.
      socket.write(`${method} ${target} HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    });
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (data += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head, ...rest] = data.split("\r\n\r\n");
      const [statusLine, ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`${method} ${target}: no answer`)));
  });
}

/** A concrete URL for every route module (flat-routes names, ids from the demo content). */
function routePaths(ids: Record<string, string>): string[] {
  const files = fs.readdirSync(path.resolve(import.meta.dirname, "../../app/routes")).filter((f) => /\.tsx?$/.test(f));
  const paths = new Set<string>(["/", "/healthz", "/media/images/nothing.webp", "/assets/nothing.js", "/favicon.ico"]);
  for (const file of files) {
    const segments = file
      .replace(/\.tsx?$/, "")
      .split(/(?<!\[)\.(?!\])/)
      .map((seg) => seg.replace("[.]", ".").replace(/_$/, ""))
      .filter((seg) => seg !== "_index" && !seg.startsWith("_site") && seg !== "_site");
    const parts = segments.map((seg) =>
      seg === "$" ? "no-such-page" : seg === "$id" ? (ids[segments[1]] ?? ids.courses) : seg === "$slug" ? ids.slug : seg.startsWith("$") ? "x.pdf" : seg,
    );
    paths.add(`/${parts.join("/")}`.replace(/\/$/, "") || "/");
  }
  return [...paths];
}

let paths: string[] = [];
beforeAll(async () => {
  const course = (await api.get("/api/courses")).body.data[0];
  const token = await api.login("admin@example.com", "api-Admin-password-1");
  const first = async (p: string) => (await api.get(p, { token })).body.data[0].id as string;
  paths = routePaths({
    courses: course.id,
    slug: course.slug,
    schedules: await first("/api/schedules"),
    reviews: await first("/api/reviews"),
    enquiries: course.id,
    "contact-queries": course.id,
    users: await first("/api/users"),
    auth: await first("/api/users"),
  });
}, 60_000);

describe("any method on any path", () => {
  it("never answers 5xx; unsupported methods answer 405 with Allow in the right shape", async () => {
    const seen: string[] = [];
    for (const target of paths) {
      for (const method of ["TRACE", "CONNECT", "PROPFIND", "QUERY", "FROBNICATE", "MKCOL"]) {
        const res = await raw(method, target);
        const where = `${method} ${target} → ${res.status}`;
        seen.push(where);
        expect(res.status, where).toBeLessThan(500);
        expect([404, 405], where).toContain(res.status);
        if (res.status === 405) {
          expect(res.headers.allow, where).toMatch(/^(GET|POST|PUT|DELETE|HEAD|OPTIONS)(, (GET|POST|PUT|DELETE|HEAD|OPTIONS))*$/);
          expect(res.headers.allow.split(", "), where).not.toContain(method);
        }
        if (target.startsWith("/api/")) expect(JSON.parse(res.body).error.code, where).toMatch(/^(method_not_allowed|not_found)$/);
        if (!target.startsWith("/api/") && res.status === 405) expect(res.body, where).toContain("Method Not Allowed");
      }
    }
    // Every documented API path answers 405 (a 404 would mean the path was not recognised).
    expect(seen.filter((s) => /^TRACE \/api\/courses → 405$/.test(s))).toHaveLength(1);
  }, 120_000);

  it("names the methods a path really takes", async () => {
    expect((await raw("TRACE", "/api/courses")).headers.allow).toBe("GET, POST, HEAD, OPTIONS");
    expect((await raw("PROPFIND", "/api/reviews/x/approve")).headers.allow).toBe("PUT, OPTIONS");
    expect((await raw("TRACE", "/contact")).headers.allow).toBe("GET, HEAD, POST, OPTIONS");
    expect((await raw("TRACE", "/about")).headers.allow).toBe("GET, HEAD, OPTIONS");
    const put = await raw("PUT", "/contact");
    expect([put.status, put.headers.allow]).toEqual([405, "GET, HEAD, POST, OPTIONS"]);
    const options = await raw("OPTIONS", "/api/users/x");
    expect([options.status, options.headers.allow]).toEqual([204, "GET, PUT, DELETE, HEAD, OPTIONS"]);
  });

  it("leaves the methods a path does take alone", async () => {
    expect((await raw("GET", "/about")).status).toBe(200);
    expect((await raw("HEAD", "/api/courses")).status).toBe(200);
    const patch = await api.call("PATCH", "/api/courses");
    expect([patch.status, patch.headers.get("allow")]).toEqual([405, "GET, POST, HEAD"]);
  });
});
