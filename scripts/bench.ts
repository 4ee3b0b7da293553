/**
 * `npm run bench`: how fast the public pages and the API answer, as ratios to a static file in the same run.
 *
 *   npm run bench [-- --seconds 5 --rounds 3 --connections 16] [-- --only change]
 *
 * Starts the production build twice on one fresh SQLite database with the demo content: one process with the
 * page cache (server/page-cache.ts), one with PAGE_CACHE=off. The static copies are the home page's HTML and
 * the /api/courses JSON written into the build's public folder, so they are served by the same process and
 * middleware (compression, security headers) as the pages. Every target is loaded in turn, round after round,
 * so the machine's other load falls on all of them alike; the table gives the median of the rounds. Requests
 * ask for gzip, as browsers do. This machine is shared and noisy: read the ratios, not the absolute numbers.
 *
 * Then "right after a change" (`--only change` runs just this): two more servers with the page cache, one warming
 * before it switches (PAGE_CACHE_GRACE_SECONDS=3, the default) and one switching at once as every change did before
 * (PAGE_CACHE_GRACE_SECONDS=0). For each, round after round: a burst of BURST anonymous requests on / with
 * nothing changed (cached), then a course's title edited through the API and at once the same burst, while another
 * client asks /courses every 20 ms until it shows the new title. It prints both bursts' p99, their ratio (goal:
 * within 2×) and the time from the edit to the new title (goal: within 5 s), the two behaviours side by side.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ADMIN, API_BUILD_DIR, ensureBuilt, freshDatabase, launchServer, type RunningServer } from "../tests/helpers/api-server";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "16" },
    only: { type: "string" },
  },
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
    if (args.only === "change") return await afterAChange(common);
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
    await afterAChange(common);
  } finally {
    for (const f of staticFiles) fs.rmSync(f, { force: true });
    await Promise.all(servers.map((s) => s.stop()));
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const BURST = 200;

async function burst(url: string): Promise<{ p99: number; max: number; bad: number; cache: Record<string, number> }> {
  const cache: Record<string, number> = {};
  const result = await autocannon({
    url: `${url}/`,
    connections: CONNECTIONS,
    amount: BURST,
    headers: { "accept-encoding": "gzip" },
    requests: [
      {
        method: "GET",
        onResponse: (_status, _body, _context, headers) => {
          // Raw header names, as the server spelt them.
          const how = String(Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "x-page-cache")?.[1] ?? "none");
          cache[how] = (cache[how] ?? 0) + 1;
        },
      },
    ],
  });
  return { p99: result.latency.p99, max: result.latency.max, bad: result.non2xx + result.errors + result.timeouts, cache };
}

/** The pages a visitor might have seen, twice each: every one of them is kept before the change. */
async function visitListed(url: string) {
  for (const p of ["/", "/about", "/courses", "/schedules", "/reviews", "/enquiry", "/contact", "/privacy", "/api/courses"]) {
    await fetch(`${url}${p}`);
    await fetch(`${url}${p}`);
  }
}

/** A burst of anonymous requests right after a content change, with the cache warming first and switching at once. */
async function afterAChange(common: { databaseUrl: string; uploadDir: string }) {
  console.log(`\nRight after a change: ${BURST} requests on / over ${CONNECTIONS} connections, ${ROUNDS} rounds...`);
  const modes = [
    { name: "warm, then switch (PAGE_CACHE_GRACE_SECONDS=3)", grace: "3" },
    { name: "switch at once (PAGE_CACHE_GRACE_SECONDS=0, as before)", grace: "0" },
  ];
  // One after the other: on a new SQLite file the first one migrates and seeds it.
  const servers: RunningServer[] = [];
  try {
    for (const m of modes) servers.push(await launchServer({ ...common, env: { PAGE_CACHE: "on", PAGE_CACHE_GRACE_SECONDS: m.grace } }));
    const login = await fetch(`${servers[0].url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const course = {
      title: "Bench Course 0",
      category: "beginner",
      description: "Its title changes in every round.",
      featured: true,
      modes: ["online"],
    };
    const made = await fetch(`${servers[0].url}/api/courses`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(course),
    });
    const { id } = ((await made.json()) as { data: { id: string } }).data;
    const runs = modes.map(() => ({
      cached: [] as number[],
      after: [] as number[],
      max: [] as number[],
      visible: [] as number[],
      bad: 0,
      cache: {} as Record<string, number>,
    }));
    let edits = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      process.stdout.write(`round ${round}/${ROUNDS}:`);
      for (const [i, server] of servers.entries()) {
        const run = runs[i];
        await visitListed(server.url);
        run.cached.push((await burst(server.url)).p99);
        const title = `Bench Course ${++edits} edited`;
        const start = Date.now();
        // The edit is made on the server under test, as an editor behind a sticky balancer would.
        const put = await fetch(`${server.url}/api/courses/${id}`, {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ ...course, title }),
        });
        if (!put.ok) throw new Error(`The edit failed: ${put.status} ${await put.text()}`);
        const seen = (async () => {
          while (Date.now() - start < 30_000) {
            if ((await (await fetch(`${server.url}/courses`)).text()).includes(title)) return Date.now() - start;
            await new Promise((r) => setTimeout(r, 20));
          }
          return Number.POSITIVE_INFINITY;
        })();
        const after = await burst(server.url);
        run.after.push(after.p99);
        run.max.push(after.max);
        run.bad += after.bad;
        for (const [how, n] of Object.entries(after.cache)) run.cache[how] = (run.cache[how] ?? 0) + n;
        run.visible.push(await seen);
        // Let the other server's cache settle on this version before its own round.
        await new Promise((r) => setTimeout(r, 4000));
        process.stdout.write(".");
      }
      process.stdout.write("\n");
    }
    console.log(`\nNode.js ${process.version}; medians of ${ROUNDS} rounds; p99 of ${BURST} requests on / (gzip, ${CONNECTIONS} connections), in ms.`);
    console.table(
      modes.map((m, i) => {
        const run = runs[i];
        const cached = median(run.cached);
        const after = median(run.after);
        return {
          behaviour: m.name,
          "cached p99": cached,
          "after-change p99": after,
          "× cached p99 (goal ≤ 2)": (after / Math.max(cached, 1)).toFixed(2),
          "after-change max": median(run.max),
          "new title visible after, ms (goal ≤ 5000)": median(run.visible),
          "answers (X-Page-Cache)": Object.entries(run.cache)
            .map(([how, n]) => `${how} ${n}`)
            .join(", "),
          "not 2xx": run.bad,
        };
      }),
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
