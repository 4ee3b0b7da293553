import { FEE_ON_REQUEST } from "~/schemas/fee-text";

/** What a visitor pays: an amount in whole rupees and whether GST is in it; null when the fee is on request. */
export type Fee = { amount: number; includesGst: boolean; label: string } | null;

const rupees = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });

/** "₹45,000" (Indian digit grouping). */
export function formatRupees(amount: number): string {
  return `₹${rupees.format(amount)}`;
}

/** "₹45,000 (incl. GST)", "₹45,000 + GST", or "Fee on request": one wording on every page and e-mail. */
export function feeText(fee: Fee): string {
  if (!fee || !(fee.amount > 0)) return FEE_ON_REQUEST;
  return `${formatRupees(fee.amount)} ${fee.includesGst ? "(incl. GST)" : "+ GST"}`;
}

/** The course's fee (null when none is set). */
export function courseFee(course: { fee: number | null; feeIncludesGst: boolean }): Fee {
  return course.fee && course.fee > 0 ? { amount: course.fee, includesGst: course.feeIncludesGst, label: "" } : null;
}

/** A batch's price: its own fee (early-bird …) when set, else its course's; GST as the course says. */
export function batchFee(batch: { fee: number | null; feeLabel: string; courseFee: number | null; feeIncludesGst: boolean }): Fee {
  if (batch.fee && batch.fee > 0) return { amount: batch.fee, includesGst: batch.feeIncludesGst, label: batch.feeLabel };
  return batch.courseFee && batch.courseFee > 0 ? { amount: batch.courseFee, includesGst: batch.feeIncludesGst, label: "" } : null;
}

/** A course's fee as a line of its own: "Fee: ₹45,000 (incl. GST)", or "Fee on request". */
export function courseFeeLine(course: { fee: number | null; feeIncludesGst: boolean }): string {
  const fee = courseFee(course);
  return fee ? `Fee: ${feeText(fee)}` : feeText(null);
}

/** A batch's price as its card says it: "Early-bird: ₹39,000 (incl. GST)", "Fee: ₹45,000 + GST" or "Fee on request". */
export function batchFeeLine(batch: { fee: number | null; feeLabel: string; courseFee: number | null; feeIncludesGst: boolean }): string {
  const fee = batchFee(batch);
  return fee ? `${fee.label || "Fee"}: ${feeText(fee)}` : feeText(null);
}

/** A batch's price in an e-mail's details: "₹39,000 (incl. GST), Early-bird" or "Fee on request". */
export function batchFeeMailText(batch: { fee: number | null; feeLabel: string; courseFee: number | null; feeIncludesGst: boolean }): string {
  const fee = batchFee(batch);
  return fee ? `${feeText(fee)}${fee.label ? `, ${fee.label}` : ""}` : feeText(null);
}
