/**
 * Enquiry POST throughput before and after the outbox (issue: staff alerts, acknowledgements, webhooks).
 *
 *   git worktree add /tmp/wt-outbox-before 0b513cb && cp -al /work/main/node_modules /tmp/wt-outbox-before/
 *   npx tsx scripts/bench-enquiry-post.ts [--before /tmp/wt-outbox-before] [--seconds 10] [--rounds 3] [--connections 16] [--parallel] [--with-smtp]
 *
 * Builds and starts two production servers, the commit before the outbox (a separate worktree) and this
 * working copy, each on a fresh temporary SQLite database with RATE_LIMIT=off, and alternates load between
 * them (before, after, before, after …) so that anything else on the machine weighs on both alike; with
 * --parallel every round loads them all at once, which holds up better on a machine others are using. Load is
 * `wrk` when installed (apt-get install wrk), else a keep-alive loop in this process. Each round posts
 * valid enquiries to POST /api/enquiries; only answers without an error count (wrk counts 4xx/5xx as errors). With --with-smtp a third server (this
 * working copy) sends every e-mail to an SMTP server in this process, to show delivery's own cost.
 * A measurement, not a test: it prints numbers and never fails on them.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/helpers/ports";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const BEFORE_DIR = path.resolve(opt("before", "/tmp/wt-outbox-before"));
const AFTER_DIR = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(opt("seconds", "10"));
const ROUNDS = Number(opt("rounds", "3"));
const CONNECTIONS = Number(opt("connections", "16"));
const WITH_SMTP = args.includes("--with-smtp");
/** Load every server at the same time in each round: a busy neighbour then slows all of them alike. */
const PARALLEL = args.includes("--parallel");
/** Each checkout's build folder: its own, or BUILD_DIR (the test of the scripts hands its fresh build, not built again). */
const BUILD_DIR = process.env.BUILD_DIR || "build-bench";

const BODY = JSON.stringify({
  fullName: "Bench Student",
  email: "bench.student@example.com",
  phone: "98765 43210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online",
  message: "Is there a weekend batch?",
  whatsappNotifications: true,
});

type Server = { name: string; url: string; proc: ChildProcess; dir: string; log: () => string; refused: Map<string, number> };

function build(dir: string) {
  const r = spawnSync(process.execPath, ["server/index.js", "--build-only"], {
    cwd: dir,
    env: { ...process.env, BUILD_DIR, NODE_ENV: "production" },
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`build failed in ${dir}`);
}

async function start(name: string, codeDir: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-post-"));
  let out = "";
  // Answers other than 201 by status, from the access log: wrk counts its own timeouts as errors too.
  const refused = new Map<string, number>();
  const proc = spawn(process.execPath, ["server/index.js"], {
    cwd: codeDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR,
      SKIP_BUILD_CHECK: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dir, "app.db")}`,
      UPLOAD_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "bench-secret-0123456789-0123456789-0123456789",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "bench-Admin-password-1",
      SEED_DEMO: "false",
      RATE_LIMIT: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The access log is written for every request; read it away so a full pipe never stalls the server.
  proc.stdout!.on("data", (d: Buffer) => {
    const text = d.toString();
    for (const m of text.matchAll(/ POST \/api\/enquiries (\d{3}) /g)) if (m[1] !== "201") refused.set(m[1], (refused.get(m[1]) ?? 0) + 1);
    out = (out + text).slice(-4000);
  });
  proc.stderr!.on("data", (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${name} exited:\n${out}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, url, proc, dir, log: () => out, refused };
}

const haveWrk = spawnSync("wrk", ["--version"]).error === undefined;

const lua = path.join(os.tmpdir(), `bench-enquiry-post-${process.pid}.lua`);
// Written once: servers loaded at the same time read the same script.
if (haveWrk) {
  fs.writeFileSync(
    lua,
    [
      'wrk.method = "POST"',
      `wrk.body = [[${BODY}]]`,
      'wrk.headers["Content-Type"] = "application/json"',
      // errors.status counts answers outside 2xx/3xx; any of those means the server refused an enquiry.
      'function done(summary) io.write(string.format("RESULT %d %d %f\\n", summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.duration / 1e6)) end',
    ].join("\n"),
  );
}

/** One round of load: requests per second of 201 answers, and the answers that were not 201. */
async function load(server: Server, seconds: number): Promise<{ rps: number; bad: number }> {
  if (haveWrk) {
    const text = await new Promise<string>((resolve, reject) => {
      let out = "";
      const wrk = spawn("wrk", [`-t${PARALLEL ? 1 : 2}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "-s", lua, `${server.url}/api/enquiries`]);
      wrk.stdout.on("data", (d: Buffer) => (out += d.toString()));
      wrk.on("error", reject);
      wrk.on("exit", () => resolve(out));
    });
    const m = /RESULT (\d+) (\d+) ([\d.]+)/.exec(text);
    if (!m) throw new Error(text);
    const [requests, bad, duration] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return { rps: (requests - bad) / duration, bad };
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const { hostname, port } = new URL(server.url);
  const end = Date.now() + seconds * 1000;
  let ok = 0;
  let bad = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = http.request(
        {
          host: hostname,
          port,
          path: "/api/enquiries",
          method: "POST",
          agent,
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(BODY) },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode === 201) ok++;
            else bad++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        bad++;
        resolve();
      });
      req.end(BODY);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  agent.destroy();
  return { rps: ok / ((Date.now() - started) / 1000), bad };
}

async function smtpSink(): Promise<{ url: string; count: () => number; stop: () => Promise<void> }> {
  const { SMTPServer } = await import("smtp-server");
  let n = 0;
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    onData(stream, _s, cb) {
      stream.on("data", () => {});
      stream.on("end", () => {
        n++;
        cb();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  return { url: `smtp://127.0.0.1:${port}`, count: () => n, stop: () => new Promise((r) => server.close(() => r())) };
}

/** CPU seconds (user + system) the process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!fs.existsSync(path.join(BEFORE_DIR, "server/index.js"))) {
  console.error(`No worktree at ${BEFORE_DIR}. Make one: git worktree add ${BEFORE_DIR} 0b513cb && cp -al /work/main/node_modules ${BEFORE_DIR}/`);
  process.exit(1);
}
console.log(`Building ${BEFORE_DIR} and ${AFTER_DIR} into ${BUILD_DIR}/ ...`);
build(BEFORE_DIR);
build(AFTER_DIR);

const sink = WITH_SMTP ? await smtpSink() : undefined;
const servers: Server[] = [await start("before (0b513cb)", BEFORE_DIR), await start("after (outbox, SMTP_URL unset)", AFTER_DIR)];
if (sink) servers.push(await start("after (outbox, mail to a local SMTP server)", AFTER_DIR, { SMTP_URL: sink.url, NOTIFY_EMAIL: "desk@example.com" }));
const results = new Map<string, number[]>(servers.map((s) => [s.name, []]));
// Requests per CPU-second of the server process: steadier than requests per second on a shared machine,
// where other work takes the cores away from one round and not the next.
const perCpu = new Map<string, number[]>(servers.map((s) => [s.name, []]));
try {
  console.log(
    `Load: ${haveWrk ? `wrk -t${PARALLEL ? 1 : 2}` : "a keep-alive loop in this process"}, ${CONNECTIONS} connections per server, ${SECONDS} s per round, ${ROUNDS} rounds, ${PARALLEL ? "all servers loaded at the same time" : "servers one after another"}; RATE_LIMIT=off; SQLite (WAL, synchronous=FULL).`,
  );
  for (const s of servers) await load(s, 2); // warm-up: JIT, page cache, SQLite file growth
  const measure = async (s: Server, round: number) => {
    const cpu0 = cpuSeconds(s.proc.pid);
    const r = await load(s, SECONDS);
    const cpu = cpuSeconds(s.proc.pid) - cpu0;
    results.get(s.name)!.push(r.rps);
    perCpu.get(s.name)!.push((r.rps * SECONDS) / cpu);
    return `  round ${round}  ${s.name.padEnd(46)} ${r.rps.toFixed(0).padStart(6)} req/s  ${((r.rps * SECONDS) / cpu).toFixed(0).padStart(5)} req per CPU-second${r.bad ? `  (${r.bad} not 201)` : ""}`;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    if (PARALLEL) for (const line of await Promise.all(servers.map((s) => measure(s, round)))) console.log(line);
    else for (const s of servers) console.log(await measure(s, round));
  }
  const before = median(results.get(servers[0].name)!);
  const beforeCpu = median(perCpu.get(servers[0].name)!);
  console.log("\nMedian of the rounds, requests per CPU-second of the server (the steadier figure on a shared machine):");
  for (const s of servers) {
    const m = median(perCpu.get(s.name)!);
    console.log(`  ${s.name.padEnd(46)} ${m.toFixed(0).padStart(6)} req/CPU-s   ${((m / beforeCpu) * 100).toFixed(0).padStart(4)}% of before`);
  }
  console.log("\nMedian of the rounds (201 answers per second):");
  for (const s of servers) {
    const m = median(results.get(s.name)!);
    // Each round's ratio to the "before" round just ahead of it: both saw about the same machine.
    const paired = results.get(s.name)!.map((rps, i) => rps / results.get(servers[0].name)![i]);
    console.log(
      `  ${s.name.padEnd(46)} ${m.toFixed(0).padStart(6)} req/s   ${((m / before) * 100).toFixed(0).padStart(4)}% of before   (median of per-round ratios ${(median(paired) * 100).toFixed(0)}%)`,
    );
  }
  for (const s of servers) {
    if (s.refused.size) console.log(`  ${s.name}: answers other than 201: ${[...s.refused].map(([status, n]) => `${n} × ${status}`).join(", ")}`);
  }
  if (sink) {
    await new Promise((r) => setTimeout(r, 3000));
    console.log(`\nThe SMTP server received ${sink.count()} e-mails during the run (delivery goes on after the load stops).`);
  }
} finally {
  for (const s of servers) {
    s.proc.kill("SIGTERM");
    await new Promise((r) => s.proc.once("exit", r));
    fs.rmSync(s.dir, { recursive: true, force: true });
  }
  await sink?.stop();
  fs.rmSync(lua, { force: true });
}
