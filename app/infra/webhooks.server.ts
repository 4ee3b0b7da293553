import { Webhook } from "standardwebhooks";
import { env } from "~/env.server";

/**
 * Webhooks per the Standard Webhooks specification (standardwebhooks.com): a JSON POST with `webhook-id`
 * (the same on every retry of one message), `webhook-timestamp` (this attempt, Unix seconds) and
 * `webhook-signature` (`v1,` + base64 HMAC-SHA256 over `id.timestamp.body`, keyed by WEBHOOK_SECRET).
 *
 * WEBHOOK_SECRET `whsec_<base64>` is read the standard way: the key is the decoded bytes after the prefix, as
 * every Standard Webhooks library does. Any other value is a plain string whose UTF-8 bytes are the key.
 */

export const WEBHOOK_TIMEOUT_MS = 10_000;

export function webhookUrls(): string[] {
  return env().WEBHOOK_URL ?? [];
}

let signer: { secret: string; webhook: Webhook } | undefined;

function webhookSigner(): Webhook {
  const secret = env().WEBHOOK_SECRET;
  if (!secret) throw new Error("WEBHOOK_SECRET is unset");
  if (signer?.secret !== secret) {
    signer = { secret, webhook: secret.startsWith("whsec_") ? new Webhook(secret) : new Webhook(new TextEncoder().encode(secret), { format: "raw" }) };
  }
  return signer.webhook;
}

/** The `webhook-id` of an outbox row: stable across retries, so a receiver can drop a repeat. */
export function webhookIdFor(outboxId: string): string {
  return `msg_${outboxId}`;
}

/**
 * One delivery attempt. A 2xx answer within WEBHOOK_TIMEOUT_MS is a delivery; anything else (another
 * status, a redirect, a timeout, a refused connection) throws, and the outbox retries it later.
 */
export async function postWebhook(url: string, outboxId: string, body: string, now = new Date()): Promise<void> {
  const id = webhookIdFor(outboxId);
  const signature = webhookSigner().sign(id, now, body);
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "CyberSOC-Academy-Webhooks/1.0",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body,
      // A redirect is not a delivery: following it could send the signed record somewhere not configured.
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
  } catch (error) {
    const e = error as { name?: string; cause?: { code?: string; message?: string }; message?: string };
    if (e.name === "TimeoutError") throw new Error(`No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`);
    throw new Error(`Could not connect: ${e.cause?.code ?? e.cause?.message ?? e.message ?? "network error"}`);
  }
  // The answer's body is not needed; dropping it frees the connection.
  await res.body?.cancel().catch(() => {});
  if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
}
