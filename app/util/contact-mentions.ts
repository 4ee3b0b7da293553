import { indianPhoneDigits } from "~/schemas/enquiry";

/**
 * The e-mail addresses and phone numbers a free text (a staff note, a timeline value) holds, as whole tokens,
 * normalised: e-mails in lower case, Indian phone numbers as their ten digits. Erasure finds a person's mentions
 * in other records by these keys (exact equality, never a search for a piece of text: "mi@x.in" must not find
 * "admin@x.in"), and rewrites only those whole tokens.
 */

// An e-mail-shaped token: the longest run around "@" of characters an address may hold.
const EMAIL_TOKEN = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[^\s@<>()[\]"',;:]+/gu;
// A phone-shaped token: digits, spaces and dashes holding 10 or more digits (a date has 8), "+" in front allowed.
const PHONE_TOKEN = /\+?\d[\d\s-]{8,}\d/g;

/** A mention's key: "email:<address>" or "phone:<ten digits>". */
export type MentionKey = `email:${string}` | `phone:${string}`;

export const emailMention = (address: string): MentionKey => `email:${address.trim().toLowerCase()}`;
export const phoneMention = (digits: string): MentionKey => `phone:${digits}`;

/** The ten digits of a phone-shaped token, or null when it is not one Indian number. */
function tokenPhone(token: string): string | null {
  return indianPhoneDigits(token.trim());
}

/** Every contact detail written in these texts, as mention keys (no repeats). */
export function contactMentions(...texts: (string | null | undefined)[]): MentionKey[] {
  const keys = new Set<MentionKey>();
  for (const text of texts) {
    if (!text) continue;
    for (const [token] of text.matchAll(EMAIL_TOKEN)) keys.add(emailMention(token));
    for (const [token] of text.matchAll(PHONE_TOKEN)) {
      const digits = tokenPhone(token);
      if (digits) keys.add(phoneMention(digits));
    }
  }
  return [...keys];
}

/**
 * The text with every whole-token occurrence of these e-mails and phone numbers replaced, and nothing else
 * touched: an address that merely contains one of them, another number, a name, stays as written.
 */
export function replaceMentions(text: string, who: { emails: string[]; phones: string[] }, replacement: string): string {
  const emails = new Set(who.emails.map((e) => e.trim().toLowerCase()));
  const phones = new Set(who.phones);
  return text
    .replace(EMAIL_TOKEN, (token) => (emails.has(token.toLowerCase()) ? replacement : token))
    .replace(PHONE_TOKEN, (token) => {
      const digits = tokenPhone(token);
      return digits && phones.has(digits) ? replacement : token;
    });
}

/** Anything shaped like an e-mail or a phone number replaced (for a person's own lines only). */
export function replaceAnyContact(text: string, replacement: string): string {
  return text.replace(EMAIL_TOKEN, replacement).replace(PHONE_TOKEN, (token) => (token.replace(/\D/g, "").length >= 10 ? replacement : token));
}

/** What stands for a contact detail in an audit entry's note preview. */
export const NOTE_PREVIEW_CONTACT = "[contact]";

/** A note's first 60 characters for the audit log, e-mails and phone numbers masked. */
export function notePreview(text: string): string {
  const masked = replaceAnyContact(text, NOTE_PREVIEW_CONTACT);
  return masked.length > 60 ? `${masked.slice(0, 57)}...` : masked;
}
