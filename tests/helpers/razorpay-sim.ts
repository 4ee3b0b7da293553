import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type net from "node:net";

/**
 * A local HTTP server that answers as Razorpay's API does (api.razorpay.com/v1, Basic auth with the key id and
 * secret) for what the app uses: Orders (create, fetch, an order's payments), Payment Links (create, and a hosted
 * page that pays one and redirects to its callback with Razorpay's signature), Payments (fetch, refund). The app's
 * real SDK talks to it through RAZORPAY_API_URL. Webhooks are built and signed like Razorpay's documented samples
 * (`X-Razorpay-Signature`: HMAC-SHA256 of the raw body with the webhook secret; `X-Razorpay-Event-Id`).
 * No vitest import: Playwright specs use it too.
 */

export type SimPayment = {
  id: string;
  entity: "payment";
  amount: number;
  currency: "INR";
  status: "captured" | "refunded";
  order_id: string;
  invoice_id: null;
  method: "upi";
  captured: true;
  description: string;
  amount_refunded: number;
  refund_status: null | "partial" | "full";
  email: string;
  contact: string;
  notes: Record<string, string>;
  created_at: number;
};
type Order = {
  id: string;
  entity: "order";
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: "INR";
  receipt: string;
  status: string;
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
};
type Link = {
  id: string;
  entity?: undefined;
  amount: number;
  currency: "INR";
  reference_id: string;
  status: string;
  short_url: string;
  callback_url: string;
  notes: Record<string, string>;
  order_id: string;
  description: string;
};
type Refund = { id: string; entity: "refund"; amount: number; currency: "INR"; payment_id: string; status: "processed"; created_at: number };

export type RazorpaySim = {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  orders: Map<string, Order>;
  links: Map<string, Link>;
  payments: Map<string, SimPayment>;
  /** A captured payment on an order, as if the student paid (amount defaults to the order's). */
  pay: (orderId: string, amount?: number) => SimPayment;
  refund: (paymentId: string, amount: number) => Refund;
  /** A webhook as Razorpay sends it: the body, and its headers. */
  webhook: (
    event: "payment.captured" | "order.paid" | "refund.processed",
    payment: SimPayment,
    refund?: Refund,
  ) => { body: string; headers: Record<string, string> };
  /** Where the hosted Payment Link page posts its Pay button, and every webhook it sends after (optional). */
  deliverWebhooksTo: (url: string | null) => void;
  close: () => Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(7).toString("base64url").replace(/[-_]/g, "x")}`;
const now = () => Math.floor(Date.now() / 1000);
const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("hex");

export async function startRazorpaySim(): Promise<RazorpaySim> {
  const keyId = `rzp_test_${randomBytes(6).toString("hex")}`;
  const keySecret = randomBytes(12).toString("hex");
  const webhookSecret = randomBytes(12).toString("hex");
  const orders = new Map<string, Order>();
  const links = new Map<string, Link>();
  const payments = new Map<string, SimPayment>();
  let hookUrl: string | null = null;
  let base = "";

  const pay = (orderId: string, amount?: number, notes: Record<string, string> = {}): SimPayment => {
    const order = orders.get(orderId);
    if (!order) throw new Error(`No order ${orderId}`);
    const payment: SimPayment = {
      id: id("pay"),
      entity: "payment",
      amount: amount ?? order.amount_due,
      currency: "INR",
      status: "captured",
      order_id: orderId,
      invoice_id: null,
      method: "upi",
      captured: true,
      description: "",
      amount_refunded: 0,
      refund_status: null,
      email: "student@example.com",
      contact: "+919876543210",
      notes: { ...order.notes, ...notes },
      created_at: now(),
    };
    payments.set(payment.id, payment);
    order.amount_paid += payment.amount;
    order.amount_due = Math.max(0, order.amount - order.amount_paid);
    order.attempts++;
    order.status = order.amount_due === 0 ? "paid" : "attempted";
    return payment;
  };

  const refund = (paymentId: string, amount: number): Refund => {
    const payment = payments.get(paymentId);
    if (!payment) throw new Error(`No payment ${paymentId}`);
    payment.amount_refunded += amount;
    payment.refund_status = payment.amount_refunded >= payment.amount ? "full" : "partial";
    if (payment.refund_status === "full") payment.status = "refunded";
    return { id: id("rfnd"), entity: "refund", amount, currency: "INR", payment_id: paymentId, status: "processed", created_at: now() };
  };

  const webhook: RazorpaySim["webhook"] = (event, payment, r) => {
    const order = orders.get(payment.order_id);
    const payload: Record<string, unknown> = { payment: { entity: payment } };
    if (event === "order.paid" && order) payload.order = { entity: order };
    if (event === "refund.processed" && r) payload.refund = { entity: r };
    const body = JSON.stringify({
      entity: "event",
      account_id: "acc_BFQ7uQEaa7j2z7",
      event,
      contains: Object.keys(payload),
      payload,
      created_at: now(),
    });
    return { body, headers: { "content-type": "application/json", "x-razorpay-signature": sign(webhookSecret, body), "x-razorpay-event-id": id("evt") } };
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: http.ServerResponse) => json(res, 400, { error: { code: "BAD_REQUEST_ERROR", description: "The id provided does not exist" } });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      const raw = Buffer.concat(chunks).toString("utf8");
      // The hosted Payment Link page: no API key, a plain HTML form (works without JavaScript).
      const page = /^\/pl\/([^/]+)(\/pay)?$/.exec(url.pathname);
      if (page) {
        const link = links.get(page[1]);
        if (!link) return void res.writeHead(404).end("No such link");
        if (req.method === "GET") {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          return void res.end(
            `<!doctype html><html lang="en"><title>Razorpay test payment</title><h1>Pay ₹${(link.amount / 100).toFixed(2)}</h1><p>${link.description}</p><form method="post" action="/pl/${link.id}/pay"><button>Pay now</button></form></html>`,
          );
        }
        const payment = pay(link.order_id, link.amount, link.notes);
        link.status = "paid";
        const q = new URLSearchParams({
          razorpay_payment_id: payment.id,
          razorpay_payment_link_id: link.id,
          razorpay_payment_link_reference_id: link.reference_id,
          razorpay_payment_link_status: "paid",
          razorpay_signature: sign(keySecret, `${link.id}|${link.reference_id}|paid|${payment.id}`),
        });
        if (hookUrl) {
          const hook = webhook("payment.captured", payment);
          void fetch(hookUrl, { method: "POST", headers: hook.headers, body: hook.body }).catch(() => {});
        }
        res.writeHead(302, { location: `${link.callback_url}?${q}` });
        return void res.end();
      }
      const auth = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
      if (auth !== `${keyId}:${keySecret}`) return json(res, 401, { error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" } });
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const p = url.pathname;
      let m: RegExpExecArray | null;
      if (req.method === "POST" && p === "/v1/orders") {
        const amount = Number(body.amount);
        if (!Number.isInteger(amount) || amount < 100)
          return json(res, 400, { error: { code: "BAD_REQUEST_ERROR", description: "The amount must be atleast INR 1.00" } });
        const order: Order = {
          id: id("order"),
          entity: "order",
          amount,
          amount_paid: 0,
          amount_due: amount,
          currency: "INR",
          receipt: String(body.receipt ?? ""),
          status: "created",
          attempts: 0,
          notes: (body.notes as Record<string, string>) ?? {},
          created_at: now(),
        };
        orders.set(order.id, order);
        return json(res, 200, order);
      }
      if (req.method === "GET" && (m = /^\/v1\/orders\/([^/]+)\/payments$/.exec(p))) {
        if (!orders.has(m[1])) return notFound(res);
        const items = [...payments.values()].filter((x) => x.order_id === m![1]);
        return json(res, 200, { entity: "collection", count: items.length, items });
      }
      if (req.method === "GET" && (m = /^\/v1\/orders\/([^/]+)$/.exec(p))) return orders.has(m[1]) ? json(res, 200, orders.get(m[1])) : notFound(res);
      if (req.method === "POST" && p === "/v1/payment_links") {
        const reference = String(body.reference_id ?? "");
        if ([...links.values()].some((l) => l.reference_id === reference))
          return json(res, 400, { error: { code: "BAD_REQUEST_ERROR", description: "Payment Link with reference_id already exists" } });
        // A Payment Link pays through an order of its own, made by Razorpay.
        const order: Order = {
          id: id("order"),
          entity: "order",
          amount: Number(body.amount),
          amount_paid: 0,
          amount_due: Number(body.amount),
          currency: "INR",
          receipt: "",
          status: "created",
          attempts: 0,
          notes: {},
          created_at: now(),
        };
        orders.set(order.id, order);
        const linkId = id("plink");
        const link: Link = {
          id: linkId,
          amount: Number(body.amount),
          currency: "INR",
          reference_id: reference,
          status: "created",
          short_url: `${base}/pl/${linkId}`,
          callback_url: String(body.callback_url ?? ""),
          notes: (body.notes as Record<string, string>) ?? {},
          order_id: order.id,
          description: String(body.description ?? ""),
        };
        links.set(linkId, link);
        const { order_id: _o, ...shown } = link;
        return json(res, 200, shown);
      }
      if (req.method === "GET" && (m = /^\/v1\/payments\/([^/]+)$/.exec(p))) return payments.has(m[1]) ? json(res, 200, payments.get(m[1])) : notFound(res);
      if (req.method === "POST" && (m = /^\/v1\/payments\/([^/]+)\/refund$/.exec(p))) {
        if (!payments.has(m[1])) return notFound(res);
        return json(res, 200, refund(m[1], Number(body.amount ?? payments.get(m[1])!.amount)));
      }
      json(res, 404, { error: { code: "BAD_REQUEST_ERROR", description: "The requested URL was not found on the server." } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: base,
    keyId,
    keySecret,
    webhookSecret,
    orders,
    links,
    payments,
    pay: (orderId, amount) => pay(orderId, amount),
    refund,
    webhook,
    deliverWebhooksTo: (url) => (hookUrl = url),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
