import { createHmac, timingSafeEqual } from "node:crypto";
import { createRequire } from "node:module";
import Razorpay from "razorpay";
import { env } from "~/env.server";

/**
 * Razorpay through its official Node SDK (`razorpay`): Orders, Payment Links, Payments and Refunds, and the three
 * signatures it sends: Checkout's `razorpay_signature` (HMAC-SHA256 of `order_id|payment_id` with the key secret), a
 * Payment Link's callback signature (of `link_id|reference_id|status|payment_id`), and the webhook's
 * `X-Razorpay-Signature` (of the raw body with the webhook secret). Every comparison is constant-time.
 *
 * The SDK's client (its dist/api.js) takes a host URL, but the SDK's constructor fixes it to api.razorpay.com:
 * RAZORPAY_API_URL, when set elsewhere (the tests' local server), replaces the client and re-binds the resources.
 */

export type RazorpayPayment = {
  id: string;
  entity: "payment";
  amount: number;
  currency: string;
  status: "created" | "authorized" | "captured" | "refunded" | "failed";
  order_id: string | null;
  method?: string;
  notes?: Record<string, string> | unknown[];
  created_at?: number;
};
export type RazorpayOrder = {
  id: string;
  entity: "order";
  amount: number;
  amount_paid: number;
  currency: string;
  receipt: string;
  status: string;
  notes?: unknown;
};
export type RazorpayLink = { id: string; short_url: string; reference_id: string; status: string; amount: number };
export type RazorpayRefund = { id: string; entity: "refund"; amount: number; payment_id: string; status: string };

export function razorpayConfigured(): boolean {
  const e = env();
  return Boolean(e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET && e.RAZORPAY_WEBHOOK_SECRET);
}

export const razorpayKeyId = () => env().RAZORPAY_KEY_ID ?? "";

type Client = InstanceType<typeof Razorpay> & { addResources: () => void };
let cached: { key: string; client: Client } | undefined;

function client(): Client {
  const e = env();
  if (!e.RAZORPAY_KEY_ID || !e.RAZORPAY_KEY_SECRET) throw new Error("Razorpay is not configured");
  const key = `${e.RAZORPAY_KEY_ID}|${e.RAZORPAY_API_URL}`;
  if (cached?.key === key) return cached.client;
  const rzp = new Razorpay({ key_id: e.RAZORPAY_KEY_ID, key_secret: e.RAZORPAY_KEY_SECRET }) as Client;
  const host = e.RAZORPAY_API_URL.replace(/\/+$/, "");
  if (host !== "https://api.razorpay.com") {
    const API = createRequire(import.meta.url)("razorpay/dist/api") as new (o: Record<string, unknown>) => unknown;
    (rzp as unknown as { api: unknown }).api = new API({
      hostUrl: host,
      ua: `razorpay-node@${Razorpay.VERSION}`,
      key_id: e.RAZORPAY_KEY_ID,
      key_secret: e.RAZORPAY_KEY_SECRET,
    });
    rzp.addResources();
  }
  cached = { key, client: rzp };
  return rzp;
}

/** The SDK rejects with `{ statusCode, error }`, not an Error: made one, with Razorpay's own description. */
async function call<T>(work: () => Promise<unknown>): Promise<T> {
  try {
    return (await work()) as T;
  } catch (error) {
    if (error instanceof Error) throw error;
    const e = error as { statusCode?: number; error?: { description?: string } };
    throw new Error(`Razorpay answered ${e.statusCode ?? "?"}: ${e.error?.description ?? "no description"}`);
  }
}

export function createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<RazorpayOrder> {
  return call(() => client().orders.create({ amount: input.amountPaise, currency: "INR", receipt: input.receipt, notes: input.notes }));
}

export function fetchOrderPayments(orderId: string): Promise<{ items: RazorpayPayment[] }> {
  return call(() => client().orders.fetchPayments(orderId));
}

export function fetchPayment(paymentId: string): Promise<RazorpayPayment> {
  return call(() => client().payments.fetch(paymentId));
}

/** Gives back part or all of a captured payment (Razorpay's Refunds: POST /v1/payments/:id/refund). */
export function createRefund(paymentId: string, input: { amountPaise: number; notes: Record<string, string> }): Promise<RazorpayRefund> {
  return call(() => client().payments.refund(paymentId, { amount: input.amountPaise, speed: "normal", notes: input.notes }));
}

export function createPaymentLink(input: {
  amountPaise: number;
  referenceId: string;
  description: string;
  customer: { name: string; email: string };
  callbackUrl: string;
  notes: Record<string, string>;
}): Promise<RazorpayLink> {
  return call(() =>
    client().paymentLink.create({
      amount: input.amountPaise,
      currency: "INR",
      accept_partial: false,
      reference_id: input.referenceId,
      description: input.description.slice(0, 2048),
      customer: input.customer,
      notify: { sms: false, email: false },
      reminder_enable: false,
      notes: input.notes,
      callback_url: input.callbackUrl,
      callback_method: "get",
    }),
  );
}

function hmacHex(secret: string, payload: string | Buffer): string {
  return createHmac("sha256", secret).update(payload).digest("hex");
}

function sameHex(expected: string, given: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(given.toLowerCase(), "hex"));
}

/** Checkout's handler: the order id must be the one we stored for the due, never the one the browser sends alone. */
export function checkoutSignatureValid(storedOrderId: string, paymentId: string, signature: string): boolean {
  return sameHex(hmacHex(env().RAZORPAY_KEY_SECRET ?? "", `${storedOrderId}|${paymentId}`), signature);
}

export function paymentLinkSignatureValid(link: { id: string; referenceId: string; status: string; paymentId: string }, signature: string): boolean {
  return sameHex(hmacHex(env().RAZORPAY_KEY_SECRET ?? "", `${link.id}|${link.referenceId}|${link.status}|${link.paymentId}`), signature);
}

/** The webhook's signature over the body exactly as it arrived (the raw bytes, never re-serialised JSON). */
export function webhookSignatureValid(rawBody: Buffer, signature: string | null): boolean {
  const secret = env().RAZORPAY_WEBHOOK_SECRET;
  if (!secret || !signature) return false;
  return sameHex(hmacHex(secret, rawBody), signature);
}

/**
 * What the pages' Content-Security-Policy must allow when Razorpay is configured (server/security.ts): Checkout's
 * script and its frames and calls (JavaScript), and the Payment Link a form's answer redirects to (form-action
 * applies to redirects after a form post). The API's own origin too, when RAZORPAY_API_URL points elsewhere (tests).
 */
export function razorpayCspOrigins(): { script: string[]; frame: string[]; connect: string[]; formAction: string[] } {
  if (!razorpayConfigured()) return { script: [], frame: [], connect: [], formAction: [] };
  const api = new URL(env().RAZORPAY_API_URL).origin;
  const formAction = [...new Set(["https://rzp.io", "https://api.razorpay.com", api])];
  return {
    script: ["https://checkout.razorpay.com"],
    frame: ["https://api.razorpay.com", "https://checkout.razorpay.com"],
    connect: ["https://api.razorpay.com", "https://lumberjack.razorpay.com"],
    formAction,
  };
}
