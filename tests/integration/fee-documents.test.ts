import { PDFParse } from "pdf-parse";
import { beforeAll, describe, expect, it } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { invoiceFile, receiptFile } from "~/services/fee-documents.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { cancelInvoice } from "~/services/invoices.server";
import { recordPayment } from "~/services/payments.server";
import { updateSiteSettings } from "~/services/site-settings.server";
import { createUserWithoutActor } from "~/services/users.server";
import { financialYear } from "~/util/money";
import { useTestDatabase } from "../helpers/db";

/**
 * Invoices, credit notes and receipts as PDF, read back as a PDF reader reads them (pdf-parse, Mozilla's PDF.js):
 * the number, the GSTIN, the SAC, CGST + SGST within Telangana or IGST to another state summing exactly, the total
 * in Indian format with the rupee sign, and the amount in words.
 */
useTestDatabase();

const FY = financialYear();
let admin: StaffActor;

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    // Lines wrapped on the page read back as separate lines: compare words, not layout.
    return (await parser.getText()).text.replace(/\s+/g, " ");
  } finally {
    await parser.destroy();
  }
}

async function enrolAndPay(name: string, state: string, amountPaise: number) {
  const e = await insertEnquiry({
    fullName: name,
    email: `${name.split(" ")[0].toLowerCase()}@example.com`,
    phone: "9876501234",
    preferredCourse: "Cloud Security Practitioner",
    preferredMode: "online",
  });
  await logActivity(admin, e.id, { status: "enrolled", billingState: state, followUp: "keep" });
  const { payment } = await recordPayment(admin, e.id, { method: "bank_transfer", amountPaise, reference: "NEFT-HDFC-2211" });
  return { e, payment, ledger: await ledgerOf(e.id) };
}

beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Doc Admin", email: "docs@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  await updateSiteSettings(admin, { gstin: "36AABCU9603R1ZM", invoicePrefix: "CSA", invoiceLegalName: "CyberSOC Academy Private Limited" }, { partial: true });
  await insertCourse({ title: "Cloud Security Practitioner", category: "intermediate", description: "Cloud", fee: 40_000, feeIncludesGst: false });
});

describe("invoice and receipt PDFs", () => {
  it("a tax invoice within Telangana: number, GSTIN, SAC, CGST + SGST summing exactly, total and words", async () => {
    const { ledger } = await enrolAndPay("Priya Sharma", "Telangana", 2_000_000);
    const [invoice] = ledger.invoices;
    // ₹40,000 + 18 % GST = ₹47,200 payable.
    expect(invoice.totalPaise).toBe(4_720_000);
    const text = await textOf((await invoiceFile(invoice.id)).body);
    expect(text).toContain("Tax Invoice");
    expect(text).toContain(`CSA/${FY}/0001`);
    expect(text).toContain("GSTIN: 36AABCU9603R1ZM");
    expect(text).toContain("SAC: 999293");
    expect(text).toContain("Place of supply: Telangana (36)");
    expect(text).toContain("Priya Sharma");
    expect(text).toMatch(/Taxable value\s+₹40,000\.00/);
    expect(text).toMatch(/CGST @ 9 %\s+₹3,600\.00/);
    expect(text).toMatch(/SGST @ 9 %\s+₹3,600\.00/);
    expect(text).not.toContain("IGST");
    expect(text).toMatch(/Total\s+₹47,200\.00/);
    expect(text).toContain("Rupees Forty-Seven Thousand Two Hundred only");
  });

  it("to another state: IGST alone; the receipt names its invoice and the balance; a credit note its invoice and reason", async () => {
    const { ledger, payment } = await enrolAndPay("Arjun Menon", "Kerala", 1_000_050);
    const [invoice] = ledger.invoices;
    const text = await textOf((await invoiceFile(invoice.id)).body);
    expect(text).toMatch(/IGST @ 18 %\s+₹7,200\.00/);
    expect(text).not.toContain("CGST");
    expect(text).toContain("Place of supply: Kerala (32)");

    const receipt = await textOf((await receiptFile(payment.id)).body);
    expect(receipt).toContain(`Receipt number: ${payment.number}`);
    expect(receipt).toMatch(/Amount received\s+₹10,000\.50/);
    expect(receipt).toContain("Rupees Ten Thousand and Fifty Paise only");
    expect(receipt).toContain(`Towards invoice ${invoice.number}`);
    expect(receipt).toContain("Balance still to pay: ₹37,199.50");

    const { creditNote } = await cancelInvoice(admin, invoice.id, { reason: "Billed to the wrong state" });
    const note = await textOf((await invoiceFile(creditNote.id)).body);
    expect(note).toContain("Credit Note");
    expect(note).toContain(`CSA/${FY}/CN0001`);
    expect(note).toContain(`Against invoice: ${invoice.number}`);
    expect(note).toContain("Reason: Billed to the wrong state");
    // Another student's link never opens this one's documents.
    await expect(invoiceFile(invoice.id, ["someone-else"])).rejects.toMatchObject({ kind: "notFound" });
  });
});
