import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import { INVOICE_KIND_LABELS, PAYMENT_METHOD_LABELS, stateWithCode } from "~/schemas/fee-values";
import type { Invoice } from "~/models/invoices.server";
import type { Payment } from "~/models/payments.server";
import { formatDate } from "~/util/dates";
import { amountInWords, formatPaise, formatRate } from "~/util/money";

/**
 * Invoices, credit notes and payment receipts as PDF (issue 38), drawn with pdfkit in DejaVu Sans, embedded (subset):
 * a font with the rupee sign (U+20B9), so "₹47,200.00" prints and a PDF reader can copy or search the text (pdfkit
 * writes each font's ToUnicode map). Drawn from the stored document alone: what an invoice shows was copied into it
 * when it was issued.
 */

const require = createRequire(import.meta.url);
const FONT = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf");
const FONT_BOLD = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf");

function render(draw: (doc: PDFKit.PDFDocument) => void, title: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: title, Author: "" }, pdfVersion: "1.7" });
    doc.registerFont("body", FONT);
    doc.registerFont("bold", FONT_BOLD);
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.font("body").fontSize(10);
    draw(doc);
    doc.end();
  });
}

/** A label and its value on one line, the value right-aligned (amounts). */
function row(doc: PDFKit.PDFDocument, label: string, value: string, bold = false) {
  const y = doc.y;
  doc.font(bold ? "bold" : "body").text(label, 50, y, { width: 330 });
  doc.text(value, 380, y, { width: 165, align: "right" });
  doc.font("body").moveDown(0.3);
}

/** The amount in words on a line of its own, never broken (a reader searching for it finds it whole). */
function words(doc: PDFKit.PDFDocument, text: string) {
  doc.text("Amount in words:");
  let size = 10;
  while (size > 6 && doc.fontSize(size).widthOfString(text) > 490) size -= 0.5;
  doc.text(text, 50, doc.y, { width: 495 });
  doc.fontSize(10).moveDown(0.3);
}

export function invoicePdf(invoice: Invoice, refNumber: string | null = null): Promise<Buffer> {
  const title = invoice.kind === "tax_invoice" ? "Tax Invoice" : invoice.kind === "credit_note" ? "Credit Note" : "Invoice";
  return render((doc) => {
    doc.font("bold").fontSize(18).text(title, { align: "right" });
    doc.fontSize(10).font("body");
    doc.text(`${INVOICE_KIND_LABELS[invoice.kind]} number: ${invoice.number}`, { align: "right" });
    doc.text(`Date: ${formatDate(invoice.issuedOn)}`, { align: "right" });
    if (invoice.status === "cancelled") doc.text("CANCELLED by a credit note", { align: "right" });
    doc.moveDown();
    doc.font("bold").text(invoice.sellerName);
    doc.font("body").text(invoice.sellerAddress);
    doc.text(`State: ${stateWithCode(invoice.sellerState)}`);
    if (invoice.sellerGstin) doc.text(`GSTIN: ${invoice.sellerGstin}`);
    else doc.text("Not registered for GST: no GST is charged.");
    doc.moveDown();
    doc.font("bold").text("Billed to");
    doc.font("body").text(invoice.buyerName);
    doc.text(`State: ${stateWithCode(invoice.buyerState)}`);
    doc.text(`Place of supply: ${stateWithCode(invoice.buyerState)}`);
    if (invoice.kind === "credit_note") {
      doc.moveDown();
      doc.text(`Against invoice: ${refNumber ?? ""}`);
      doc.text(`Reason: ${invoice.reason ?? ""}`);
    }
    doc.moveDown();
    doc.font("bold").text("Description", 50, doc.y, { continued: false });
    doc.font("body").text(invoice.description);
    doc.text(`SAC: ${invoice.sac}`);
    doc.moveDown();
    row(doc, "Taxable value", formatPaise(invoice.taxablePaise));
    if (invoice.cgstPaise || invoice.sgstPaise || invoice.cgstBp) {
      row(doc, `CGST @ ${formatRate(invoice.cgstBp)}`, formatPaise(invoice.cgstPaise));
      row(doc, `SGST @ ${formatRate(invoice.sgstBp)}`, formatPaise(invoice.sgstPaise));
    }
    if (invoice.igstPaise || invoice.igstBp) row(doc, `IGST @ ${formatRate(invoice.igstBp)}`, formatPaise(invoice.igstPaise));
    row(doc, "Total", formatPaise(invoice.totalPaise), true);
    doc.moveDown();
    words(doc, invoice.amountWords);
    doc.moveDown(2);
    doc.fontSize(8).text("This is a computer-generated document and needs no signature.", { align: "center" });
  }, `${title} ${invoice.number}`);
}

export type ReceiptExtras = { invoiceNumbers: string[]; balancePaise: number };

export function receiptPdf(payment: Payment, extras: ReceiptExtras, seller: { name: string; address: string; gstin: string }): Promise<Buffer> {
  return render((doc) => {
    doc.font("bold").fontSize(18).text("Payment Receipt", { align: "right" });
    doc.fontSize(10).font("body");
    doc.text(`Receipt number: ${payment.number}`, { align: "right" });
    doc.text(`Date: ${formatDate(payment.receivedOn)}`, { align: "right" });
    if (payment.status === "reversed") doc.text(`REVERSED: ${payment.reversalReason ?? ""}`, { align: "right" });
    doc.moveDown();
    doc.font("bold").text(seller.name);
    doc.font("body").text(seller.address);
    if (seller.gstin) doc.text(`GSTIN: ${seller.gstin}`);
    doc.moveDown();
    doc.text(`Received from: ${payment.payerName}`);
    doc.moveDown();
    row(doc, "Amount received", formatPaise(payment.amountPaise), true);
    row(doc, "Method", PAYMENT_METHOD_LABELS[payment.method]);
    if (payment.reference) row(doc, "Reference", payment.reference);
    doc.moveDown();
    words(doc, amountInWords(payment.amountPaise));
    if (extras.invoiceNumbers.length) doc.text(`Towards invoice ${extras.invoiceNumbers.join(", ")}`);
    doc.text(extras.balancePaise > 0 ? `Balance still to pay: ${formatPaise(extras.balancePaise)}` : "Nothing is left to pay on the dues so far.");
    doc.moveDown(2);
    doc.fontSize(8).text("This is a computer-generated receipt and needs no signature.", { align: "center" });
  }, `Receipt ${payment.number}`);
}
