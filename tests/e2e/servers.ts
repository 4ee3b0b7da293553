import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { E2E_PORT } from "./env";

/**
 * Starts the BUILT server (the one Playwright's webServer already built into BUILD_DIR) as a child process
 * with its own environment, database and upload folder, for specs that need settings the shared
 * server does not have (rate limits on, an https PUBLIC_URL, MySQL behind a proxy, data put in place first).
 * Ports: E2E_PORT + offset, so parallel spec files never collide.
 */
export const ADMIN = { email: "admin@example.com", password: "e2e-Admin-password-1" };

export type TestServer = {
  url: string;
  port: number;
  dir: string;
  dbFile: string;
  uploadDir: string;
  proc: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
};

export function portFor(offset: number): number {
  return E2E_PORT + offset;
}

export async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`Server at ${url} did not become healthy`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startServer(offset: number, env: Record<string, string> = {}, opts: { dir?: string } = {}): Promise<TestServer> {
  const port = portFor(offset);
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "soc-hard-"));
  const dbFile = path.join(dir, "app.db");
  const uploadDir = path.join(dir, "uploads");
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  // Something else on the port would answer the health check below in this server's place.
  const taken = await fetch(`${url}/healthz`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`Port ${port} is already in use`);
  const proc = spawn(process.execPath, ["server/index.js"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${dbFile}`,
      UPLOAD_DIR: uploadDir,
      SESSION_SECRET: "hardening-secret-0123456789-0123456789-0123456789",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: "true",
      PUBLIC_URL: url,
      RATE_LIMIT: "off",
      SKIP_BUILD_CHECK: "1",
      PAGE_CACHE_GRACE_SECONDS: "0", // as tests/e2e/start-server.js
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  try {
    await Promise.race([waitForHealth(url), exited.then((code) => Promise.reject(new Error(`Server exited (${code}):\n${log}`)))]);
  } catch (error) {
    proc.kill("SIGKILL");
    throw error;
  }
  return {
    url,
    port,
    dir,
    dbFile,
    uploadDir,
    proc,
    output: () => log,
    stop: async () => {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      const code = await exited;
      if (!opts.dir) fs.rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string; ms: number };

/** One request on its own connection, with the path sent exactly as given (no URL normalising as fetch does). */
export function rawRequest(base: string, method: string, target: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), ms: Date.now() - started }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`Timed out: ${method} ${target}`)));
    if (body !== undefined) req.end(body);
    else req.end();
  });
}
