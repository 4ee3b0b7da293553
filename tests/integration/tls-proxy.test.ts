import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_BUILD_DIR, ensureBuilt, startApiServer } from "../helpers/api-server";

/**
 * A deployment behind a TLS proxy: the Node server speaks plain HTTP, so an https PUBLIC_URL means a proxy in
 * front. Without TRUST_PROXY the app took every request for http and React Router refused every page form post
 * (400, a stack trace in the log each time): the start now stops and says so. With it, a form posted from
 * PUBLIC_URL works even when the proxy hands the app another Host, and a post that React Router still refuses
 * gets the cross-site page and one log line.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const PUBLIC_URL = "https://academy.example";
const server = startApiServer({ PUBLIC_URL, TRUST_PROXY: "true" });

const contact = { intent: "contact", name: "Meera Das", email: "meera@example.com", phone: "", subject: "Fees", message: "What are the fees?" };

function postContact(headers: Record<string, string>) {
  return fetch(`${server.url}/contact`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", ...headers },
    body: new URLSearchParams(contact),
    redirect: "manual",
  });
}

describe("an https PUBLIC_URL", () => {
  it("stops the start without TRUST_PROXY, with a message naming it", async () => {
    await ensureBuilt();
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR: API_BUILD_DIR,
      SKIP_BUILD_CHECK: "1",
      PORT: "9",
      DATABASE_URL: "file:/nonexistent/never-opened.db",
      SESSION_SECRET: "s".repeat(40),
      PUBLIC_URL,
    };
    delete env.TRUST_PROXY;
    const child = spawn(process.execPath, [path.join(ROOT, "server/index.js")], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    // A start that does not stop (the old behaviour) is ended here rather than left running.
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(output).toMatch(/TRUST_PROXY: must be set when PUBLIC_URL is https/);
    // A configuration message, not a crash.
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("takes a form posted from PUBLIC_URL through a proxy that hands the app its own Host", async () => {
    const res = await postContact({ Origin: PUBLIC_URL, "X-Forwarded-Proto": "https" });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toMatch(/Bad Request/);
  });

  it("answers a post React Router refuses with the cross-site page and logs one line, no stack trace", async () => {
    const before = server.output().length;
    // Origin https://<this host>, passed by the first check (a proxy that terminates TLS), but the request came
    // in as http: React Router compares the two and refuses.
    const host = new URL(server.url).host;
    const res = await postContact({ Origin: `https://${host}` });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/We could not accept this form/);
    await new Promise((r) => setTimeout(r, 200));
    const log = server.output().slice(before);
    expect(log).toMatch(/403 POST \/contact: cross-site form post refused \(Origin: https:\/\/127\.0\.0\.1/);
    expect(
      log
        .trim()
        .split("\n")
        .filter((l) => /refused|error|Error/.test(l)),
      log,
    ).toHaveLength(1);
    expect(log).not.toMatch(/\n\s+at |Error: The `request.url`/);
  });

  it("refuses a foreign origin before React Router, with one line", async () => {
    const before = server.output().length;
    const res = await postContact({ Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" });
    expect(res.status).toBe(403);
    await new Promise((r) => setTimeout(r, 200));
    const log = server.output().slice(before);
    expect(log).toMatch(/403 POST \/contact: cross-site form post refused \(Origin: https:\/\/evil\.example/);
    expect(log).not.toMatch(/\n\s+at /);
  });
});
