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

/**
 * Whether a search term can only be a phone number: phone characters alone (see phoneSearchDigits) with a space, a
 * bracket or a leading +, which no e-mail address holds in that shape and no name is made of. Such a term is looked
 * for by its digits alone ("+91 93930 03000" finds the phone stored as "+91 93930 03000", "9393003000" or
 * "93930-03000"): on SQLite its typed trigrams ("+91", "91 ") are in nearly every phone, and matching them as well
 * read their whole lists at every search (2.6× slower at 100,000 enquiries than at 1,000), for no extra match.
 */
export function isPhoneOnlyTerm(term: string): boolean {
  return phoneSearchDigits(term) !== "" && /^\+|[\s()]/.test(term.trim());
}
