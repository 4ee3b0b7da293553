/**
 * Requests per second through HAProxy with one app instance behind it and with two, side by side in one run
 * (the two set-ups take turns, so the machine's other load falls on both alike): the ratio is the claim, not
 * the absolute numbers. Both instances run the production build on one fresh MariaDB database.
 *
 *   TEST_MYSQL_URL=mysql://root@127.0.0.1:3306 npx tsx scripts/bench-instances.ts [--seconds 8] [--rounds 3] [--concurrency 24]
 *
 * The mix is what visitors and integrators do most: the home page, the course list, the course API, and one in
 * ten a new enquiry through the API with a staff token.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ADMIN, ensureBuilt, freshDatabase, launchServer, type RunningServer } from "../tests/helpers/api-server";
import { freePort } from "../tests/helpers/ports";
import { startHaproxy, type Proxy } from "../tests/helpers/haproxy";

const { values: args } = parseArgs({
  options: { seconds: { type: "string", default: "8" }, rounds: { type: "string", default: "3" }, concurrency: { type: "string", default: "24" } },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);

if (!process.env.TEST_MYSQL_URL) {
  console.error("Set TEST_MYSQL_URL (e.g. mysql://root@127.0.0.1:3306): several instances need MySQL or MariaDB.");
  process.exit(2);
}

async function measure(base: string, token: string, tag: string): Promise<{ rps: number; errors: number }> {
  let done = 0;
  let errors = 0;
  const end = Date.now() + SECONDS * 1000;
  const worker = async (n: number) => {
    for (let i = 0; Date.now() < end; i++) {
      const pick = (n + i) % 10;
      try {
        let res: Response;
        if (pick === 9) {
          res = await fetch(`${base}/api/enquiries`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({
              fullName: `Bench ${tag} ${n}-${i}`,
              email: `bench${n}x${i}@example.com`,
              phone: `9${String(n * 100_000 + i).padStart(9, "0")}`,
              preferredCourse: "SOC",
              preferredMode: "online",
            }),
          });
        } else {
          res = await fetch(`${base}${pick < 4 ? "/" : pick < 7 ? "/courses" : "/api/courses"}`);
        }
        await res.arrayBuffer();
        if (res.status >= 400) errors++;
        done++;
      } catch {
        errors++;
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, n) => worker(n)));
  return { rps: done / ((Date.now() - started) / 1000), errors };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-bench-instances-"));
const servers: RunningServer[] = [];
const proxies: Proxy[] = [];
let dropDatabase = async () => {};
try {
  await ensureBuilt();
  const database = await freshDatabase(dir);
  dropDatabase = database.drop;
  const uploadDir = path.join(dir, "uploads");
  const env = { TRUST_PROXY: "true", RATE_LIMIT: "off" };
  servers.push(await launchServer({ databaseUrl: database.url, uploadDir, env }));
  servers.push(await launchServer({ databaseUrl: database.url, uploadDir, env }));
  const backends = servers.map((s, i) => ({ name: `app${i + 1}`, port: Number(new URL(s.url).port) }));
  const one = await startHaproxy(await freePort(), backends.slice(0, 1));
  const two = await startHaproxy(await freePort(), backends);
  proxies.push(one, two);
  const login = await fetch(`${one.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const { token } = (await login.json()) as { token: string };
  // Warm both instances (compiled routes, connection pools) before counting.
  await measure(two.url, token, "warm");

  const results: Record<"one" | "two", number[]> = { one: [], two: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first, so neither always meets the machine's state the other left.
    const order = round % 2 ? (["one", "two"] as const) : (["two", "one"] as const);
    for (const which of order) {
      const r = await measure(which === "one" ? one.url : two.url, token, `${which}${round}`);
      results[which].push(r.rps);
      console.log(`round ${round}, ${which === "one" ? "one instance " : "two instances"}: ${r.rps.toFixed(0)} req/s, ${r.errors} errors`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\n${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}, ${CONCURRENCY} clients, ${SECONDS} s × ${ROUNDS} rounds each`);
  console.log(
    `median: one instance ${median(results.one).toFixed(0)} req/s, two instances ${median(results.two).toFixed(0)} req/s, ratio ${(median(results.two) / median(results.one)).toFixed(2)}`,
  );
} finally {
  for (const p of proxies) await p.stop();
  for (const s of servers) await s.stop();
  await dropDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
}
