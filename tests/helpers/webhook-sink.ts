import http from "node:http";
import type net from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * A local HTTP server that receives webhooks and checks each signature with the secret, as a receiver
 * following Standard Webhooks would. `answer` picks the status per call (say, 500 the first time a record comes).
 */

export type ReceivedHook = { headers: http.IncomingHttpHeaders; body: string; verified: boolean; payload: unknown; status: number };

export type WebhookSink = {
  url: string;
  received: ReceivedHook[];
  /** Picks the status of each call from its number (1, 2 …) and body. */
  answer: (fn: (call: number, body: string) => number) => void;
  waitFor: (match: (h: ReceivedHook) => boolean, count?: number, timeoutMs?: number) => Promise<ReceivedHook[]>;
  close: () => Promise<void>;
};

/** A verifier as a receiver builds it: whsec_<base64> the standard way, any other secret as its raw bytes. */
export function verifierFor(secret: string): Webhook {
  return secret.startsWith("whsec_") ? new Webhook(secret) : new Webhook(new TextEncoder().encode(secret), { format: "raw" });
}

export async function startWebhookSink(secret: string): Promise<WebhookSink> {
  const verifier = verifierFor(secret);
  const received: ReceivedHook[] = [];
  let answer = (_call: number, _body: string) => 204;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let payload: unknown = null;
      let verified = false;
      try {
        payload = verifier.verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const status = answer(received.length + 1, body);
      received.push({ headers: req.headers, body, verified, payload, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (fn) => {
      answer = fn;
    },
    async waitFor(match, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.filter(match);
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`Expected ${count} matching webhook(s) within ${timeoutMs} ms; got ${found.length} of ${received.length}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
