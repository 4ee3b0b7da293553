/**
 * How long does the enquiry CSV export take at 100,000 and 1,000,000 rows, how much memory and CPU does the server
 * spend, and how well does it compress? (issue 39, item 4; the numbers in the README come from here)
 *
 *   npm run build && npx tsx scripts/bench-export.ts [count ...]        (default: 100000 1000000)
 *
 * `BUILD_DIR` picks another build folder (the test of the scripts runs one with 2,000 rows).
 *
 * For each count: fills a new SQLite database with `scripts/bench-enquiries.ts <count> --fill-only --keep`, starts the
 * BUILT server on it (node server/index.js, as in production), signs in over HTTP and downloads
 * /admin/enquiries/export.csv twice the way a browser does: once uncompressed and once with `Accept-Encoding: gzip`.
 * It reports the time to the first byte and to the last, the server's CPU time (from /proc) and its peak resident
 * memory during the download (sampled every 20 ms), and the gzipped size next to the same CSV gzipped whole.
 * A measurement, not a test: it never fails on the numbers (tests/integration/export-compression.test.ts holds the
 * size rule).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createGunzip, gzipSync } from "node:zlib";

const ROOT = path.resolve(import.meta.dirname, "..");
const counts = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number);
if (counts.length === 0) counts.push(100_000, 1_000_000);
const BUILD_DIR = process.env.BUILD_DIR || "build";
if (!fs.existsSync(path.join(ROOT, BUILD_DIR, "server/index.js"))) throw new Error("Build first: npm run build");

const PAGE = 4096;
const TICKS = 100; // USER_HZ on Linux

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** The server's CPU seconds (user + system) and resident memory, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}
function rssBytes(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * PAGE;
}

type Download = { firstByteMs: number; totalMs: number; wireBytes: number; csv: Buffer | null; cpu: number; rssBefore: number; rssPeak: number };

function download(url: string, cookie: string, encoding: "identity" | "gzip", pid: number, keep: boolean): Promise<Download> {
  return new Promise((resolve, reject) => {
    const cpu0 = cpuSeconds(pid);
    const rssBefore = rssBytes(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssBytes(pid))), 20);
    const start = performance.now();
    let firstByteMs = 0;
    let wireBytes = 0;
    const parts: Buffer[] = [];
    http
      .get(url, { headers: { Cookie: cookie, "Accept-Encoding": encoding } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        res.on("data", (chunk: Buffer) => {
          if (!firstByteMs) firstByteMs = performance.now() - start;
          wireBytes += chunk.length;
          if (keep) parts.push(chunk);
        });
        res.on("end", () => {
          const totalMs = performance.now() - start;
          clearInterval(sampler);
          rssPeak = Math.max(rssPeak, rssBytes(pid));
          resolve({ firstByteMs, totalMs, wireBytes, csv: keep ? Buffer.concat(parts) : null, cpu: cpuSeconds(pid) - cpu0, rssBefore, rssPeak });
        });
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

async function gunzip(buffer: Buffer): Promise<Buffer> {
  const parts: Buffer[] = [];
  const z = createGunzip();
  z.on("data", (c: Buffer) => parts.push(c));
  const done = new Promise((resolve, reject) => (z.on("end", resolve), z.on("error", reject)));
  z.end(buffer);
  await done;
  return Buffer.concat(parts);
}

const rows: string[] = [];
const mb = (b: number) => (b / 1_048_576).toFixed(1);
const s = (ms: number) => (ms / 1000).toFixed(2);

for (const count of counts) {
  const fill = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench-enquiries.ts"), String(count), "--fill-only", "--keep"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const kept = new RegExp(`(file:\\S*bench-${count}\\.db)`).exec(/Kept .*/.exec(fill.stdout)?.[0] ?? "")?.[1];
  if (fill.status !== 0 || !kept) throw new Error(`Filling ${count} rows failed:\n${fill.stdout}\n${fill.stderr}`);
  console.log(fill.stdout.trim().split("\n")[0]);
  const dbFile = kept.slice("file:".length);
  const dir = path.dirname(dbFile);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const child = spawn(process.execPath, [path.join(ROOT, "server/index.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR,
      SKIP_BUILD_CHECK: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: kept,
      UPLOAD_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "bench-export-secret-0123456789-0123456789-0123",
      SEED_DEMO: "false",
      PUBLIC_URL: url,
      RATE_LIMIT: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`The server exited:\n${log}`);
      if (i > 600) throw new Error(`The server did not start:\n${log}`);
      const ok = await fetch(`${url}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const login = await fetch(`${url}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url },
      body: new URLSearchParams({ email: "bench@example.com", password: "bench-password-123" }),
      redirect: "manual",
    });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("__session="))
      ?.split(";")[0];
    if (!cookie) throw new Error(`Sign-in failed (${login.status})`);
    const exportUrl = `${url}/admin/enquiries/export.csv`;
    const pid = child.pid!;
    await download(exportUrl, cookie, "identity", pid, false); // warm-up: the database's pages in the OS cache
    const plain = await download(exportUrl, cookie, "identity", pid, false);
    const gz = await download(exportUrl, cookie, "gzip", pid, true);
    const csv = await gunzip(gz.csv!);
    const whole = gzipSync(csv).length;
    const lines = csv.toString("utf8").split("\r\n").filter(Boolean).length - 1;
    // Fewer rows than filled: a minor's enquiry held for a guardian is not shown to staff, and the server's retention
    // run at start erases what is past its retention period (the fill spans three years).
    if (lines < 1 || lines > count) throw new Error(`The export held ${lines} rows of ${count}`);
    rows.push(
      `| ${lines.toLocaleString("en-US")} | uncompressed | ${plain.firstByteMs.toFixed(0)} ms | ${s(plain.totalMs)} s | ${plain.cpu.toFixed(2)} s | ${mb(plain.rssBefore)} → ${mb(plain.rssPeak)} MB | ${mb(plain.wireBytes)} MB | |`,
      `| ${lines.toLocaleString("en-US")} | gzip | ${gz.firstByteMs.toFixed(0)} ms | ${s(gz.totalMs)} s | ${gz.cpu.toFixed(2)} s | ${mb(gz.rssBefore)} → ${mb(gz.rssPeak)} MB | ${mb(gz.wireBytes)} MB | ${(gz.wireBytes / whole).toFixed(3)}× of ${mb(whole)} MB |`,
    );
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`\nCSV export of every enquiry over HTTP (built server, SQLite, Node.js ${process.version}; CPU and memory are the server's):`);
console.log("| Rows exported | Encoding | First byte | Whole download | Server CPU | Server memory (before → peak) | On the wire | vs gzipped whole |");
console.log("|---:|---|---:|---:|---:|---|---:|---|");
for (const row of rows) console.log(row);
