/**
 * `npm run bench`: how fast the public pages and the API answer, as ratios to a static file in the same run.
 *
 *   npm run bench [-- --seconds 5 --rounds 3 --connections 16]
 *
 * Starts the production build twice on one fresh SQLite database with the demo content: one process with the
 * page cache (server/page-cache.ts), one with PAGE_CACHE=off. The static copies are the home page's HTML and
 * the /api/courses JSON written into the build's public folder, so they are served by the same process and
 * middleware (compression, security headers) as the pages. Every target is loaded in turn, round after round,
 * so the machine's other load falls on all of them alike; the table gives the median of the rounds. Requests
 * ask for gzip, as browsers do. This machine is shared and noisy: read the ratios, not the absolute numbers.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { API_BUILD_DIR, ensureBuilt, freshDatabase, launchServer, type RunningServer } from "../tests/helpers/api-server";

const { values: args } = parseArgs({
  options: { seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "3" }, connections: { type: "string", default: "16" } },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);

type Target = { name: string; server: "cached" | "uncached"; path: string; base: "html" | "json" | null; connections?: number; post?: boolean };
const TARGETS: Target[] = [
  { name: "static copy of /", server: "cached", path: "/bench-static-home.html", base: null },
  { name: "static copy of /, 4 connections", server: "cached", path: "/bench-static-home.html", base: "html", connections: 4 },
  { name: "/ cached", server: "cached", path: "/", base: "html" },
  { name: "/ cached, 4 connections", server: "cached", path: "/", base: "html", connections: 4 },
  { name: "/ uncached", server: "uncached", path: "/", base: "html" },
  { name: "/courses cached", server: "cached", path: "/courses", base: "html" },
  { name: "/courses uncached", server: "uncached", path: "/courses", base: "html" },
  // The stack's floor: a 99-byte answer through every middleware and React Router, with no page to render.
  { name: "/robots.txt uncached", server: "uncached", path: "/robots.txt", base: "html" },
  { name: "static copy of /api/courses", server: "cached", path: "/bench-static-courses.json", base: null },
  { name: "GET /api/courses cached", server: "cached", path: "/api/courses", base: "json" },
  { name: "GET /api/courses uncached", server: "uncached", path: "/api/courses", base: "json" },
  { name: "POST /api/enquiries", server: "cached", path: "/api/enquiries", base: null, post: true },
];

let sent = 0;
function enquiryBody(): string {
  sent++;
  // Each one a new person: the same phone again would be linked to every earlier enquiry as a duplicate.
  return JSON.stringify({
    fullName: `Bench Visitor ${sent}`,
    email: `bench${sent}.${process.pid}@example.com`,
    phone: `9${String(sent).padStart(9, "0")}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
  });
}

async function load(url: string, target: Target): Promise<{ rps: number; p99: number; bad: number }> {
  const result = await autocannon({
    url: `${url}${target.path}`,
    connections: target.connections ?? CONNECTIONS,
    duration: SECONDS,
    headers: { "accept-encoding": "gzip" },
    ...(target.post
      ? {
          method: "POST" as const,
          requests: [{ method: "POST" as const, headers: { "content-type": "application/json" }, setupRequest: (req) => ({ ...req, body: enquiryBody() }) }],
        }
      : {}),
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, p99: result.latency.p99, bad };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  console.log("Building (if the sources changed) and starting two production servers...");
  await ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-bench-"));
  const database = await freshDatabase(dir);
  const staticFiles = ["bench-static-home.html", "bench-static-courses.json"].map((f) => path.resolve(API_BUILD_DIR, "client", f));
  const servers: RunningServer[] = [];
  try {
    const common = { databaseUrl: database.url, uploadDir: path.join(dir, "uploads") };
    const cached = await launchServer({ ...common, env: { PAGE_CACHE: "on" } });
    servers.push(cached);
    const uncached = await launchServer({ ...common, env: { PAGE_CACHE: "off" } });
    servers.push(uncached);
    fs.writeFileSync(staticFiles[0], await (await fetch(`${uncached.url}/`)).text());
    fs.writeFileSync(staticFiles[1], await (await fetch(`${uncached.url}/api/courses`)).text());
    const urls = { cached: cached.url, uncached: uncached.url };

    const runs = new Map<string, { rps: number[]; p99: number[]; bad: number }>(TARGETS.map((t) => [t.name, { rps: [], p99: [], bad: 0 }]));
    for (let round = 1; round <= ROUNDS; round++) {
      process.stdout.write(`round ${round}/${ROUNDS}:`);
      for (const target of TARGETS) {
        const r = await load(urls[target.server], target);
        const run = runs.get(target.name)!;
        run.rps.push(r.rps);
        run.p99.push(r.p99);
        run.bad += r.bad;
        process.stdout.write(".");
      }
      process.stdout.write("\n");
    }

    const baseline = { html: median(runs.get("static copy of /")!.rps), json: median(runs.get("static copy of /api/courses")!.rps) };
    const rows = TARGETS.map((t) => {
      const run = runs.get(t.name)!;
      const rps = median(run.rps);
      return {
        target: t.name,
        connections: t.connections ?? CONNECTIONS,
        "req/s": Math.round(rps),
        "p99 ms": median(run.p99),
        "× static": t.base ? (rps / baseline[t.base]).toFixed(2) : t.path.startsWith("/bench-static") ? "1.00" : "-",
        "not 2xx": run.bad,
      };
    });
    // The ratios depend on the Node.js version too (Node 24 made every request 1.2–1.6× cheaper than Node 20: issue 30).
    console.log(
      `\nNode.js ${process.version}; ${SECONDS} s per target, ${ROUNDS} rounds, medians; "× static" is req/s over the static copy's (HTML or JSON) in this run.`,
    );
    console.table(rows);
  } finally {
    for (const f of staticFiles) fs.rmSync(f, { force: true });
    await Promise.all(servers.map((s) => s.stop()));
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
