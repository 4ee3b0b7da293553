import { inTransaction } from "~db/client.server";
import { getEnquiry } from "~/models/enquiry.server";
import { activeFeeAccountOf, feeAccountsOfEnquiry, getDue, lockFeeAccount, type FeeAccount } from "~/models/fees.server";
import { isUniqueViolation } from "~db/errors";
import { claimFormKey } from "~/models/form-submission.server";
import {
  decideUpiReport,
  getPayment,
  setUpiReportPayment,
  getPaymentByGatewayId,
  getUpiReport,
  insertUpiReport,
  insertPayment,
  insertRefund,
  listPayments,
  listRefunds,
  markPaymentReversed,
  refundsOfPayment,
  type Payment,
  type PaymentFilter,
  type Refund,
  type UpiReport,
} from "~/models/payments.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import { PAYMENT_REFERENCE_REQUIRED, paymentSchema, refundSchema, reversalSchema, upiReportSchema } from "~/schemas/fees";
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from "~/schemas/fee-values";
import { writeGuardSchema } from "~/schemas/write-guard";
import { siteToday } from "~/util/dates";
import { formatPaise } from "~/util/money";
import { createRefund as refundAtGateway } from "~/infra/razorpay.server";
import type { StaffActor } from "./actor";
import { record } from "./audit.server";
import { NO_FEE_ACCOUNT, settleAccount, type Settlement } from "./fee-ledger.server";
import { FEE_RECEIPT_TEMPLATE, queueFeeMessage } from "./fee-notifications.server";
import { takeNumber } from "./invoices.server";
import { conflict, invalid, notFound } from "./service-error";
import { parseInput } from "./validation";
import "./fee-mail.server";

/**
 * Money received (issue 38): recorded by staff (cash, bank transfer, cheque, UPI with its UTR), confirmed from a
 * student's UPI report, or recorded from Razorpay (app/services/razorpay.server.ts). Every way ends in receivePayment:
 * one transaction that takes the account's lock, numbers the receipt, settles the dues oldest first (issuing the
 * invoice of any due the money reaches), writes the timeline and the audit log, and queues the receipt e-mail and
 * the `payment.received` webhook. A payment is never edited or deleted: a mistake is reversed with a reason.
 */

export type Received = { payment: Payment; settlement: Settlement; repeated: boolean };

export type PaymentIn = {
  method: PaymentMethod;
  amountPaise: number;
  reference: string;
  receivedOn: string;
  note: string;
  gatewayPaymentId?: string | null;
};

/** Who recorded it, as the timeline and the audit log name them. */
type By = { actor: StaffActor | null; name: string };

/** Inside a transaction: records a payment on an account (already locked by the caller or here) and settles it. */
export async function receivePayment(account: FeeAccount, input: PaymentIn, by: By): Promise<Received> {
  if (input.gatewayPaymentId) {
    // A gateway's payment is recorded once, however often its webhook or callback comes (a unique key backs this).
    const seen = await getPaymentByGatewayId(input.gatewayPaymentId);
    if (seen) return { payment: seen, settlement: await settleAccount(account.id, by.name), repeated: true };
  }
  const { fy, serial, number } = await takeNumber("receipt");
  const payment = await insertPayment({
    number,
    fy,
    serial,
    accountId: account.id,
    enquiryId: account.enquiryId,
    method: input.method,
    reference: input.reference,
    amountPaise: input.amountPaise,
    receivedOn: input.receivedOn,
    note: input.note,
    gatewayPaymentId: input.gatewayPaymentId ?? null,
    payerName: account.billingName,
    recordedBy: by.name,
  });
  const settlement = await settleAccount(account.id, by.name);
  const text = `Payment ${formatPaise(payment.amountPaise)} received (${PAYMENT_METHOD_LABELS[payment.method]}${payment.reference ? ` ${payment.reference}` : ""}), receipt ${payment.number}${
    settlement.invoiced.length ? `; invoice ${settlement.invoiced.map((i) => i.number).join(", ")}` : ""
  }${settlement.creditPaise ? `; ${formatPaise(settlement.creditPaise)} kept as credit` : ""}`;
  await insertTimelineEntry("enquiry", account.enquiryId, {
    userId: by.actor?.user.id ?? null,
    userName: by.name,
    kind: "fee",
    fromValue: null,
    toValue: payment.number,
    text,
  });
  if (by.actor) await record(by.actor, "create", "payment", payment.id, `${account.billingName}: ${text}`);
  const enquiry = await getEnquiry(account.enquiryId);
  await queueFeeMessage({
    event: "fee.receipt",
    entity: { type: "payment", id: payment.id },
    email: enquiry ? { template: FEE_RECEIPT_TEMPLATE, to: enquiry.email, subject: `Payment received: receipt ${payment.number}` } : undefined,
  });
  await queueFeeMessage({
    event: "payment.received",
    entity: { type: "payment", id: payment.id },
    webhook: { timestamp: payment.createdAt, data: paymentWebhookData(payment, settlement) },
  });
  return { payment, settlement, repeated: false };
}

/** What `payment.received` carries: the payment (no personal data beyond the enquiry id) and what it settled. */
function paymentWebhookData(p: Payment, s: Settlement) {
  return {
    id: p.id,
    enquiryId: p.enquiryId,
    receiptNumber: p.number,
    method: p.method,
    amountPaise: p.amountPaise,
    receivedOn: p.receivedOn,
    invoiceNumbers: s.invoiced.map((i) => i.number),
    creditPaise: s.creditPaise,
  };
}

/** The account payments go to: the open one, else the newest (money after leaving is kept as its credit). */
export async function payableAccount(enquiryId: string): Promise<FeeAccount> {
  const account = (await activeFeeAccountOf(enquiryId)) ?? (await feeAccountsOfEnquiry(enquiryId))[0];
  if (!account) throw invalid({ amountPaise: NO_FEE_ACCOUNT }, NO_FEE_ACCOUNT);
  return account;
}

/** Staff record money received for a student (the enquiry's Record payment form, POST /api/enquiries/:id/payments). */
export async function recordPayment(actor: StaffActor, enquiryId: string, input: unknown): Promise<Received> {
  const values = parseInput(paymentSchema, input);
  const { formKey } = parseInput(writeGuardSchema, input);
  if (values.method !== "cash" && !values.reference) throw invalid({ reference: PAYMENT_REFERENCE_REQUIRED });
  const today = siteToday();
  if (values.receivedOn && values.receivedOn > today) throw invalid({ receivedOn: "The day received cannot be in the future" });
  if (!(await getEnquiry(enquiryId))) throw notFound("Enquiry");
  const found = await payableAccount(enquiryId);
  return inTransaction(async () => {
    const account = (await lockFeeAccount(found.id))!;
    if (formKey && !(await claimFormKey(`payment:${formKey}`)))
      throw conflict("This payment was already recorded (the form was sent twice).", {}, "duplicate_submission");
    return receivePayment(
      account,
      {
        method: values.method,
        amountPaise: values.amountPaise,
        reference: values.reference ?? "",
        receivedOn: values.receivedOn ?? today,
        note: values.note ?? "",
      },
      { actor, name: actor.user.name },
    );
  });
}

export const ALREADY_REVERSED = "This payment was already reversed.";
export const GATEWAY_NOT_REVERSIBLE = "This payment came through Razorpay: the money did arrive, so it is refunded (through Razorpay), not reversed.";

/** A recorded payment undone, with a reason: it stays on the ledger as Reversed and the dues are settled again. */
export async function reversePayment(actor: StaffActor, paymentId: string, input: unknown): Promise<Payment> {
  const { reason } = parseInput(reversalSchema, input);
  const found = await getPayment(paymentId);
  if (!found) throw notFound("Payment");
  // A reversal says the payment was recorded by mistake; Razorpay's money did arrive, and only a refund gives it back
  // (its refund.processed would otherwise find a reversed payment and nothing to refund).
  if (found.gatewayPaymentId) throw conflict(GATEWAY_NOT_REVERSIBLE, {}, "gateway_payment");
  return inTransaction(async () => {
    await lockFeeAccount(found.accountId);
    if ((await refundsOfPayment(paymentId)).length) throw conflict("This payment has refunds: it cannot be reversed.", {}, "payment_refunded");
    if (!(await markPaymentReversed(paymentId, reason, actor.user.name))) throw conflict(ALREADY_REVERSED, {}, "already_reversed");
    await settleAccount(found.accountId, actor.user.name);
    const text = `Payment ${found.number} of ${formatPaise(found.amountPaise)} reversed: ${reason}`;
    await insertTimelineEntry("enquiry", found.enquiryId, {
      userId: actor.user.id,
      userName: actor.user.name,
      kind: "fee",
      fromValue: found.number,
      toValue: null,
      text,
    });
    await record(actor, "update", "payment", found.id, `${found.payerName}: ${text}`);
    return (await getPayment(paymentId))!;
  });
}

/**
 * Money given back on a payment (a Razorpay refund, or staff through the API): at most what is left of it; a
 * gateway's refund id is recorded once. The dues are settled again.
 */
export async function recordRefund(
  payment: Payment,
  input: { amountPaise: number; reason: string; gatewayRefundId?: string | null },
  by: By,
): Promise<{ refund: Refund; repeated: boolean }> {
  await lockFeeAccount(payment.accountId);
  const earlier = await refundsOfPayment(payment.id);
  const seen = input.gatewayRefundId ? earlier.find((r) => r.gatewayRefundId === input.gatewayRefundId) : undefined;
  if (seen) return { refund: seen, repeated: true };
  checkRefundable(payment, earlier, input.amountPaise);
  const refund = await insertRefund({
    paymentId: payment.id,
    accountId: payment.accountId,
    amountPaise: input.amountPaise,
    reason: input.reason,
    gatewayRefundId: input.gatewayRefundId ?? null,
    createdBy: by.name,
  });
  await settleAccount(payment.accountId, by.name);
  const text = `Refund of ${formatPaise(refund.amountPaise)} on payment ${payment.number}: ${input.reason}`;
  await insertTimelineEntry("enquiry", payment.enquiryId, {
    userId: by.actor?.user.id ?? null,
    userName: by.name,
    kind: "fee",
    fromValue: null,
    toValue: null,
    text,
  });
  if (by.actor) await record(by.actor, "create", "payment", refund.id, `${payment.payerName}: ${text}`);
  return { refund, repeated: false };
}

/**
 * POST /api/payments/:id/refunds: money given back on a payment. Staff record what they gave back by bank or in cash;
 * a Razorpay payment is refunded at Razorpay (its Refunds endpoint, outside any transaction, after the same checks),
 * and recorded with Razorpay's refund id, so its refund.processed webhook later finds it recorded.
 */
export async function refundPayment(actor: StaffActor, paymentId: string, input: unknown): Promise<Refund> {
  const { amountPaise, reason } = parseInput(refundSchema, input);
  const found = await getPayment(paymentId);
  if (!found) throw notFound("Payment");
  const by = { actor, name: actor.user.name };
  if (!found.gatewayPaymentId) {
    return inTransaction(async () => {
      await lockFeeAccount(found.accountId);
      const payment = (await getPayment(paymentId))!;
      return (await recordRefund(payment, { amountPaise, reason }, by)).refund;
    });
  }
  // Checked first (nothing is written), so Razorpay is never asked for what we would refuse to record.
  checkRefundable(found, await refundsOfPayment(found.id), amountPaise);
  let atRazorpay: Awaited<ReturnType<typeof refundAtGateway>>;
  try {
    atRazorpay = await refundAtGateway(found.gatewayPaymentId, { amountPaise, notes: { reason: reason.slice(0, 250), receipt: found.number } });
  } catch (error) {
    // Razorpay refused (or could not be reached): nothing was refunded or recorded; its words go to staff.
    const said = error instanceof Error ? error.message : String(error);
    throw invalid({ amountPaise: `Razorpay did not refund it: ${said}` });
  }
  return inTransaction(async () => {
    await lockFeeAccount(found.accountId);
    const payment = (await getPayment(paymentId))!;
    return (await recordRefund(payment, { amountPaise: atRazorpay.amount, reason, gatewayRefundId: atRazorpay.id }, by)).refund;
  });
}

function checkRefundable(payment: Payment, earlier: Refund[], amountPaise: number): void {
  if (payment.status !== "recorded") throw conflict("This payment was reversed: nothing to refund.", {}, "payment_reversed");
  const left = payment.amountPaise - earlier.reduce((s, r) => s + r.amountPaise, 0);
  if (amountPaise > left) throw invalid({ amountPaise: `At most ${formatPaise(left)} is left to refund on this payment` });
}

export async function getPaymentForStaff(id: string): Promise<Payment> {
  const payment = await getPayment(id);
  if (!payment) throw notFound("Payment");
  return payment;
}

export const listPaymentsForStaff = (filter: PaymentFilter) => listPayments(filter);
export const listRefundsForStaff = (filter: { page: number; limit: number }) => listRefunds(filter);

// ---------------------------------------------------------------- UPI: "I have paid", confirmed by staff

export const UPI_REPORTED = "Thank you: we will check the payment with our bank and confirm it (usually within one working day).";
export const UTR_TAKEN = "This UTR was already reported. If you paid twice, call us.";

/**
 * A student says they paid a due by UPI, with the UTR their app shows (from /me, opened by their own link): kept
 * for staff to check against the bank statement. Nothing is settled until staff confirm it.
 */
export async function reportUpiPayment(enquiryIds: string[], dueId: string, input: unknown): Promise<UpiReport> {
  const { utr } = parseInput(upiReportSchema, input);
  const found = await getDue(dueId);
  if (!found || !enquiryIds.includes(found.enquiryId)) throw notFound("Due");
  return inTransaction(async () => {
    const account = (await lockFeeAccount(found.accountId))!;
    const due = await getDue(dueId);
    if (!due || due.status !== "open") throw notFound("Due");
    try {
      const report = await insertUpiReport({ dueId, accountId: account.id, enquiryId: due.enquiryId, utr, amountPaise: due.amountPaise - due.paidPaise });
      await insertTimelineEntry("enquiry", due.enquiryId, {
        userId: null,
        userName: "The student (own page)",
        kind: "fee",
        fromValue: null,
        toValue: utr,
        text: `Reported paid by UPI: ${formatPaise(report.amountPaise)} for ${due.label}, UTR ${utr} (to confirm)`,
      });
      return report;
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid({ utr: UTR_TAKEN }, UTR_TAKEN);
      throw error;
    }
  });
}

/** Staff found the UTR in the bank statement: the report becomes a recorded UPI payment (once). */
export async function confirmUpiReport(actor: StaffActor, reportId: string): Promise<Received> {
  // Read before the transaction, whose first statement is then the account's lock (see newest() in db/client).
  const found = await getUpiReport(reportId);
  if (!found) throw notFound("UPI report");
  return inTransaction(async () => {
    const account = (await lockFeeAccount(found.accountId))!;
    const report = await getUpiReport(reportId);
    if (report?.status !== "pending") throw conflict("This report was already dealt with.", {}, "already_decided");
    // Decided first, by one conditional UPDATE: of two staff confirming at once, only one records the payment.
    if (!(await decideUpiReport(report.id, "confirmed", actor.user.name, null))) throw conflict("This report was already dealt with.", {}, "already_decided");
    const received = await receivePayment(
      account,
      {
        method: "upi",
        amountPaise: report.amountPaise,
        reference: report.utr,
        receivedOn: siteToday(new Date(report.reportedAt)),
        note: "Reported by the student",
      },
      { actor, name: actor.user.name },
    );
    await setUpiReportPayment(report.id, received.payment.id);
    return received;
  });
}

export async function rejectUpiReport(actor: StaffActor, reportId: string): Promise<void> {
  await inTransaction(async () => {
    const report = await getUpiReport(reportId);
    if (!report) throw notFound("UPI report");
    if (!(await decideUpiReport(report.id, "rejected", actor.user.name, null))) throw conflict("This report was already dealt with.", {}, "already_decided");
    const text = `UPI report with UTR ${report.utr} not found in the bank statement`;
    await insertTimelineEntry("enquiry", report.enquiryId, {
      userId: actor.user.id,
      userName: actor.user.name,
      kind: "fee",
      fromValue: null,
      toValue: null,
      text,
    });
    await record(actor, "update", "payment", report.id, text);
  });
}
