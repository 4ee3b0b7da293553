import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { action as webhookAction } from "~/routes/api.razorpay.webhook";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { recordPayment, refundPayment, reversePayment } from "~/services/payments.server";
import { completeCheckout, NOT_CONFIRMED_YET, startGatewayPayment } from "~/services/razorpay.server";
import { createHmac } from "node:crypto";
import { useTestDatabase } from "../helpers/db";
import { enrolledStudent, feesSettingsAndCourse, staffActor, useRazorpaySim } from "../helpers/fees-setup";
import { action as detailsAction } from "~/routes/admin.enquiries.$id";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * Money that came through Razorpay goes back through Razorpay: staff refunding such a payment (the API) ask
 * Razorpay to refund it (its Refunds endpoint, through the SDK), and the refund is recorded once however its
 * `refund.processed` webhook comes after; such a payment cannot be "reversed" as if it had been typed by mistake
 * (the money did arrive, and Razorpay's refund of it would later find nothing to refund).
 */
const sim = await useRazorpaySim();
useTestDatabase();

let admin: StaffActor;
beforeAll(async () => {
  admin = await staffActor("Refund Admin", "refund@staff.test", "admin");
  await feesSettingsAndCourse(admin, { invoicePrefix: "RF" });
});

let n = 0;
async function paidThroughRazorpay() {
  const { e, due } = await enrolledStudent(admin, "Lakshmi", ++n, "94");
  const { order } = await startGatewayPayment([e.id], due.id, "checkout");
  const simPayment = sim.pay(order.orderId);
  expect((await deliver(sim.webhook("payment.captured", simPayment))).status).toBe(200);
  const [payment] = (await ledgerOf(e.id)).payments;
  return { e, simPayment, payment };
}

const deliver = (hook: { body: string; headers: Record<string, string> }) =>
  run(webhookAction, new Request("http://localhost/api/razorpay/webhook", { method: "POST", headers: hook.headers, body: hook.body }));

describe("refunds of Razorpay payments", () => {
  it("a staff refund of a Razorpay payment is made at Razorpay and recorded once, its webhook later changing nothing", async () => {
    const { e, simPayment, payment } = await paidThroughRazorpay();
    const refund = await refundPayment(admin, payment.id, { amountPaise: 1_000_000, reason: "Left after week one (7-day money-back)" });
    expect(refund.gatewayRefundId).toMatch(/^rfnd_/);
    expect(sim.payments.get(simPayment.id)!.amount_refunded).toBe(1_000_000);
    const hook = sim.webhook("refund.processed", sim.payments.get(simPayment.id)!, {
      id: refund.gatewayRefundId!,
      entity: "refund",
      amount: 1_000_000,
      currency: "INR",
      payment_id: simPayment.id,
      status: "processed",
      created_at: Math.floor(Date.now() / 1000),
    });
    expect((await deliver(hook)).status).toBe(200);
    const rows = await db().selectFrom("refunds").selectAll().where("paymentId", "=", payment.id).execute();
    expect(rows.map((r) => Number(r.amountPaise))).toEqual([1_000_000]);
    expect((await ledgerOf(e.id)).totals).toMatchObject({ receivedPaise: 3_720_000, outstandingPaise: 1_000_000 });
    // More than is left is refused before Razorpay is asked.
    await expect(refundPayment(admin, payment.id, { amountPaise: 3_720_001, reason: "Too much" })).rejects.toMatchObject({ kind: "invalid" });
    expect(sim.payments.get(simPayment.id)!.amount_refunded).toBe(1_000_000);
  });

  it("a Razorpay payment cannot be reversed: it is refunded", async () => {
    const { e, payment } = await paidThroughRazorpay();
    await expect(reversePayment(admin, payment.id, { reason: "Oops" })).rejects.toMatchObject({ kind: "conflict", code: "gateway_payment" });
    expect((await ledgerOf(e.id)).payments.map((p) => p.status)).toEqual(["recorded"]);
  });

  it("staff refund from the enquiry's Fees section with a plain form (rupees), through Razorpay", async () => {
    const { e, simPayment, payment } = await paidThroughRazorpay();
    const editor = await staffCookie("editor");
    const post = (form: Record<string, string>) => run(detailsAction, makeRequest(`/admin/enquiries/${e.id}`, { cookie: editor, form }), { id: e.id });
    const out = await post({ intent: "refund-payment", paymentId: payment.id, amountPaise: "1,000.50", reason: "Book not needed" });
    expect(out.location).toBe(`/admin/enquiries/${e.id}#fees`);
    expect((await flashOf(out))?.message).toMatch(/^Refund of ₹1,000\.50 recorded \(Razorpay rfnd_/);
    expect(sim.payments.get(simPayment.id)!.amount_refunded).toBe(100_050);
    const reversal = await post({ intent: "reverse-payment", paymentId: payment.id, reason: "Oops" });
    expect(await flashOf(reversal)).toMatchObject({ kind: "error", message: expect.stringContaining("came through Razorpay") });
    const tooMuch = await post({ intent: "refund-payment", paymentId: payment.id, amountPaise: "47,200", reason: "All of it" });
    expect(await flashOf(tooMuch)).toMatchObject({ kind: "error" });
    expect((await ledgerOf(e.id)).totals.receivedPaise).toBe(4_720_000 - 100_050);
  });

  it("a due with less than ₹1 left is a message to the student, not an error page (Razorpay takes no order below ₹1)", async () => {
    n++;
    const e = await insertEnquiry({
      fullName: `Lakshmi ${n}`,
      email: `lakshmi${n}@example.com`,
      phone: `94${String(60_000_000 + n)}`,
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "online",
    });
    await logActivity(admin, e.id, { status: "enrolled", followUp: "keep" });
    await recordPayment(admin, e.id, { method: "upi", amountPaise: 4_719_950, reference: "412345678901" });
    const [due] = (await ledgerOf(e.id)).dues;
    expect(due.amountPaise - due.paidPaise).toBe(50);
    await expect(startGatewayPayment([e.id], due.id, "checkout")).rejects.toMatchObject({
      kind: "invalid",
      message: "Less than ₹1.00 is left on this due: Razorpay takes ₹1 or more. Pay it by UPI, or ask us.",
    });
  });

  it("a signed Checkout answer Razorpay cannot confirm just now is a message, and records nothing", async () => {
    n++;
    const e = await insertEnquiry({
      fullName: `Lakshmi ${n}`,
      email: `lakshmi${n}@example.com`,
      phone: `94${String(60_000_000 + n)}`,
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "online",
    });
    await logActivity(admin, e.id, { status: "enrolled", followUp: "keep" });
    const [due] = (await ledgerOf(e.id)).dues;
    const { order } = await startGatewayPayment([e.id], due.id, "checkout");
    const paymentId = "pay_NotAtRazorpay1";
    const signature = createHmac("sha256", sim.keySecret).update(`${order.orderId}|${paymentId}`).digest("hex");
    await expect(
      completeCheckout([e.id], { razorpay_order_id: order.orderId, razorpay_payment_id: paymentId, razorpay_signature: signature }),
    ).rejects.toMatchObject({ kind: "invalid", message: NOT_CONFIRMED_YET });
    expect((await ledgerOf(e.id)).payments).toEqual([]);
  });
});
