/**
 * The fixed lists of fees and payments (app/services/fee-*.server.ts, invoices, payments), with their labels: the
 * schemas, screens, badges, filters, the API's enums and the PDFs are built from these. No imports: a screen takes
 * the labels without pulling in zod.
 */

/** The Fees screen's tabs (`?view=`): overdue first, as staff work them each morning. */
export const FEE_VIEWS = ["overdue", "today", "upcoming", "all"] as const;
export type FeeView = (typeof FEE_VIEWS)[number];
export const FEE_VIEW_LABELS: Record<FeeView, string> = { overdue: "Overdue", today: "Due today", upcoming: "Upcoming (30 days)", all: "All open dues" };

/** When an instalment falls due: some days after the enrolment, or after (or before, negative) the batch's first day. */
export const DUE_FROM = ["enrolment", "batch_start"] as const;
export type DueFromValue = (typeof DUE_FROM)[number];
export const DUE_FROM_LABELS: Record<DueFromValue, string> = { enrolment: "after enrolment", batch_start: "after the batch starts" };

/** A student's fee account for one enrolment: active while enrolled; ended when they leave (unbilled dues cancelled). */
export const FEE_ACCOUNT_STATUSES = ["active", "ended"] as const;
export type FeeAccountStatus = (typeof FEE_ACCOUNT_STATUSES)[number];

/** A due as stored: open (something left to pay), paid, or cancelled (never billed, or its invoice cancelled and waived). */
export const DUE_STATUSES = ["open", "paid", "cancelled"] as const;
export type DueStatus = (typeof DUE_STATUSES)[number];
/** A due as people read it, from its status, what it received and its date against today. */
export const DUE_STATES = ["upcoming", "due", "overdue", "part-paid", "paid", "cancelled"] as const;
export type DueState = (typeof DUE_STATES)[number];
export const DUE_STATE_LABELS: Record<DueState, string> = {
  upcoming: "Upcoming",
  due: "Due today",
  overdue: "Overdue",
  "part-paid": "Part paid",
  paid: "Paid",
  cancelled: "Cancelled",
};

/**
 * How money came in. Staff record the first four; Razorpay payments are recorded by its webhook or callback.
 * `upi` covers a student's "I have paid" report once staff confirm it.
 */
export const PAYMENT_METHODS = ["cash", "bank_transfer", "cheque", "upi", "razorpay"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const STAFF_PAYMENT_METHODS = ["cash", "bank_transfer", "cheque", "upi"] as const satisfies readonly PaymentMethod[];
export type StaffPaymentMethod = (typeof STAFF_PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: "Cash",
  bank_transfer: "Bank transfer (NEFT/IMPS/RTGS)",
  cheque: "Cheque",
  upi: "UPI",
  razorpay: "Razorpay (online)",
};
/** What the reference of each method is called on the form and the receipt. */
export const PAYMENT_REFERENCE_LABELS: Record<PaymentMethod, string> = {
  cash: "Receipt book number (optional)",
  bank_transfer: "Bank reference (NEFT/IMPS/RTGS)",
  cheque: "Cheque number and bank",
  upi: "UTR (12-digit UPI reference)",
  razorpay: "Razorpay payment id",
};

/** A recorded payment stays as it was; a mistake is reversed (with a reason), never edited or deleted. */
export const PAYMENT_STATUSES = ["recorded", "reversed"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = { recorded: "Received", reversed: "Reversed" };

/**
 * A document numbered in a series: a tax invoice (the institute has a GSTIN), an invoice without tax lines (it has
 * none), a credit note (cancels an invoice, with a reason) or a payment receipt. Each has its own series, numbered
 * <prefix>/<financial year>/<serial> without gaps.
 */
export const INVOICE_KINDS = ["tax_invoice", "invoice", "credit_note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
export const INVOICE_KIND_LABELS: Record<InvoiceKind, string> = { tax_invoice: "Tax invoice", invoice: "Invoice", credit_note: "Credit note" };
export const INVOICE_STATUSES = ["issued", "cancelled"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The numbered series (one counter row per series and financial year). */
export const NUMBER_SERIES = ["invoice", "credit_note", "receipt"] as const;
export type NumberSeries = (typeof NUMBER_SERIES)[number];

/** A student's "I have paid" by UPI, until staff confirm it (it becomes a recorded payment) or reject it. */
export const UPI_REPORT_STATUSES = ["pending", "confirmed", "rejected"] as const;
export type UpiReportStatus = (typeof UPI_REPORT_STATUSES)[number];

/** A scholarship or concession: asked for by staff with a reason, applied only once an admin approves it. */
export const CONCESSION_KINDS = ["scholarship", "concession"] as const;
export type ConcessionKind = (typeof CONCESSION_KINDS)[number];
export const CONCESSION_KIND_LABELS: Record<ConcessionKind, string> = { scholarship: "Scholarship", concession: "Concession" };
export const CONCESSION_STATUSES = ["pending", "approved", "rejected"] as const;
export type ConcessionStatus = (typeof CONCESSION_STATUSES)[number];

/** A Razorpay order for one due: created, paid (captured), or expired/failed. */
export const GATEWAY_ORDER_STATUSES = ["created", "paid", "failed"] as const;
export type GatewayOrderStatus = (typeof GATEWAY_ORDER_STATUSES)[number];

/**
 * India's states and union territories with their GST state codes (the first two digits of a GSTIN): the place of
 * supply on an invoice. Supply within the institute's own state is taxed CGST + SGST, to any other IGST.
 */
export const INDIAN_STATES = [
  ["01", "Jammu and Kashmir"],
  ["02", "Himachal Pradesh"],
  ["03", "Punjab"],
  ["04", "Chandigarh"],
  ["05", "Uttarakhand"],
  ["06", "Haryana"],
  ["07", "Delhi"],
  ["08", "Rajasthan"],
  ["09", "Uttar Pradesh"],
  ["10", "Bihar"],
  ["11", "Sikkim"],
  ["12", "Arunachal Pradesh"],
  ["13", "Nagaland"],
  ["14", "Manipur"],
  ["15", "Mizoram"],
  ["16", "Tripura"],
  ["17", "Meghalaya"],
  ["18", "Assam"],
  ["19", "West Bengal"],
  ["20", "Jharkhand"],
  ["21", "Odisha"],
  ["22", "Chhattisgarh"],
  ["23", "Madhya Pradesh"],
  ["24", "Gujarat"],
  ["26", "Dadra and Nagar Haveli and Daman and Diu"],
  ["27", "Maharashtra"],
  ["29", "Karnataka"],
  ["30", "Goa"],
  ["31", "Lakshadweep"],
  ["32", "Kerala"],
  ["33", "Tamil Nadu"],
  ["34", "Puducherry"],
  ["35", "Andaman and Nicobar Islands"],
  ["36", "Telangana"],
  ["37", "Andhra Pradesh"],
  ["38", "Ladakh"],
] as const;
export const INDIAN_STATE_NAMES = INDIAN_STATES.map(([, name]) => name) as unknown as readonly [string, ...string[]];
export const DEFAULT_STATE = "Telangana";

/** "Telangana (36)": a state as the place of supply is written on an invoice. */
export function stateWithCode(name: string): string {
  const code = INDIAN_STATES.find(([, n]) => n === name)?.[0];
  return code ? `${name} (${code})` : name;
}
