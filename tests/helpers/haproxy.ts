import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A real HAProxy (Debian's package) in front of app instances for tests, configured by deploy/haproxy.cfg:
 * round-robin, health checks on /healthz, a request retried on another instance when a connection fails.
 */
export type Proxy = { url: string; output: () => string; stop: () => Promise<void> };

export function haproxyPath(): string {
  const found = spawnSync("sh", ["-c", "command -v haproxy || ls /usr/sbin/haproxy"], { encoding: "utf8" }).stdout.trim().split("\n")[0];
  if (!found) throw new Error("haproxy is not installed: apt-get install haproxy (.ci/run does)");
  return found;
}

export async function startHaproxy(port: number, backends: { name: string; port: number }[]): Promise<Proxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-haproxy-"));
  // The deployment's own file, with this test's ports: what is tested is what is shipped.
  const shipped = fs.readFileSync(path.join(import.meta.dirname, "../../deploy/haproxy.cfg"), "utf8");
  const config = shipped
    .replace(/^ {2}bind .*$/m, `  bind 127.0.0.1:${port}`)
    .replace(/(^ {2}server .*\n)+/m, backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check\n`).join(""));
  if (!config.includes(`server ${backends[0].name} 127.0.0.1`)) throw new Error("deploy/haproxy.cfg has no server lines to replace");
  fs.writeFileSync(path.join(dir, "haproxy.cfg"), config);
  let log = "";
  const child = spawn(haproxyPath(), ["-f", path.join(dir, "haproxy.cfg"), "-db"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${log}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not answer: ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
