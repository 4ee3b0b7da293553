import { inTransaction } from "~db/client.server";
import { getDue, lockFeeAccount, setDueInvoice, unbilledDuesDueBy, type FeeAccount, type FeeDue } from "~/models/fees.server";
import { getInvoice, insertInvoice, listInvoices, markInvoiceCancelled, nextSerial, type Invoice } from "~/models/invoices.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import { creditNoteSchema } from "~/schemas/fees";
import type { InvoiceKind, NumberSeries } from "~/schemas/fee-values";
import { siteToday } from "~/util/dates";
import { amountInWords, financialYear, formatPaise, splitGst } from "~/util/money";
import { requireAdmin, type Actor, type StaffActor } from "./actor";
import { record } from "./audit.server";
import { feeSettings, taxPlace } from "./fee-settings.server";
import { conflict, notFound } from "./service-error";
import { parseInput } from "./validation";

/**
 * Invoices and credit notes (issue 38; docs/decisions/009). Each due gets one invoice: a tax invoice when the
 * institute has a GSTIN (CGST + SGST within its state, IGST to another), else an invoice with no tax lines. It is
 * issued when the due falls due (the daily job below) or earlier, as soon as a payment reaches it
 * (app/services/fee-ledger.server.ts). Numbers are <prefix>/<financial year>/<serial>, one series per kind of document,
 * the serial taken from the series' counter row inside the issuing transaction (app/models/invoices.server.ts
 * nextSerial): consecutive, never repeated, never burnt by a rollback. Nothing is edited or deleted: a mistake is
 * cancelled by a credit note (its own series) with a reason, and the due can then be invoiced afresh.
 */

/** "CSA/2026-27/0001", credit notes "CSA/2026-27/CN0001", receipts "CSA/2026-27/R0001". */
export function documentNumber(prefix: string, series: NumberSeries, fy: string, serial: number): string {
  const mark = series === "credit_note" ? "CN" : series === "receipt" ? "R" : "";
  return `${prefix}/${fy}/${mark}${String(serial).padStart(4, "0")}`;
}

/** The next number of a series this financial year, inside the caller's transaction. */
export async function takeNumber(series: NumberSeries, now = new Date()): Promise<{ fy: string; serial: number; number: string }> {
  const { prefix } = await feeSettings();
  const fy = financialYear(now);
  const serial = await nextSerial(series, fy);
  return { fy, serial, number: documentNumber(prefix, series, fy, serial) };
}

/**
 * The due's invoice, issued now if it has none (inside the caller's transaction, which must hold the account's
 * lock: lockFeeAccount). What an invoice must show is copied into it, so later changes to the settings, the
 * student's name or their state never change an issued invoice.
 */
export async function issueInvoiceForDue(due: FeeDue, account: FeeAccount, by: string, now = new Date()): Promise<Invoice> {
  if (due.invoiceId) {
    const existing = await getInvoice(due.invoiceId);
    if (existing) return existing;
  }
  const settings = await feeSettings();
  const place = taxPlace(settings, account.billingState);
  const split = splitGst(due.amountPaise, settings.rates, place);
  const kind: InvoiceKind = settings.gstin ? "tax_invoice" : "invoice";
  const { fy, serial, number } = await takeNumber("invoice", now);
  const invoice = await insertInvoice({
    kind,
    series: "invoice",
    fy,
    serial,
    number,
    dueId: due.id,
    accountId: account.id,
    enquiryId: account.enquiryId,
    issuedAt: now.toISOString(),
    issuedOn: siteToday(now),
    sellerName: settings.legalName,
    sellerAddress: settings.address,
    sellerGstin: settings.gstin,
    sellerState: settings.state,
    buyerName: account.billingName,
    buyerState: account.billingState,
    sac: settings.sac,
    description: `${account.courseTitle}: ${due.label}`.slice(0, 300),
    ...split,
    amountWords: amountInWords(split.totalPaise),
    refInvoiceId: null,
    reason: null,
    createdBy: by,
  });
  await setDueInvoice(due.id, invoice.id);
  await insertTimelineEntry("enquiry", account.enquiryId, {
    userId: null,
    userName: by,
    kind: "fee",
    fromValue: null,
    toValue: invoice.number,
    text: `${kind === "tax_invoice" ? "Tax invoice" : "Invoice"} ${invoice.number} issued for ${due.label}, ${formatPaise(invoice.totalPaise)}`,
  });
  return invoice;
}

/** The daily job: every unbilled due whose date has come gets its invoice, each in its own transaction. */
export async function runInvoicingJob(now = new Date()): Promise<number> {
  const dues = await unbilledDuesDueBy(siteToday(now));
  let issued = 0;
  for (const candidate of dues) {
    await inTransaction(async () => {
      const account = await lockFeeAccount(candidate.accountId);
      const due = await getDue(candidate.id);
      if (!account || !due || due.invoiceId || due.status === "cancelled") return;
      await issueInvoiceForDue(due, account, "System", now);
      issued++;
    });
  }
  return issued;
}

export const INVOICE_JOB_EVERY_MS = 10 * 60_000;

/**
 * Cancels an issued invoice with a credit note of the same amounts, with a reason (admins: these are tax records).
 * The due is left without an invoice, so a corrected one can be issued (at once, or by the daily job). Both documents
 * are audited and stay forever.
 */
export async function cancelInvoice(actor: StaffActor, invoiceId: string, input: unknown): Promise<{ invoice: Invoice; creditNote: Invoice }> {
  requireAdmin(actor);
  const { reason } = parseInput(creditNoteSchema, input);
  return inTransaction(async () => {
    const invoice = await getInvoice(invoiceId);
    if (!invoice || invoice.kind === "credit_note") throw notFound("Invoice");
    const account = await lockFeeAccount(invoice.accountId);
    if (!account) throw notFound("Invoice");
    if (invoice.status !== "issued") throw conflict(`Invoice ${invoice.number} is already cancelled.`, {}, "invoice_cancelled");
    const { fy, serial, number } = await takeNumber("credit_note");
    const now = new Date();
    const { id: _id, status: _s, cancelledById: _c, ...copy } = invoice;
    const creditNote = await insertInvoice({
      ...copy,
      kind: "credit_note",
      series: "credit_note",
      fy,
      serial,
      number,
      issuedAt: now.toISOString(),
      issuedOn: siteToday(now),
      refInvoiceId: invoice.id,
      reason,
      createdBy: actor.user.name,
    });
    if (!(await markInvoiceCancelled(invoice.id, creditNote.id))) throw conflict(`Invoice ${invoice.number} is already cancelled.`, {}, "invoice_cancelled");
    if (invoice.dueId) await setDueInvoice(invoice.dueId, null);
    await record(
      actor,
      "create",
      "invoice",
      creditNote.id,
      `Credit note ${creditNote.number} cancels ${invoice.number} (${formatPaise(invoice.totalPaise)}): ${reason}`,
    );
    await record(actor, "update", "invoice", invoice.id, `${invoice.number} cancelled by credit note ${creditNote.number}`);
    await insertTimelineEntry("enquiry", invoice.enquiryId, {
      userId: actor.user.id,
      userName: actor.user.name,
      kind: "fee",
      fromValue: invoice.number,
      toValue: creditNote.number,
      text: `Invoice ${invoice.number} cancelled by credit note ${creditNote.number}: ${reason}`,
    });
    return { invoice: (await getInvoice(invoice.id))!, creditNote };
  });
}

/**
 * Issues a due's invoice now (staff, "Issue invoice"), e.g. after a credit note, or before its date. The transaction
 * starts with the account's lock (a write), so on SQLite several processes queue for the write lock instead of
 * failing to upgrade a read.
 */
export async function issueInvoiceNow(actor: StaffActor, dueId: string): Promise<Invoice> {
  const found = await getDue(dueId);
  if (!found || found.status === "cancelled") throw notFound("Due");
  return inTransaction(async () => {
    const account = await lockFeeAccount(found.accountId);
    const due = await getDue(dueId);
    if (!account || !due || due.status === "cancelled") throw notFound("Due");
    const invoice = await issueInvoiceForDue(due, account, actor.user.name);
    if (!due.invoiceId) await record(actor, "create", "invoice", invoice.id, `Invoice ${invoice.number} (${formatPaise(invoice.totalPaise)})`);
    return invoice;
  });
}

export async function getInvoiceForStaff(_actor: Actor, id: string): Promise<Invoice> {
  const invoice = await getInvoice(id);
  if (!invoice) throw notFound("Invoice");
  return invoice;
}

export async function listInvoicesForStaff(_actor: StaffActor, filter: Parameters<typeof listInvoices>[0]) {
  return listInvoices(filter);
}
