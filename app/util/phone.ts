/** What a phone column's `phoneDigits` companion stores: the phone without spaces, dashes, dots, brackets or +. */
export function phoneDigits(phone: string | null | undefined): string {
  return (phone ?? "").replace(/\D/g, "");
}

/**
 * The digits to look for when a search term is typed like a phone number ("98765 43210", "+91-98765"), or "" for
 * any other term. Beyond ten digits only the last ten count, so "+91 98765 43210" and "098765 43210" find a phone
 * stored as "98765 43210" (and one stored with its country code).
 */
export function phoneSearchDigits(term: string): string {
  const digits = /^[\d\s().+-]+$/.test(term) ? phoneDigits(term) : "";
  if (digits.length < 3) return "";
  return digits.length > 10 ? digits.slice(-10) : digits;
}
