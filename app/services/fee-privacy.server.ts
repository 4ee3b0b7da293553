import { inTransaction } from "~db/client.server";
import { env } from "~/env.server";
import { endAccountsOfEnquiries } from "~/models/fees.server";
import { anonymiseFeeRecordsUpTo, scrubPaymentsOfEnquiries } from "~/models/payments.server";
import { financialYear } from "~/util/money";

/**
 * Fees and privacy (issue 38; docs/privacy.md). GST law (CGST Act s. 36, Rules 56-58) asks a registered person to keep
 * invoices and accounts for 72 months from the due date of the annual return of the year they belong to; the annual
 * return (GSTR-9) of a financial year is due on 31 December after it ends. So an invoice of 2026-27 (April 2026 to
 * March 2027) is kept until 31 December 2027 + INVOICE_RETENTION_MONTHS (72): 31 December 2033.
 *
 * An erasure (on request, or by the enquiry retention job) therefore keeps what an invoice and a receipt must show:
 * the name billed, the state, the amounts and the numbers, in the invoice and payment rows (they hold their own copy;
 * the enquiry itself is erased as usual). It removes the rest: notes on payments, UPI reports not confirmed, and it
 * ends the fee account (unbilled dues cancelled, so nothing more is billed or reminded). After the retention period
 * the invoice retention job removes the names too.
 */

export const ERASED_NAME = "[erased after the retention period]";

/** Inside the erasure's transaction (app/services/privacy-erasure.server.ts calls it with the erased enquiries' ids). */
export async function eraseFeeDataOf(enquiryIds: string[]): Promise<void> {
  await endAccountsOfEnquiries(enquiryIds);
  await scrubPaymentsOfEnquiries(enquiryIds);
}

/** The day (YYYY-MM-DD) until which a financial year's invoices and payments are kept. */
export function feeRecordsKeptUntil(fy: string, months = env().INVOICE_RETENTION_MONTHS): string {
  const annualReturnYear = Number(fy.slice(0, 4)) + 1; // the year the financial year ends in: GSTR-9 is due on 31 December of it
  const totalMonths = annualReturnYear * 12 + 11 + months; // December of that year, plus the months kept
  const year = Math.floor(totalMonths / 12);
  const month = (totalMonths % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, "0")}-${String(last).padStart(2, "0")}`;
}

/** The newest financial year whose records are past their retention on `now`'s day, or null. */
export function lastExpiredFinancialYear(now = new Date(), months = env().INVOICE_RETENTION_MONTHS): string | null {
  const today = now.toISOString().slice(0, 10);
  let start = Number(financialYear(now).slice(0, 4));
  for (; start > 1990; start--) {
    const fy = `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
    if (feeRecordsKeptUntil(fy, months) < today) return fy;
  }
  return null;
}

export const INVOICE_RETENTION_JOB_EVERY_MS = 6 * 60 * 60_000;

/** The daily job: names on invoices and payments of years past retention are removed (each row once). */
export async function runInvoiceRetention(now = new Date()): Promise<number> {
  const fy = lastExpiredFinancialYear(now);
  return fy ? inTransaction(() => anonymiseFeeRecordsUpTo(fy, ERASED_NAME)) : 0;
}
