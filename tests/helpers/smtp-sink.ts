import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "./ports";

/**
 * A real SMTP server in the test process (smtp-server) that keeps every message it accepts, parsed by
 * mailparser. It can be stopped and started again on the same port (an outage), or made to stall: it takes
 * the message but never answers, so the sender holds its connection (and its outbox lease) open.
 */

export type ReceivedMail = { parsed: ParsedMail; raw: string; envelope: { from: string; to: string[] }; user: string | undefined };

export type SmtpSink = {
  port: number;
  /** smtp://user:pass@127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** While on, messages are read and then left unanswered. */
  stall: (on: boolean) => void;
  /** Waits until `count` messages match, or fails after `timeoutMs`. */
  waitFor: (match: (m: ReceivedMail) => boolean, count?: number, timeoutMs?: number) => Promise<ReceivedMail[]>;
};

export const SMTP_USER = "outbox";
export const SMTP_PASS = "smtp-pass-0123";

export async function startSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  let stalled = false;
  let server: SMTPServer | undefined;

  const make = () =>
    new SMTPServer({
      logger: false,
      // Plain SMTP with AUTH, as on a local relay: the app must not insist on TLS the server does not offer.
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      authMethods: ["PLAIN", "LOGIN"],
      disableReverseLookup: true,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASS) callback(null, { user: auth.username });
        else callback(new Error("Invalid username or password"));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          if (stalled) return; // never answered: the client waits until it gives up or dies
          const raw = Buffer.concat(chunks);
          simpleParser(raw).then(
            (parsed) => {
              const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
              received.push({
                parsed,
                raw: raw.toString("utf8"),
                envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) },
                user: session.user as string | undefined,
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });

  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = make();
      server.on("error", () => {});
      server.server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      for (const c of s.connections) c.close();
      s.close(() => resolve());
    });

  await start();
  return {
    port,
    url: `smtp://${SMTP_USER}:${SMTP_PASS}@127.0.0.1:${port}`,
    received,
    start,
    stop,
    stall: (on) => {
      stalled = on;
    },
    async waitFor(match, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.filter(match);
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(
            `Expected ${count} matching e-mail(s) within ${timeoutMs} ms; got ${found.length} of ${received.length}: ${received.map((m) => m.parsed.subject).join(" | ")}`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

/** The address list of a parsed header (To, Reply-To), whichever shape mailparser gave it. */
export function addresses(field: ParsedMail["to"]): string[] {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((a) => a.value.map((v) => v.address ?? ""));
}
