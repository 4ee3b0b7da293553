import { inTransaction } from "~db/client.server";
import {
  checkoutSignatureValid,
  createOrder,
  createPaymentLink,
  fetchOrderPayments,
  fetchPayment,
  paymentLinkSignatureValid,
  razorpayConfigured,
  razorpayKeyId,
  webhookSignatureValid,
  type RazorpayPayment,
  type RazorpayRefund,
} from "~/infra/razorpay.server";
import { getEnquiry } from "~/models/enquiry.server";
import { getDue, lockFeeAccount } from "~/models/fees.server";
import { getInvoice } from "~/models/invoices.server";
import {
  claimGatewayEvent,
  getGatewayOrderById,
  getGatewayOrderByLinkId,
  getGatewayOrderByOrderId,
  getPaymentByGatewayId,
  insertGatewayOrder,
  openGatewayOrderOfDue,
  setGatewayOrderLink,
  setGatewayOrderStatus,
  staleGatewayOrders,
  type GatewayOrder,
} from "~/models/payments.server";
import { siteToday } from "~/util/dates";
import { publicOrigin } from "~/util/origin.server";
import { issueInvoiceForDue } from "./invoices.server";
import { receivePayment, recordRefund, type Received } from "./payments.server";
import { invalid, notFound, ServiceError } from "./service-error";

/**
 * Paying a due through Razorpay (issue 38), when RAZORPAY_KEY_ID, _KEY_SECRET and _WEBHOOK_SECRET are set. The amount
 * always comes from our records (what is left of the due), never from the browser; each attempt is an Order created
 * on the server with the due's invoice number as its `receipt`. With JavaScript the page opens Razorpay Checkout on
 * that order; without, the student is sent to a Payment Link for it. Money is recorded only from what Razorpay says,
 * checked by signature: Checkout's handler (order id we stored + payment id), the Payment Link's callback, or the
 * webhook (raw body). Each Razorpay payment, refund and event is recorded once, whichever of them comes first and
 * however often (unique keys), and a reconciliation job asks Razorpay about orders still open after 30 minutes.
 */

const BY = { actor: null, name: "Razorpay" };
export const GATEWAY_FAILED = "The payment could not be verified. If money left your account, it is refunded by Razorpay, or call us.";

export const gatewayEnabled = razorpayConfigured;

/** Razorpay takes no order below ₹1. */
const RAZORPAY_MIN_PAISE = 100;
export const LESS_THAN_MINIMUM = "Less than ₹1.00 is left on this due: Razorpay takes ₹1 or more. Pay it by UPI, or ask us.";
export const NOT_CONFIRMED_YET =
  "We could not confirm your payment with Razorpay just now. If money left your account, it will show on your page within the hour; no need to pay again.";
export const GATEWAY_UNAVAILABLE = "Razorpay could not start the payment just now. Please try again in a few minutes, or pay by UPI.";

/** Razorpay refusing or unreachable when a payment starts: a message for the student (the log keeps its words). */
async function gatewayCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    console.error("[razorpay] starting a payment failed:", error instanceof Error ? error.message : error);
    throw invalid({ dueId: GATEWAY_UNAVAILABLE });
  }
}

type Started = { order: GatewayOrder; keyId: string; invoiceNumber: string; name: string; email: string; linkUrl: string | null };

/**
 * Starts paying what is left of a due: its invoice (issued now if it had none, for the order's receipt), an Order at
 * Razorpay for that amount (one reused while it is open for the same amount), and for `link` a Payment Link to send
 * the browser to. `allowed`: the enquiries the student's own link opens. Razorpay is called outside any transaction.
 */
export async function startGatewayPayment(allowed: string[], dueId: string, mode: "checkout" | "link"): Promise<Started> {
  if (!razorpayConfigured()) throw notFound("Online payment");
  // Read before the transaction, whose first statement is then the account's lock (see newest() in db/client).
  const found = await getDue(dueId);
  if (!found || !allowed.includes(found.enquiryId)) throw notFound("Due");
  const prepared = await inTransaction(async () => {
    const account = (await lockFeeAccount(found.accountId))!;
    const due = (await getDue(dueId))!;
    const amountPaise = due.amountPaise - due.paidPaise;
    if (due.status !== "open" || amountPaise <= 0) throw invalid({ dueId: "This due is already paid." });
    if (amountPaise < RAZORPAY_MIN_PAISE) throw invalid({ dueId: LESS_THAN_MINIMUM });
    const invoice = await issueInvoiceForDue(due, account, "Razorpay");
    const enquiry = await getEnquiry(account.enquiryId);
    return { due, account, amountPaise, invoice, enquiry, open: await openGatewayOrderOfDue(due.id, amountPaise) };
  });
  const { due, account, amountPaise, invoice, enquiry } = prepared;
  let order = prepared.open;
  if (!order) {
    const created = await gatewayCall(() => createOrder({ amountPaise, receipt: invoice.number, notes: { due_id: due.id, invoice: invoice.number } }));
    order = await inTransaction(() =>
      insertGatewayOrder({ dueId: due.id, accountId: account.id, enquiryId: account.enquiryId, orderId: created.id, amountPaise, receipt: invoice.number }),
    );
  }
  let linkUrl = order.linkUrl;
  if (mode === "link" && !linkUrl) {
    const link = await gatewayCall(() =>
      createPaymentLink({
        amountPaise,
        // Unique per link: the order's own id after the invoice number.
        referenceId: `${invoice.number}#${order.id.slice(0, 8)}`,
        description: `${account.courseTitle}: ${due.label} (invoice ${invoice.number})`,
        customer: { name: account.billingName, email: enquiry?.email ?? "" },
        callbackUrl: `${publicOrigin()}/me/pay/razorpay`,
        notes: { due_id: due.id, gateway_order_id: order.id, invoice: invoice.number },
      }),
    );
    await inTransaction(() => setGatewayOrderLink(order!.id, link.id, link.short_url));
    linkUrl = link.short_url;
  }
  return { order, keyId: razorpayKeyId(), invoiceNumber: invoice.number, name: account.billingName, email: enquiry?.email ?? "", linkUrl };
}

/** Records a payment Razorpay says is captured, for our order (inside a transaction; once per Razorpay payment id). */
async function recordCaptured(order: GatewayOrder, payment: RazorpayPayment): Promise<Received | null> {
  if (payment.status !== "captured" && payment.status !== "refunded") return null;
  const account = await lockFeeAccount(order.accountId);
  if (!account) return null;
  const received = await receivePayment(
    account,
    {
      method: "razorpay",
      amountPaise: payment.amount,
      reference: payment.id,
      receivedOn: siteToday(payment.created_at ? new Date(payment.created_at * 1000) : new Date()),
      note: payment.method ? `Paid by ${payment.method} through Razorpay` : "Paid through Razorpay",
      gatewayPaymentId: payment.id,
    },
    BY,
  );
  if (order.status !== "paid") await setGatewayOrderStatus(order.id, "paid");
  return received;
}

export type GatewayOutcome = { received: Received; invoiceNumber: string | null };

async function outcome(order: GatewayOrder, received: Received): Promise<GatewayOutcome> {
  const due = await getDue(order.dueId);
  const invoice = due?.invoiceId ? await getInvoice(due.invoiceId) : null;
  return { received, invoiceNumber: invoice?.number ?? order.receipt };
}

/** Checkout's handler posted back: checked against the order we stored, then the payment is read from Razorpay. */
export async function completeCheckout(
  allowed: string[],
  input: { razorpay_order_id?: unknown; razorpay_payment_id?: unknown; razorpay_signature?: unknown },
): Promise<GatewayOutcome> {
  const orderId = String(input.razorpay_order_id ?? "");
  const paymentId = String(input.razorpay_payment_id ?? "");
  const order = orderId ? await getGatewayOrderByOrderId(orderId) : null;
  if (!order || !allowed.includes(order.enquiryId)) throw invalid({ payment: GATEWAY_FAILED }, GATEWAY_FAILED);
  if (!checkoutSignatureValid(order.orderId, paymentId, String(input.razorpay_signature ?? ""))) throw invalid({ payment: GATEWAY_FAILED }, GATEWAY_FAILED);
  return settleFromRazorpay(order, paymentId);
}

/** The Payment Link's callback (a GET redirect from Razorpay): checked with the link id we stored. */
export async function completePaymentLink(allowed: string[] | null, query: URLSearchParams): Promise<GatewayOutcome> {
  const linkId = query.get("razorpay_payment_link_id") ?? "";
  const paymentId = query.get("razorpay_payment_id") ?? "";
  const order = linkId ? await getGatewayOrderByLinkId(linkId) : null;
  if (!order || (allowed && !allowed.includes(order.enquiryId))) throw invalid({ payment: GATEWAY_FAILED }, GATEWAY_FAILED);
  const valid = paymentLinkSignatureValid(
    {
      id: order.linkId!,
      referenceId: query.get("razorpay_payment_link_reference_id") ?? "",
      status: query.get("razorpay_payment_link_status") ?? "",
      paymentId,
    },
    query.get("razorpay_signature") ?? "",
  );
  if (!valid || query.get("razorpay_payment_link_status") !== "paid") throw invalid({ payment: GATEWAY_FAILED }, GATEWAY_FAILED);
  return settleFromRazorpay(order, paymentId);
}

async function settleFromRazorpay(order: GatewayOrder, paymentId: string): Promise<GatewayOutcome> {
  let payment: RazorpayPayment;
  try {
    payment = await fetchPayment(paymentId);
  } catch (error) {
    // Signed, but Razorpay could not be asked: its webhook or the reconciliation job records the payment later.
    console.error("[razorpay] reading a paid payment failed:", error instanceof Error ? error.message : error);
    throw invalid({ payment: NOT_CONFIRMED_YET }, NOT_CONFIRMED_YET);
  }
  const belongs = payment.order_id === order.orderId || notesOf(payment).gateway_order_id === order.id;
  if (!belongs) throw invalid({ payment: GATEWAY_FAILED }, GATEWAY_FAILED);
  const received = await inTransaction(() => recordCaptured(order, payment));
  if (!received) throw invalid({ payment: GATEWAY_FAILED }, GATEWAY_FAILED);
  return outcome(order, received);
}

const notesOf = (p: { notes?: unknown }): Record<string, string> =>
  p.notes && !Array.isArray(p.notes) && typeof p.notes === "object" ? (p.notes as Record<string, string>) : {};

/** The order a Razorpay payment belongs to: by its order id, else (a Payment Link's own order) by the notes we gave the link. */
async function orderOfPayment(payment: RazorpayPayment): Promise<GatewayOrder | null> {
  const byOrder = payment.order_id ? await getGatewayOrderByOrderId(payment.order_id) : null;
  if (byOrder) return byOrder;
  const ours = notesOf(payment).gateway_order_id;
  return ours ? getGatewayOrderById(ours) : null;
}

export class WebhookRefused extends ServiceError {}

type WebhookBody = {
  event?: string;
  payload?: { payment?: { entity?: RazorpayPayment }; refund?: { entity?: RazorpayRefund }; order?: { entity?: { id?: string } } };
};

/**
 * A Razorpay webhook: refused (400, nothing changed) unless `X-Razorpay-Signature` is the HMAC of the raw body with
 * the webhook secret. payment.captured, order.paid and refund.processed are handled once each (the event id, from
 * `X-Razorpay-Event-Id`, is kept with a unique key) and in any order: each carries the payment, which is recorded
 * first if it is not yet (once, by its id), then a refund is recorded once by its id. Other events are acknowledged.
 */
export async function handleRazorpayWebhook(rawBody: Buffer, signature: string | null, eventIdHeader: string | null): Promise<{ handled: boolean }> {
  if (!razorpayConfigured() || !webhookSignatureValid(rawBody, signature))
    throw new WebhookRefused("invalid", "Invalid signature", {}, undefined, "invalid_signature");
  let body: WebhookBody;
  try {
    body = JSON.parse(rawBody.toString("utf8")) as WebhookBody;
  } catch {
    throw new WebhookRefused("invalid", "Malformed JSON", {}, undefined, "invalid_body");
  }
  const event = String(body.event ?? "");
  if (!["payment.captured", "order.paid", "refund.processed"].includes(event)) return { handled: false };
  const payment = body.payload?.payment?.entity;
  const refund = body.payload?.refund?.entity;
  const eventId = eventIdHeader?.slice(0, 100) || `${event}:${refund?.id ?? payment?.id ?? ""}`;
  if (!payment?.id) return { handled: false };
  // Which of our orders it is (never changes) is read before the transaction, whose first statement is then the
  // account's lock: the callback and retries of this event queue up behind it, and see what the first committed.
  const order = await orderOfPayment(payment);
  if (!order) return { handled: false };
  return inTransaction(async () => {
    await lockFeeAccount(order.accountId);
    if (!(await claimGatewayEvent(eventId, event))) return { handled: false };
    // A refunded payment was captured first: recorded (once) before its refund.
    await recordCaptured(order, payment);
    if (event === "refund.processed" && refund?.id) {
      const recorded = await getPaymentByGatewayId(payment.id);
      if (recorded) await recordRefund(recorded, { amountPaise: refund.amount, reason: "Refunded through Razorpay", gatewayRefundId: refund.id }, BY);
    }
    return { handled: true };
  });
}

export const RECONCILE_AFTER_MS = 30 * 60_000;
export const RECONCILE_JOB_EVERY_MS = 5 * 60_000;
/** An order nobody paid for a day is closed (a new Pay click makes a new one). */
const ORDER_GIVE_UP_MS = 24 * 60 * 60_000;

/** The reconciliation job: orders still open after 30 minutes are asked about; captured payments are recorded. */
export async function reconcileGatewayOrders(now = Date.now()): Promise<number> {
  if (!razorpayConfigured()) return 0;
  let recorded = 0;
  for (const order of await staleGatewayOrders(new Date(now - RECONCILE_AFTER_MS).toISOString())) {
    const { items } = await fetchOrderPayments(order.orderId);
    for (const payment of items.filter((p) => p.status === "captured")) {
      const r = await inTransaction(() => recordCaptured(order, payment));
      if (r && !r.repeated) recorded++;
    }
    if (!items.some((p) => p.status === "captured") && now - Date.parse(order.createdAt) > ORDER_GIVE_UP_MS) {
      await inTransaction(() => setGatewayOrderStatus(order.id, "failed"));
    }
  }
  return recorded;
}
