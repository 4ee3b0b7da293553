import type { MeAccess } from "./privacy-me.server";
import { razorpayConfigured } from "~/infra/razorpay.server";
import { qrSvg, upiLink } from "~/infra/upi-qr.server";
import type { DueState, InvoiceKind, PaymentMethod, PaymentStatus } from "~/schemas/fee-values";
import { paiseToDecimal } from "~/util/money";
import type { Actor } from "./actor";
import { invoiceFile, receiptFile, type PdfFile } from "./fee-documents.server";
import { ledgerOf } from "./fee-ledger.server";
import { feeSettings } from "./fee-settings.server";
import { reportUpiPayment } from "./payments.server";
import { myEnquiryIds } from "./privacy-me.server";
import { completeCheckout, startGatewayPayment, type GatewayOutcome } from "./razorpay.server";

/**
 * The student's side of their fees, on their own page (/me, opened by the link in their e-mails): each due with its
 * state, amount and date; for what is left to pay, the UPI link and its QR code (the institute's UPI ID and name
 * from the settings, the amount, INR, the invoice number as the note), "I have paid" with the UTR, and Razorpay when
 * it is configured; their invoices and receipts as PDF. Only the records the link opens, never anyone else's.
 */

export type MyDue = {
  id: string;
  course: string;
  label: string;
  dueDate: string;
  amountPaise: number;
  paidPaise: number;
  leftPaise: number;
  state: DueState;
  invoiceId: string | null;
  invoiceNumber: string | null;
  /** For a due with something left to pay, when the institute has a UPI ID. */
  upi: { link: string; qrSvg: string; note: string } | null;
  reported: boolean;
};
export type MyFees = {
  dues: MyDue[];
  invoices: { id: string; number: string; kind: InvoiceKind; totalPaise: number; issuedOn: string; cancelled: boolean }[];
  payments: { id: string; number: string; amountPaise: number; method: PaymentMethod; receivedOn: string; status: PaymentStatus }[];
  totals: { billedPaise: number; receivedPaise: number; outstandingPaise: number; creditPaise: number };
  razorpay: boolean;
  upiConfigured: boolean;
};

/** The note a UPI payment carries: the due's invoice number, or (not invoiced yet) a reference to the due itself. */
function upiNote(prefix: string, due: { id: string; invoiceNumber: string | null }): string {
  return due.invoiceNumber ?? `${prefix}-DUE-${due.id.slice(-8).toUpperCase()}`;
}

/** For /me's loader, which has already opened the link: the fees of these enquiries (not held ones). */
export async function feesOfMyEnquiries(ids: string[]): Promise<MyFees | null> {
  const settings = await feeSettings();
  const dues: MyDue[] = [];
  const out: MyFees = {
    dues,
    invoices: [],
    payments: [],
    totals: { billedPaise: 0, receivedPaise: 0, outstandingPaise: 0, creditPaise: 0 },
    razorpay: razorpayConfigured(),
    upiConfigured: Boolean(settings.upiId),
  };
  let any = false;
  for (const id of ids) {
    const ledger = await ledgerOf(id);
    if (!ledger.accounts.length) continue;
    any = true;
    for (const d of ledger.dues.filter((x) => x.status !== "cancelled")) {
      const leftPaise = d.amountPaise - d.paidPaise;
      const note = upiNote(settings.prefix, d);
      const link = settings.upiId && leftPaise > 0 ? upiLink({ pa: settings.upiId, pn: settings.upiPayeeName, am: paiseToDecimal(leftPaise), tn: note }) : null;
      dues.push({
        id: d.id,
        course: d.courseTitle,
        label: d.label,
        dueDate: d.dueDate,
        amountPaise: d.amountPaise,
        paidPaise: d.paidPaise,
        leftPaise,
        state: d.state,
        invoiceId: d.invoiceId,
        invoiceNumber: d.invoiceNumber,
        upi: link ? { link, note, qrSvg: await qrSvg(link, `UPI QR code to pay ${note}`) } : null,
        reported: ledger.upiReports.some((r) => r.dueId === d.id && r.status === "pending"),
      });
    }
    out.invoices.push(
      ...ledger.invoices.map((i) => ({
        id: i.id,
        number: i.number,
        kind: i.kind,
        totalPaise: i.totalPaise,
        issuedOn: i.issuedOn,
        cancelled: i.status === "cancelled",
      })),
    );
    out.payments.push(
      ...ledger.payments.map((p) => ({ id: p.id, number: p.number, amountPaise: p.amountPaise, method: p.method, receivedOn: p.receivedOn, status: p.status })),
    );
    for (const k of ["billedPaise", "receivedPaise", "outstandingPaise", "creditPaise"] as const) out.totals[k] += ledger.totals[k];
  }
  return any ? out : null;
}

export async function reportMyUpiPayment(actor: Pick<Actor, "ip">, access: MeAccess, dueId: string, input: unknown) {
  return reportUpiPayment(await myEnquiryIds(actor, access), dueId, input);
}

export async function startMyGatewayPayment(actor: Pick<Actor, "ip">, access: MeAccess, dueId: string, mode: "checkout" | "link") {
  return startGatewayPayment(await myEnquiryIds(actor, access), dueId, mode);
}

export async function completeMyCheckout(actor: Pick<Actor, "ip">, access: MeAccess, input: Record<string, unknown>): Promise<GatewayOutcome> {
  return completeCheckout(await myEnquiryIds(actor, access), input);
}

export async function myInvoiceFile(actor: Pick<Actor, "ip">, access: MeAccess, id: string): Promise<PdfFile> {
  return invoiceFile(id, await myEnquiryIds(actor, access));
}

export async function myReceiptFile(actor: Pick<Actor, "ip">, access: MeAccess, id: string): Promise<PdfFile> {
  return receiptFile(id, await myEnquiryIds(actor, access));
}
