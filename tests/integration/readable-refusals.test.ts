import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { startApiServer, signInCookie } from "../helpers/api-server";

/**
 * A refusal answered before the upload it refuses has arrived (413 too large, 403 cross-site) must reach the client:
 * the server sends it, then reads and drops what is still coming for a bounded time before it closes. Closing at
 * once made the kernel reset the connection under the client's next bytes, and the client lost the answer.
 * A raw socket plays the slow browser: it sends part of a large body after the answer is out, and reads only then.
 */
const server = startApiServer();
let cookie = "";

beforeAll(async () => {
  cookie = await signInCookie(server.url);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `head`, then `bodyBytes` of body in chunks (not the whole declared length), then reads what came back. */
async function slowUpload(head: string, bodyBytes: number): Promise<{ answer: string; error: string | null }> {
  const { port, hostname } = new URL(server.url);
  const socket = net.connect(Number(port), hostname);
  const received: Buffer[] = [];
  let error: string | null = null;
  socket.on("data", (chunk) => received.push(chunk));
  socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.pause(); // like a browser that reads the answer only when its upload is done
  socket.write(head);
  await sleep(300); // the refusal is out by now
  const chunk = Buffer.alloc(64 * 1024, "a");
  for (let sent = 0; sent < bodyBytes && !socket.destroyed; sent += chunk.length) {
    socket.write(chunk);
    await sleep(5);
  }
  await sleep(300);
  socket.resume();
  await new Promise<void>((resolve) => {
    socket.once("close", () => resolve());
    setTimeout(() => resolve(), 5000);
  });
  socket.destroy();
  return { answer: Buffer.concat(received).toString("latin1"), error };
}

const multipartHead = (path: string, length: number, extra = "") =>
  `POST ${path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${length}\r\n${extra}\r\n`;

describe("a refused upload", () => {
  it("413: the page saying it is too large arrives whole, without a reset", async () => {
    const { answer, error } = await slowUpload(multipartHead("/enquiry", 40 * 1024 * 1024), 900 * 1024);
    expect(error).toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain("What you sent is too large");
    expect(answer).toContain("</html>");
  });

  it("403 cross-site: the refusal arrives whole, without a reset", async () => {
    const head = multipartHead("/admin/courses/new", 6 * 1024 * 1024, `Cookie: ${cookie}\r\nOrigin: http://evil.example\r\n`);
    const { answer, error } = await slowUpload(head, 900 * 1024);
    expect(error).toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain("</html>");
  });

  it("a client that goes on sending past the bound is cut off", async () => {
    const started = Date.now();
    const { answer } = await slowUpload(multipartHead("/enquiry", 40 * 1024 * 1024), 3 * 1024 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
