import { siteToday } from "./dates";

/**
 * Money is a whole number of paise everywhere (docs/decisions/009-money-in-paise-and-invoice-serials.md): stored,
 * summed, split and sent in the API as integers, so every sum is exact. Rupees appear only at the edges: the
 * catalogue's whole-rupee fees (courses.fee, schedules.fee) come in through rupeesToPaise, and people read
 * formatPaise ("₹47,200.00") and amountInWords.
 */

export const PAISE_PER_RUPEE = 100;

/** Whole rupees (the catalogue's fees) as paise. */
export function rupeesToPaise(rupees: number): number {
  return Math.round(rupees * PAISE_PER_RUPEE);
}

const indian = new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "₹47,200.00": Indian digit grouping (lakh, crore), always two decimals; a negative amount as "-₹500.00". */
export function formatPaise(paise: number): string {
  const sign = paise < 0 ? "-" : "";
  return `${sign}₹${indian.format(Math.abs(paise) / PAISE_PER_RUPEE)}`;
}

/** "47200.00": the amount a UPI link carries (rupees with two decimals, no grouping). */
export function paiseToDecimal(paise: number): string {
  const abs = Math.abs(paise);
  return `${paise < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * A rupee amount typed by staff ("47,200", "₹ 47200.50", "47200.5") as paise; null when it is not one (more than two
 * decimals, letters, negative).
 */
export function parseRupeesToPaise(text: string): number | null {
  const s = text.replace(/[₹,\s]/g, "").replace(/^rs\.?/i, "");
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

const ONES = [
  "",
  "One",
  "Two",
  "Three",
  "Four",
  "Five",
  "Six",
  "Seven",
  "Eight",
  "Nine",
  "Ten",
  "Eleven",
  "Twelve",
  "Thirteen",
  "Fourteen",
  "Fifteen",
  "Sixteen",
  "Seventeen",
  "Eighteen",
  "Nineteen",
];
const TENS = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];

/** 0-99 in words: "Forty-Seven". */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n];
  return TENS[Math.floor(n / 10)] + (n % 10 ? `-${ONES[n % 10]}` : "");
}

/** 0-999 in words: "Two Hundred Fifty". */
function belowThousand(n: number): string {
  const parts: string[] = [];
  if (n >= 100) parts.push(`${ONES[Math.floor(n / 100)]} Hundred`);
  if (n % 100) parts.push(belowHundred(n % 100));
  return parts.join(" ");
}

/**
 * A whole number in words in the Indian system: crore (10^7), lakh (10^5), thousand, hundred. "12345678" →
 * "One Crore Twenty-Three Lakh Forty-Five Thousand Six Hundred Seventy-Eight"; beyond 99 crore the crores are
 * themselves read this way ("One Hundred Crore").
 */
export function numberInIndianWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Not a whole number: ${n}`);
  if (n === 0) return "Zero";
  const parts: string[] = [];
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  const thousand = Math.floor((n % 100_000) / 1000);
  const rest = n % 1000;
  if (crore) parts.push(`${numberInIndianWords(crore)} Crore`);
  if (lakh) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand) parts.push(`${belowHundred(thousand)} Thousand`);
  if (rest) parts.push(belowThousand(rest));
  return parts.join(" ");
}

/** An invoice's amount in words: "Rupees Forty-Seven Thousand Two Hundred only", "… and Fifty Paise only" when there are paise. */
export function amountInWords(paise: number): string {
  const rupees = Math.floor(paise / 100);
  const p = paise % 100;
  return `Rupees ${numberInIndianWords(rupees)}${p ? ` and ${belowHundred(p)} Paise` : ""} only`;
}

/**
 * India's financial year (April to March) of an instant, by its day in Hyderabad: "2026-27" from 1 April 2026 to
 * 31 March 2027.
 */
export function financialYear(at: Date = new Date()): string {
  return financialYearOfDay(siteToday(at));
}

/** The financial year of a calendar day (YYYY-MM-DD). */
export function financialYearOfDay(day: string): string {
  const year = Number(day.slice(0, 4));
  const start = Number(day.slice(5, 7)) >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
}

/** Rates in basis points (1/100 of a per cent): 900 is 9 %. */
export type GstRates = { cgstBp: number; sgstBp: number; igstBp: number };

export type TaxSplit = {
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
  /** The rates applied (0 for a tax not charged). */
  cgstBp: number;
  sgstBp: number;
  igstBp: number;
};

/**
 * GST inside a total the student pays (every due is such a total), exactly: taxable value = the total × 100 /
 * (100 + rate), rounded half up to the paisa; tax = total − taxable. Within the institute's state (intra-state) the
 * tax is CGST + SGST: CGST = floor(tax / 2), SGST = the rest (so CGST + SGST = tax, and SGST is CGST or one paisa
 * more). To another state it is IGST = tax. taxable + taxes = total, always. Not registered (no GSTIN): no tax.
 */
export function splitGst(totalPaise: number, rates: GstRates, where: "intra" | "inter" | "none"): TaxSplit {
  if (!Number.isSafeInteger(totalPaise) || totalPaise < 0) throw new Error(`Not an amount in paise: ${totalPaise}`);
  const none = { taxablePaise: totalPaise, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise, cgstBp: 0, sgstBp: 0, igstBp: 0 };
  if (where === "none") return none;
  const rateBp = where === "intra" ? rates.cgstBp + rates.sgstBp : rates.igstBp;
  if (rateBp <= 0) return none;
  const denominator = 10_000 + rateBp;
  // Half up: floor((2·T·10000 + d) / 2d). T is at most ~10^10 paise, so this stays within 2^53.
  const taxablePaise = Math.floor((2 * totalPaise * 10_000 + denominator) / (2 * denominator));
  const tax = totalPaise - taxablePaise;
  if (where === "inter") return { ...none, taxablePaise, igstPaise: tax, igstBp: rates.igstBp };
  const cgstPaise = Math.floor(tax / 2);
  return { ...none, taxablePaise, cgstPaise, sgstPaise: tax - cgstPaise, cgstBp: rates.cgstBp, sgstBp: rates.sgstBp };
}

/** The tax on a value that excludes it (a course priced "+ GST"), rounded half up: added to make the total the student pays. */
export function gstOnTop(netPaise: number, rateBp: number): number {
  return Math.floor((2 * netPaise * rateBp + 10_000) / 20_000);
}

/** "18 %", "9 %", "2.5 %": a rate in basis points as people write it. */
export function formatRate(bp: number): string {
  return `${bp % 100 ? (bp / 100).toFixed(2).replace(/0$/, "") : bp / 100} %`;
}
