/**
 * Can a flood of anonymous enquiry uploads take the site down? (upload hardening)
 *
 *   npx tsx scripts/bench-upload-flood.ts [--root <checkout>] [--rate-limit on|off] [--requests 40]
 *                                         [--files 3] [--megapixels 49] [--port 3411] [--rounds 3]
 *
 * Starts the production server of <checkout> (default: this one; `node server/index.js`, which builds first when
 * the build is stale) on a temporary SQLite database and upload folder, then sends --requests parallel POSTs to
 * /enquiry, each a valid enquiry with --files large JPEGs (each under 5 MB), while a second client asks for
 * /healthz and / one after the other from a thread of its own. Each of --rounds rounds starts a fresh server;
 * prints each flood's status counts, and the latency of those pages idle and during the floods, all rounds
 * pooled. A measurement, not a test: it prints numbers and never fails on them.
 *
 * The photos are made once with sharp (a gradient with noise, so they are real images that still compress
 * below 5 MB) and kept in the system's temporary folder. To compare with an older commit, give it a worktree
 * of its own (`git worktree add /tmp/wt-before <commit>`, node_modules hard-linked with `cp -al`) and pass
 * `--root /tmp/wt-before`. With --megapixels 24 the photos pass the attachment pixel limit and go through
 * the upload queue.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import sharp from "sharp";

const { values: args } = parseArgs({
  options: {
    root: { type: "string", default: path.resolve(import.meta.dirname, "..") },
    "rate-limit": { type: "string", default: "on" },
    requests: { type: "string", default: "40" },
    files: { type: "string", default: "3" },
    megapixels: { type: "string", default: "49" },
    port: { type: "string", default: "3411" },
    rounds: { type: "string", default: "3" },
  },
});
const ROOT = path.resolve(args.root);
const REQUESTS = Number(args.requests);
const FILES = Number(args.files);
const MEGAPIXELS = Number(args.megapixels);
const PORT = Number(args.port);
const ROUNDS = Number(args.rounds);
const BASE = `http://127.0.0.1:${PORT}`;
const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** A square photo of about `megapixels`: a colour gradient with noise, JPEG, cached by size and seed. */
async function photo(megapixels: number, seed: number): Promise<Buffer> {
  const side = Math.round(Math.sqrt(megapixels * 1_000_000));
  const file = path.join(os.tmpdir(), "bench-upload-flood-images", `${side}x${side}-${seed}.jpg`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const raw = new Uint8ClampedArray(side * side * 3);
  let state = seed * 2654435761;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const noise = ((state >>> 24) / 255 - 0.5) * 12;
      const i = (y * side + x) * 3;
      raw[i] = (x / side) * 255 + noise;
      raw[i + 1] = (y / side) * 255 + noise;
      raw[i + 2] = 128 + 100 * Math.sin((x + y * seed) / 300) + noise;
    }
  }
  const jpeg = await sharp(Buffer.from(raw.buffer), { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 60 })
    .toBuffer();
  if (jpeg.length >= MAX_FILE_BYTES) throw new Error(`The ${side}×${side} photo came out at ${jpeg.length} bytes, over 5 MB`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, jpeg);
  return jpeg;
}

function startServer(dir: string): ChildProcess {
  const log = fs.openSync(path.join(dir, "server.log"), "a");
  return spawn(process.execPath, ["server/index.js"], {
    cwd: ROOT,
    stdio: ["ignore", log, log],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dir, "bench.db")}`,
      UPLOAD_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "bench-upload-flood-secret-0123456789-0123456789",
      ADMIN_EMAIL: "admin@localhost",
      ADMIN_PASSWORD: "bench-password-123",
      RATE_LIMIT: args["rate-limit"],
      // The test of the scripts hands its own fresh build (BUILD_DIR): the server then starts without building.
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
    },
  });
}

async function waitUntilUp(server: ChildProcess, dir: string): Promise<void> {
  // The first start may build the app: allow ten minutes.
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited (${server.exitCode}); see ${path.join(dir, "server.log")}`);
    const ok = await fetch(`${BASE}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("The server did not come up within ten minutes");
}

/** Server CPU seconds so far (Linux), to show how much work the flood cost. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The server's peak resident memory so far, in MB (Linux). */
function peakMemoryMb(pid: number | undefined): number | null {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : null;
  } catch {
    return null;
  }
}

type Sample = { path: string; ms: number; status: number | "timeout" | "error" };

/**
 * The second client: asks for /healthz and / in turn, one at a time, until stopped. It runs on a thread of its
 * own, so the flood's client (building and sending 40 multipart bodies in this thread) cannot delay its
 * requests or its clock: the latencies are the server's.
 */
const PROBE_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { performance } = require("node:perf_hooks");
const stop = new Int32Array(workerData.stop);
(async () => {
  const samples = [];
  for (let i = 0; Atomics.load(stop, 0) === 0; i++) {
    const p = i % 2 === 0 ? "/healthz" : "/";
    const start = performance.now();
    let status;
    try {
      const res = await fetch(workerData.base + p, { signal: AbortSignal.timeout(60000) });
      await res.arrayBuffer();
      status = res.status;
    } catch (error) {
      status = error.name === "TimeoutError" ? "timeout" : "error";
    }
    samples.push({ path: p, ms: performance.now() - start, status });
  }
  parentPort.postMessage(samples);
})();
`;

/** Starts the probe; the returned function stops it and gives its samples. */
function probe(): () => Promise<Sample[]> {
  const stop = new SharedArrayBuffer(4);
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { base: BASE, stop } });
  const samples = new Promise<Sample[]>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return async () => {
    Atomics.store(new Int32Array(stop), 0, 1);
    const result = await samples;
    await worker.terminate();
    return result;
  };
}

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(samples: Sample[], separator = "\n  "): string {
  return ["/healthz", "/"]
    .map((p) => {
      const mine = samples.filter((s) => s.path === p);
      const ms = mine.map((s) => s.ms);
      const failed = mine.filter((s) => s.status !== 200).length;
      return `${p.padEnd(8)} n=${String(mine.length).padStart(4)}  p50 ${percentile(ms, 50).toFixed(0).padStart(6)} ms  p99 ${percentile(ms, 99).toFixed(0).padStart(6)} ms  max ${Math.max(
        ...ms,
      )
        .toFixed(0)
        .padStart(6)} ms${failed ? `  not 200: ${failed}` : ""}`;
    })
    .join(separator);
}

async function flood(photos: Buffer[]): Promise<{ statuses: Record<string, number>; ms: number[]; wall: number }> {
  const statuses: Record<string, number> = {};
  const ms: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: REQUESTS }, async (_, i) => {
      const form = new FormData();
      const fields = {
        intent: "enquiry",
        fullName: `Flood Visitor ${i}`,
        email: `visitor${i}@example.com`,
        phone: "98765 43210",
        preferredCourse: "SOC Analyst Training Program",
        preferredMode: "online",
        message: "Please see my documents.",
      };
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      photos.forEach((p, n) => form.append("filePaths", new Blob([new Uint8Array(p)], { type: "image/jpeg" }), `scan-${n}.jpg`));
      const t = performance.now();
      let key: string;
      try {
        const res = await fetch(`${BASE}/enquiry`, { method: "POST", body: form, signal: AbortSignal.timeout(600_000) });
        await res.arrayBuffer();
        key = String(res.status);
      } catch (error) {
        const cause = (error as Error & { cause?: { code?: string } }).cause;
        key = (error as Error).name === "TimeoutError" ? "timeout" : `error ${cause?.code ?? (error as Error).message}`;
      }
      ms.push(performance.now() - t);
      statuses[key] = (statuses[key] ?? 0) + 1;
    }),
  );
  return { statuses, ms, wall: performance.now() - start };
}

/** One round: a fresh server, five idle seconds of the probe, then the flood with the probe running. */
async function round(photos: Buffer[], n: number): Promise<{ idle: Sample[]; busy: Sample[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-upload-flood-"));
  const server = startServer(dir);
  try {
    await waitUntilUp(server, dir);
    const stopIdle = probe();
    await new Promise((r) => setTimeout(r, 5000));
    const idle = await stopIdle();

    const cpuBefore = cpuSeconds(server.pid);
    const stopBusy = probe();
    const result = await flood(photos);
    const busy = await stopBusy();
    const cpuAfter = cpuSeconds(server.pid);
    const peak = peakMemoryMb(server.pid);

    console.log(
      `round ${n}: statuses ${JSON.stringify(result.statuses)}  wall ${(result.wall / 1000).toFixed(1)} s  per POST p50 ${(percentile(result.ms, 50) / 1000).toFixed(1)} s, max ${(Math.max(...result.ms) / 1000).toFixed(1)} s`,
    );
    if (cpuBefore !== null && cpuAfter !== null)
      console.log(`  server CPU during the flood: ${(cpuAfter - cpuBefore).toFixed(1)} s, peak memory ${peak?.toFixed(0)} MB`);
    console.log(`  during the flood:\n    ${summary(busy, "\n    ")}`);
    return { idle, busy };
  } finally {
    const exitedEarly = server.exitCode;
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    // The server's own log (requests, errors, a crash) stays for a look afterwards.
    const kept = path.join(os.tmpdir(), "bench-upload-flood-server.log");
    fs.copyFileSync(path.join(dir, "server.log"), kept);
    if (exitedEarly !== null) console.log(`  the server had exited (${exitedEarly}); its log: ${kept}`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const photos = await Promise.all(Array.from({ length: FILES }, (_, i) => photo(MEGAPIXELS, i + 1)));
  const sizes = photos.map((p) => `${(p.length / 1024 / 1024).toFixed(2)} MB`).join(", ");
  console.log(
    `root ${ROOT}  RATE_LIMIT=${args["rate-limit"]}  ${REQUESTS} POSTs × ${FILES} JPEGs of ${MEGAPIXELS} MP (${sizes})  cores ${os.cpus().length}  rounds ${ROUNDS}`,
  );
  const idle: Sample[] = [];
  const busy: Sample[] = [];
  for (let n = 1; n <= ROUNDS; n++) {
    const r = await round(photos, n);
    idle.push(...r.idle);
    busy.push(...r.busy);
  }
  console.log(`all rounds, idle:\n  ${summary(idle)}`);
  console.log(`all rounds, during the flood:\n  ${summary(busy)}`);
}

await main();
