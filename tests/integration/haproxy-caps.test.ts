import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHaproxy, type Proxy } from "../helpers/haproxy";
import { freePort } from "../helpers/ports";

/**
 * The caps deploy/haproxy.cfg puts on slow and greedy clients, with Debian's HAProxy running the shipped file in
 * front of a plain backend that answers every request: connections at once per client address, the time to send
 * the request's headers, silence in the middle of a body, and the largest declared body.
 */
let backend: http.Server;
let proxy: Proxy;
let port = 0;

beforeAll(async () => {
  const backendPort = await freePort();
  backend = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  await new Promise<void>((r) => backend.listen(backendPort, "127.0.0.1", r));
  port = await freePort();
  proxy = await startHaproxy(port, [{ name: "app1", port: backendPort }]);
}, 30_000);

afterAll(async () => {
  await proxy?.stop();
  await new Promise((r) => backend?.close(r));
});

/** A raw connection to the proxy; resolves with what the proxy sent and whether it closed the connection. */
function connect(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Sends one request on the connection: true when an answer comes, false when the connection is closed instead. */
function answered(socket: net.Socket): Promise<boolean> {
  return new Promise((resolve) => {
    socket.once("data", () => resolve(true));
    socket.once("close", () => resolve(false));
    socket.once("error", () => resolve(false));
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  });
}

function closed(socket: net.Socket): Promise<{ data: string; ms: number }> {
  const start = Date.now();
  let data = "";
  socket.on("data", (d) => (data += d));
  return new Promise((resolve) => socket.on("close", () => resolve({ data, ms: Date.now() - start })));
}

describe("deploy/haproxy.cfg caps slow and greedy clients", () => {
  it("takes at most 50 connections at once from one address", async () => {
    const held: net.Socket[] = [];
    try {
      // Connections are opened one by one and kept open (keep-alive), each proved by an answer, until one is turned
      // away. This process's own pooled connection from the start-up health check may be one of the 50.
      for (let i = 0; i < 60; i++) {
        const socket = await connect().catch(() => null);
        if (!socket) break;
        if (!(await answered(socket))) {
          socket.destroy();
          break;
        }
        held.push(socket);
      }
      expect(held.length).toBeGreaterThanOrEqual(48);
      expect(held.length).toBeLessThanOrEqual(50);
    } finally {
      for (const s of held) s.destroy();
    }
    // Once they are gone, the address gets in again.
    await new Promise((r) => setTimeout(r, 300));
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
  });

  it("closes a connection whose headers do not arrive within 10 s (slowloris)", async () => {
    const socket = await connect();
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n");
    const timer = setInterval(() => socket.writable && socket.write("X-a: b\r\n"), 1000);
    const { data, ms } = await closed(socket);
    clearInterval(timer);
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThan(9_000);
    expect(ms).toBeLessThan(13_000);
  }, 20_000);

  it("refuses a declared body over 25 MB before reading it", async () => {
    const socket = await connect();
    socket.write(`POST /enquiry HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${30 * 1024 * 1024}\r\n\r\n--b\r\n`);
    const { data } = await closed(socket);
    expect(data).toMatch(/^HTTP\/1\.1 413/);
  });

  it("passes an ordinary upload through", async () => {
    const res = await fetch(`${proxy.url}/enquiry`, { method: "POST", body: "x".repeat(2 * 1024 * 1024) });
    expect([res.status, await res.text()]).toEqual([200, "ok"]);
  });
});
