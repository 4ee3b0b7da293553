import { invoicePdf, receiptPdf } from "~/infra/fee-pdf.server";
import { duesOfAccount } from "~/models/fees.server";
import { getInvoice, invoicesOfEnquiry } from "~/models/invoices.server";
import { getPayment, paymentsOfAccount, type Payment } from "~/models/payments.server";
import { allocate } from "~/util/fee-schedule";
import { feeSettings } from "./fee-settings.server";
import { notFound } from "./service-error";

/**
 * Invoices, credit notes and receipts as PDF files, for staff (any student's) and for the student on /me (only the
 * records their own link opens: `allowed`, the enquiry ids). File names carry the document's number.
 */

export type PdfFile = { fileName: string; body: Buffer };

const fileName = (what: string, number: string) => `${what}-${number.replace(/\//g, "-")}.pdf`;

export async function invoiceFile(invoiceId: string, allowed?: string[]): Promise<PdfFile> {
  const invoice = await getInvoice(invoiceId);
  if (!invoice || (allowed && !allowed.includes(invoice.enquiryId))) throw notFound("Invoice");
  const ref = invoice.refInvoiceId ? await getInvoice(invoice.refInvoiceId) : null;
  const what = invoice.kind === "credit_note" ? "credit-note" : "invoice";
  return { fileName: fileName(what, invoice.number), body: await invoicePdf(invoice, ref?.number ?? null) };
}

/**
 * What a receipt says beyond the payment: the invoices of the dues this payment reached (the account's money
 * replayed in the order it came, oldest due first) and the balance left on the dues after it.
 */
export async function receiptFacts(payment: Payment): Promise<{ invoiceNumbers: string[]; balancePaise: number }> {
  const dues = (await duesOfAccount(payment.accountId)).filter((d) => d.status !== "cancelled");
  const payments = (await paymentsOfAccount(payment.accountId)).filter((p) => p.status === "recorded" || p.id === payment.id);
  const index = payments.findIndex((p) => p.id === payment.id);
  const before = payments.slice(0, index).reduce((s, p) => s + p.amountPaise, 0);
  const after = before + payment.amountPaise;
  const a = allocate(dues, before).paid;
  const b = allocate(dues, after).paid;
  const reached = dues.filter((d) => (b.get(d.id) ?? 0) > (a.get(d.id) ?? 0));
  const invoices = new Map((await invoicesOfEnquiry(payment.enquiryId)).map((i) => [i.id, i.number]));
  const billed = dues.reduce((s, d) => s + d.amountPaise, 0);
  return {
    invoiceNumbers: reached.map((d) => (d.invoiceId ? invoices.get(d.invoiceId) : undefined)).filter((n): n is string => Boolean(n)),
    balancePaise: Math.max(0, billed - after),
  };
}

export async function receiptFile(paymentId: string, allowed?: string[]): Promise<PdfFile> {
  const payment = await getPayment(paymentId);
  if (!payment || (allowed && !allowed.includes(payment.enquiryId))) throw notFound("Receipt");
  const settings = await feeSettings();
  const body = await receiptPdf(payment, await receiptFacts(payment), { name: settings.legalName, address: settings.address, gstin: settings.gstin });
  return { fileName: fileName("receipt", payment.number), body };
}
