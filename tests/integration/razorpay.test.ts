import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { action as webhookAction } from "~/routes/api.razorpay.webhook";
import type { StaffActor } from "~/services/actor";
import { ledgerOf } from "~/services/fee-ledger.server";
import { completeCheckout, completePaymentLink, reconcileGatewayOrders, startGatewayPayment } from "~/services/razorpay.server";
import { createHmac } from "node:crypto";
import { useTestDatabase } from "../helpers/db";
import type { SimPayment } from "../helpers/razorpay-sim";
import { enrolledStudent, feesSettingsAndCourse, staffActor, useRazorpaySim } from "../helpers/fees-setup";
import { run } from "./admin-route-helpers";

/**
 * Razorpay through its real Node SDK against a local server that answers its Orders, Payment Links, Payments and
 * Refunds endpoints (tests/helpers/razorpay-sim.ts), with webhooks signed as Razorpay signs them. A captured payment
 * delivered three times and out of order pays the due once; a tampered or unsigned call is a 400 that changes
 * nothing; a short amount leaves a balance; the callbacks are checked against the order and link we stored; the
 * reconciliation job finds a payment whose webhook never came.
 */
const sim = await useRazorpaySim();
useTestDatabase();

let admin: StaffActor;
beforeAll(async () => {
  admin = await staffActor("Pay Admin", "pay@staff.test", "admin");
  await feesSettingsAndCourse(admin, { invoicePrefix: "CSA" });
});

let n = 0;
const student = () => enrolledStudent(admin, "Meera", ++n, "95");

const deliver = (hook: { body: string; headers: Record<string, string> }) =>
  run(webhookAction, new Request("http://localhost/api/razorpay/webhook", { method: "POST", headers: hook.headers, body: hook.body }));

const paymentRows = async (enquiryId: string) => db().selectFrom("payments").selectAll().where("enquiryId", "=", enquiryId).execute();

describe("Razorpay", () => {
  it("an order per due from our records, with the invoice number as its receipt", async () => {
    const { e, due } = await student();
    const started = await startGatewayPayment([e.id], due.id, "checkout");
    const order = sim.orders.get(started.order.orderId)!;
    expect(order).toMatchObject({ amount: 4_720_000, currency: "INR", receipt: started.invoiceNumber });
    expect(started.invoiceNumber).toMatch(/^CSA\/\d{4}-\d{2}\/\d{4}$/);
    // A second click while it is open reuses it.
    expect((await startGatewayPayment([e.id], due.id, "checkout")).order.orderId).toBe(started.order.orderId);
    // Another student's link cannot start paying this due.
    await expect(startGatewayPayment(["someone-else"], due.id, "checkout")).rejects.toMatchObject({ kind: "notFound" });
  });

  it("a signed payment.captured delivered three times and order.paid out of order pay the due exactly once", async () => {
    const { e, due } = await student();
    const { order } = await startGatewayPayment([e.id], due.id, "checkout");
    const payment = sim.pay(order.orderId);
    const paid = sim.webhook("order.paid", payment);
    const captured = sim.webhook("payment.captured", payment);
    for (const hook of [paid, captured, captured, captured]) expect((await deliver(hook)).status).toBe(200);
    const rows = await paymentRows(e.id);
    expect(rows.map((r) => [r.method, Number(r.amountPaise), r.gatewayPaymentId])).toEqual([["razorpay", 4_720_000, payment.id]]);
    const ledger = await ledgerOf(e.id);
    expect(ledger.dues.map((d) => d.state)).toEqual(["paid"]);
    expect(ledger.totals).toMatchObject({ outstandingPaise: 0, creditPaise: 0, receivedPaise: 4_720_000 });
  });

  it("a tampered or unsigned webhook answers 400 and changes nothing", async () => {
    const { e, due } = await student();
    const { order } = await startGatewayPayment([e.id], due.id, "checkout");
    const payment = sim.pay(order.orderId);
    const hook = sim.webhook("payment.captured", payment);
    const tampered = { ...hook, body: hook.body.replace(`"amount":${payment.amount}`, `"amount":${payment.amount * 10}`) };
    expect((await deliver(tampered)).status).toBe(400);
    const { "x-razorpay-signature": _s, ...unsigned } = hook.headers;
    expect((await deliver({ body: hook.body, headers: unsigned })).status).toBe(400);
    const forged = {
      body: hook.body,
      headers: { ...hook.headers, "x-razorpay-signature": createHmac("sha256", "not-the-secret").update(hook.body).digest("hex") },
    };
    expect((await deliver(forged)).status).toBe(400);
    expect(await paymentRows(e.id)).toEqual([]);
    expect(await db().selectFrom("gateway_events").selectAll().where("eventId", "=", hook.headers["x-razorpay-event-id"]).execute()).toEqual([]);
    // The genuine one still works afterwards.
    expect((await deliver(hook)).status).toBe(200);
    expect(await paymentRows(e.id)).toHaveLength(1);
  });

  it("a short amount leaves a balance on the due", async () => {
    const { e, due } = await student();
    const { order } = await startGatewayPayment([e.id], due.id, "checkout");
    const payment = sim.pay(order.orderId, 4_000_000);
    expect((await deliver(sim.webhook("payment.captured", payment))).status).toBe(200);
    const ledger = await ledgerOf(e.id);
    expect(ledger.dues.map((d) => [d.state, d.paidPaise])).toEqual([["part-paid", 4_000_000]]);
    expect(ledger.totals.outstandingPaise).toBe(720_000);
  });

  it("a refund that arrives before its capture records the payment once, then the refund once", async () => {
    const { e, due } = await student();
    const { order } = await startGatewayPayment([e.id], due.id, "checkout");
    const payment = sim.pay(order.orderId);
    const refund = sim.refund(payment.id, 1_000_000);
    const refunded = sim.webhook("refund.processed", payment, refund);
    expect((await deliver(refunded)).status).toBe(200);
    expect((await deliver(refunded)).status).toBe(200);
    expect((await deliver(sim.webhook("payment.captured", payment))).status).toBe(200);
    expect(await paymentRows(e.id)).toHaveLength(1);
    const refunds = await db().selectFrom("refunds").selectAll().where("gatewayRefundId", "=", refund.id).execute();
    expect(refunds.map((r) => Number(r.amountPaise))).toEqual([1_000_000]);
    expect((await ledgerOf(e.id)).totals).toMatchObject({ receivedPaise: 3_720_000, outstandingPaise: 1_000_000 });
  });

  it("Checkout's handler is checked against the order we stored; the Payment Link's callback against its link", async () => {
    const { e, due } = await student();
    const { order } = await startGatewayPayment([e.id], due.id, "checkout");
    const payment = sim.pay(order.orderId);
    const sign = (s: string) => createHmac("sha256", sim.keySecret).update(s).digest("hex");
    // Signed for another order id: refused.
    const other = await student();
    const otherOrder = (await startGatewayPayment([other.e.id], other.due.id, "checkout")).order;
    await expect(
      completeCheckout([e.id, other.e.id], {
        razorpay_order_id: otherOrder.orderId,
        razorpay_payment_id: payment.id,
        razorpay_signature: sign(`${order.orderId}|${payment.id}`),
      }),
    ).rejects.toMatchObject({ kind: "invalid" });
    const done = await completeCheckout([e.id], {
      razorpay_order_id: order.orderId,
      razorpay_payment_id: payment.id,
      razorpay_signature: sign(`${order.orderId}|${payment.id}`),
    });
    expect(done.invoiceNumber).toMatch(/^CSA\//);
    expect(done.received.payment.amountPaise).toBe(4_720_000);

    // No JavaScript: a Payment Link, paid on its page, back to our callback with Razorpay's signature.
    const third = await student();
    const started = await startGatewayPayment([third.e.id], third.due.id, "link");
    expect(started.linkUrl).toMatch(new RegExp(`^${sim.url}/pl/plink_`));
    const pay = await fetch(`${started.linkUrl}/pay`, { method: "POST", redirect: "manual" });
    const back = new URL(pay.headers.get("location")!);
    expect(back.origin + back.pathname).toBe("https://academy.example/me/pay/razorpay");
    const tamperedQuery = new URLSearchParams(back.searchParams);
    tamperedQuery.set("razorpay_payment_link_status", "paid ");
    await expect(completePaymentLink([third.e.id], tamperedQuery)).rejects.toMatchObject({ kind: "invalid" });
    const linked = await completePaymentLink([third.e.id], back.searchParams);
    expect(linked.received.payment).toMatchObject({ method: "razorpay", amountPaise: 4_720_000 });
    // Its webhook, later, changes nothing.
    const p = sim.payments.get(back.searchParams.get("razorpay_payment_id")!) as SimPayment;
    expect((await deliver(sim.webhook("payment.captured", p))).status).toBe(200);
    expect(await paymentRows(third.e.id)).toHaveLength(1);
  });

  it("the reconciliation job asks Razorpay about orders open for 30 minutes and records what was captured", async () => {
    const { e, due } = await student();
    const { order } = await startGatewayPayment([e.id], due.id, "checkout");
    sim.pay(order.orderId);
    expect(await reconcileGatewayOrders()).toBe(0); // too recent to ask
    expect(await reconcileGatewayOrders(Date.now() + 31 * 60_000)).toBe(1);
    expect(await reconcileGatewayOrders(Date.now() + 32 * 60_000)).toBe(0);
    expect((await ledgerOf(e.id)).dues.map((d) => d.state)).toEqual(["paid"]);
  });
});
