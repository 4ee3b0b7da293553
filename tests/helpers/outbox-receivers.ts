import { afterAll } from "vitest";
import { runOutboxPass } from "~/infra/outbox-worker.server";
import { startSmtpSink, type SmtpSink } from "./smtp-sink";
import { startWebhookSink, type WebhookSink } from "./webhook-sink";

/**
 * The real receivers the outbox delivers to in an integration test: an SMTP server in this process and a local
 * HTTP server that verifies webhook signatures. The app reads its settings once, at the
 * first env() call, so this runs at the top of the test file, before any app code (`await` at module level), and
 * stops both after the file. `env` adds to or overrides the settings below.
 */
export const WEBHOOK_SECRET = "a-plain-webhook-secret-of-enough-length-42";

export async function startOutboxReceivers({ env = {} }: { env?: Record<string, string> } = {}): Promise<{ smtp: SmtpSink; hooks: WebhookSink }> {
  const smtp = await startSmtpSink();
  const hooks = await startWebhookSink(WEBHOOK_SECRET);
  Object.assign(process.env, {
    SMTP_URL: smtp.url,
    MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>",
    NOTIFY_EMAIL: "desk@cybersoc.test",
    WEBHOOK_URL: hooks.url,
    WEBHOOK_SECRET,
    PUBLIC_URL: "https://academy.example",
    // The server speaks HTTP: an https address means a TLS proxy in front, which the start requires it to trust.
    TRUST_PROXY: "true",
    ...env,
  });
  afterAll(async () => {
    await smtp.stop();
    await hooks.close();
  });
  return { smtp, hooks };
}

/** Runs the outbox worker's passes here until nothing is left to send (at most 20); `log` gets the worker's lines. */
export async function drainOutbox(log: (line: string) => void = () => {}): Promise<void> {
  for (let i = 0; i < 20 && (await runOutboxPass(log)) > 0; i++);
}
