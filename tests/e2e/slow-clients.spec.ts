import net from "node:net";
import { expect, test } from "./fixtures";
import { E2E_BASE_URL } from "./env";

/**
 * Slow clients on loopback against the built server: a slowloris that never finishes its headers and a
 * client that sends headers but never its body are both cut off, while normal requests keep being served.
 */
const { hostname, port } = new URL(E2E_BASE_URL);

type Outcome = { closedAfterMs: number; received: string };

/** Opens a connection, sends `start`, then `drip` every `everyMs` until the server closes the connection. */
function slowClient(start: string, drip: string | null, everyMs: number, giveUpMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const opened = Date.now();
    let received = "";
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(start));
    const timer = drip
      ? setInterval(() => {
          if (!socket.destroyed && socket.writable) socket.write(drip);
        }, everyMs)
      : undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`Still connected after ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on("data", (d) => (received += d.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: Date.now() - opened, received });
    });
  });
}

test("a slowloris that never finishes its headers is cut off, and others are still served meanwhile", async () => {
  test.setTimeout(60_000);
  const clients = Array.from({ length: 20 }, (_, i) =>
    slowClient(`GET /?slow=${i} HTTP/1.1\r\nHost: ${hostname}\r\n`, `X-Slow-${Date.now()}: 1\r\n`, 1000, 30_000),
  );

  // While the slow ones hang on, a normal request is answered promptly.
  await new Promise((r) => setTimeout(r, 2000));
  const started = Date.now();
  const res = await fetch(`${E2E_BASE_URL}/healthz`);
  expect(res.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(2000);

  const outcomes = await Promise.all(clients);
  for (const o of outcomes) {
    // Cut off by the 15 s headers timeout (checked every second), not at once and not never.
    expect(o.closedAfterMs).toBeGreaterThan(10_000);
    expect(o.closedAfterMs).toBeLessThan(20_000);
    expect(o.received).toMatch(/^HTTP\/1\.1 408|^$/);
  }
});

test("a client that sends headers but never its body is cut off", async () => {
  test.setTimeout(60_000);
  const o = await slowClient(
    `POST /contact HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nname=`,
    null,
    0,
    45_000,
  );
  // The socket goes quiet: the 30 s idle timeout closes it.
  expect(o.closedAfterMs).toBeGreaterThan(25_000);
  expect(o.closedAfterMs).toBeLessThan(40_000);
});

test("a slow but honest client that finishes its headers in time is served", async () => {
  const o = await new Promise<Outcome>((resolve) => {
    const opened = Date.now();
    let received = "";
    const socket = net.connect({ host: hostname, port: Number(port) }, async () => {
      for (const line of ["GET /healthz HTTP/1.1\r\n", `Host: ${hostname}\r\n`, "Connection: close\r\n", "\r\n"]) {
        socket.write(line);
        await new Promise((r) => setTimeout(r, 1500));
      }
    });
    socket.on("data", (d) => (received += d.toString()));
    socket.on("close", () => resolve({ closedAfterMs: Date.now() - opened, received }));
  });
  expect(o.received).toMatch(/^HTTP\/1\.1 200/);
});
