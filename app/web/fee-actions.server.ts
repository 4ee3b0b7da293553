import type { StaffActor } from "~/services/actor";
import { cancelInvoice, issueInvoiceNow } from "~/services/invoices.server";
import { confirmUpiReport, recordPayment, refundPayment, rejectUpiReport, reversePayment } from "~/services/payments.server";
import { isServiceError } from "~/services/service-error";
import { formatPaise } from "~/util/money";
import { CONCESSION_KIND_LABELS } from "~/schemas/fee-values";
import { decideConcessionRequest, requestConcession, setBillingState } from "~/services/fee-ledger.server";
import { redirectWithFlash } from "./flash.server";

/**
 * The fee forms of an enquiry's details (app/components/admin/fee-ledger.tsx), translated into service calls: each
 * comes back to the details' #fees section with its message (the rule's own words when refused), with JavaScript or
 * without. Also used by the Fees screen's "Record payment" page.
 */
export const FEE_INTENTS = [
  "payment",
  "reverse-payment",
  "refund-payment",
  "cancel-invoice",
  "issue-invoice",
  "confirm-upi",
  "reject-upi",
  "concession",
  "billing-state",
  "approve-concession",
  "reject-concession",
] as const;
export type FeeIntent = (typeof FEE_INTENTS)[number];
export const isFeeIntent = (intent: string): intent is FeeIntent => (FEE_INTENTS as readonly string[]).includes(intent);

export async function feeAction(
  request: Request,
  actor: StaffActor,
  enquiryId: string,
  intent: FeeIntent,
  input: Record<string, unknown>,
  back: string,
): Promise<Response> {
  const at = "fees";
  const id = (name: string) => String(input[name] ?? "");
  try {
    let message: string;
    switch (intent) {
      case "payment": {
        const { payment, settlement } = await recordPayment(actor, enquiryId, input);
        message = `Payment of ${formatPaise(payment.amountPaise)} recorded: receipt ${payment.number}.${
          settlement.invoiced.length ? ` Invoice ${settlement.invoiced.map((i) => i.number).join(", ")} issued.` : ""
        }${settlement.creditPaise ? ` ${formatPaise(settlement.creditPaise)} kept as credit.` : ""}`;
        break;
      }
      case "reverse-payment": {
        const p = await reversePayment(actor, id("paymentId"), input);
        message = `Payment ${p.number} reversed.`;
        break;
      }
      case "refund-payment": {
        const r = await refundPayment(actor, id("paymentId"), input);
        message = `Refund of ${formatPaise(r.amountPaise)} recorded${r.gatewayRefundId ? ` (Razorpay ${r.gatewayRefundId})` : ""}.`;
        break;
      }
      case "cancel-invoice": {
        const { invoice, creditNote } = await cancelInvoice(actor, id("invoiceId"), input);
        message = `Invoice ${invoice.number} cancelled by credit note ${creditNote.number}.`;
        break;
      }
      case "issue-invoice": {
        const invoice = await issueInvoiceNow(actor, id("dueId"));
        message = `Invoice ${invoice.number} issued.`;
        break;
      }
      case "confirm-upi": {
        const { payment } = await confirmUpiReport(actor, id("reportId"));
        message = `UPI payment confirmed: receipt ${payment.number}.`;
        break;
      }
      case "reject-upi":
        await rejectUpiReport(actor, id("reportId"));
        message = "The report is marked as not received.";
        break;
      case "concession": {
        const c = await requestConcession(actor, enquiryId, input);
        message = `${CONCESSION_KIND_LABELS[c.kind]} of ${formatPaise(c.amountPaise)} asked for: an admin approves it.`;
        break;
      }
      case "billing-state": {
        const account = await setBillingState(actor, enquiryId, input);
        message = `The student's state for invoices is now ${account.billingState} (invoices already issued keep theirs).`;
        break;
      }
      case "approve-concession":
      case "reject-concession": {
        const c = await decideConcessionRequest(actor, id("concessionId"), intent === "approve-concession");
        message = `${CONCESSION_KIND_LABELS[c.kind]} of ${formatPaise(c.amountPaise)} ${c.status}.`;
        break;
      }
    }
    return redirectWithFlash(request, `${back}#${at}`, { kind: "notice", message, at });
  } catch (error) {
    if (isServiceError(error, "forbidden")) throw new Response(error.message, { status: 403 });
    if (!isServiceError(error)) {
      console.error(`[admin] ${intent} failed:`, error);
      throw error;
    }
    return redirectWithFlash(request, `${back}#${at}`, { kind: "error", message: error.message, at });
  }
}
