import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { action as webhookAction } from "~/routes/api.razorpay.webhook";
import type { StaffActor } from "~/services/actor";
import { ledgerOf } from "~/services/fee-ledger.server";
import { confirmUpiReport, recordPayment, refundPayment, reportUpiPayment, reversePayment } from "~/services/payments.server";
import { completeCheckout, startGatewayPayment } from "~/services/razorpay.server";
import { useTestDatabase } from "../helpers/db";
import { enrolledStudent, feesSettingsAndCourse, staffActor, useRazorpaySim } from "../helpers/fees-setup";
import { run } from "./admin-route-helpers";

/**
 * Money moved for one student by two requests at the same moment (two instances, or two staff, or Razorpay's webhook
 * beside the browser's callback). Run on MariaDB (TEST_MYSQL_URL) to matter: there each transaction reads from a
 * snapshot taken at its first read, so a transaction that read anything before it queued for the account's lock
 * must not settle the dues from what it saw then. On SQLite the same tests run one after the other.
 */
const sim = await useRazorpaySim();
useTestDatabase();

let admin: StaffActor;
let editor: StaffActor;
beforeAll(async () => {
  admin = await staffActor("Race Admin", "race@staff.test", "admin");
  editor = await staffActor("Race Editor", "race.editor@staff.test", "editor");
  await feesSettingsAndCourse(admin, { invoicePrefix: "RACE", upiId: "academy@okaxis" });
});

let n = 0;
const student = () => enrolledStudent(admin, "Ravi", ++n, "93");

const paymentRows = async (enquiryId: string) => db().selectFrom("payments").selectAll().where("enquiryId", "=", enquiryId).execute();
const deliver = (hook: { body: string; headers: Record<string, string> }) =>
  run(webhookAction, new Request("http://localhost/api/razorpay/webhook", { method: "POST", headers: hook.headers, body: hook.body }));

describe("money moved twice at once", () => {
  it("three payments recorded at once for one student all count on the dues", async () => {
    for (let round = 0; round < 4; round++) {
      const { e } = await student();
      await Promise.all(
        [1_000_000, 1_500_000, 2_000_000].map((amountPaise) =>
          recordPayment(admin, e.id, { method: "cash", amountPaise, receivedOn: "", reference: "", note: "" }),
        ),
      );
      const ledger = await ledgerOf(e.id);
      expect(ledger.totals.receivedPaise).toBe(4_500_000);
      // The dues say what the rows say: the stored paid amounts add up to the money received.
      expect(ledger.dues.map((d) => d.paidPaise)).toEqual([4_500_000]);
      expect(ledger.totals.outstandingPaise).toBe(220_000);
    }
  });

  it("a payment reversed while another is recorded leaves the dues as the rows say", async () => {
    for (let round = 0; round < 4; round++) {
      const { e } = await student();
      const { payment } = await recordPayment(admin, e.id, { method: "cash", amountPaise: 1_000_000 });
      await Promise.all([reversePayment(admin, payment.id, { reason: "Typed twice" }), recordPayment(admin, e.id, { method: "cash", amountPaise: 2_000_000 })]);
      const ledger = await ledgerOf(e.id);
      expect(ledger.totals.receivedPaise).toBe(2_000_000);
      expect(ledger.dues.map((d) => d.paidPaise)).toEqual([2_000_000]);
    }
  });

  it("two refunds at once never give back more than the payment", async () => {
    for (let round = 0; round < 4; round++) {
      const { e } = await student();
      const { payment } = await recordPayment(admin, e.id, { method: "cash", amountPaise: 1_000_000 });
      const results = await Promise.allSettled([
        refundPayment(admin, payment.id, { amountPaise: 600_000, reason: "Left" }),
        refundPayment(editor, payment.id, { amountPaise: 600_000, reason: "Left" }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { kind: "invalid" } });
      expect((await ledgerOf(e.id)).totals.receivedPaise).toBe(400_000);
    }
  });

  it("a UPI report confirmed by two staff at once becomes one payment", async () => {
    for (let round = 0; round < 4; round++) {
      const { e, due } = await student();
      const report = await reportUpiPayment([e.id], due.id, { utr: `4000000000${String(round).padStart(2, "0")}` });
      const results = await Promise.allSettled([confirmUpiReport(admin, report.id), confirmUpiReport(editor, report.id)]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "already_decided" } });
      expect(await paymentRows(e.id)).toHaveLength(1);
      expect((await ledgerOf(e.id)).dues.map((d) => d.state)).toEqual(["paid"]);
    }
  });

  it("payment.captured twice and order.paid delivered at the same moment (two instances) pay the due once, each answered 200", async () => {
    for (let round = 0; round < 3; round++) {
      const { e, due } = await student();
      const { order } = await startGatewayPayment([e.id], due.id, "checkout");
      const payment = sim.pay(order.orderId);
      const captured = sim.webhook("payment.captured", payment);
      const answers = await Promise.all([deliver(captured), deliver(sim.webhook("order.paid", payment)), deliver(captured)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(await paymentRows(e.id)).toHaveLength(1);
      expect((await ledgerOf(e.id)).totals).toMatchObject({ receivedPaise: 4_720_000, outstandingPaise: 0, creditPaise: 0 });
    }
  });

  it("the webhook and the browser's callback for one payment at the same moment record it once, and neither fails", async () => {
    for (let round = 0; round < 4; round++) {
      const { e, due } = await student();
      const { order } = await startGatewayPayment([e.id], due.id, "checkout");
      const payment = sim.pay(order.orderId);
      const signature = createHmac("sha256", sim.keySecret).update(`${order.orderId}|${payment.id}`).digest("hex");
      const [hook, callback] = await Promise.allSettled([
        deliver(sim.webhook("payment.captured", payment)),
        completeCheckout([e.id], { razorpay_order_id: order.orderId, razorpay_payment_id: payment.id, razorpay_signature: signature }),
      ]);
      expect(hook).toMatchObject({ status: "fulfilled", value: { status: 200 } });
      expect(callback.status).toBe("fulfilled");
      expect(await paymentRows(e.id)).toHaveLength(1);
      expect((await ledgerOf(e.id)).totals).toMatchObject({ receivedPaise: 4_720_000, outstandingPaise: 0 });
    }
  });
});
