import { indianPhoneDigits } from "~/schemas/enquiry";

/**
 * The e-mail addresses and phone numbers a free text (a staff note, a timeline value) holds, as whole tokens,
 * normalised: e-mails in lower case, Indian phone numbers as their ten digits. Erasure finds a person's mentions
 * in other records by these keys (exact equality, never a search for a piece of text: "mi@x.in" must not find
 * "admin@x.in"), and rewrites only those whole tokens.
 */

// An e-mail-shaped token: the longest run around "@" of characters an address may hold.
const EMAIL_TOKEN = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[^\s@<>()[\]"',;:]+/gu;
/** An address is at most 254 characters (RFC 5321); a longer e-mail-shaped token (a pasted link) is none. */
const MAX_EMAIL = 254;
// A phone-shaped run: digits, spaces and dashes holding 10 or more digits (a date has 8), "+" in front allowed.
const PHONE_TOKEN = /\+?\d[\d\s-]{8,}\d/g;
// The digit groups of a run ("+91", "98765", "43210").
const DIGIT_GROUP = /\+?\d+/g;

/** A mention's key: "email:<address>" or "phone:<ten digits>". */
export type MentionKey = `email:${string}` | `phone:${string}`;

export const emailMention = (address: string): MentionKey => `email:${address.trim().toLowerCase()}`;
export const phoneMention = (digits: string): MentionKey => `phone:${digits}`;

/**
 * The Indian phone numbers in a phone-shaped run, each a span of whole digit groups (leftmost, then longest), with
 * its place in the run. A run may hold more than one number, or a date before one: "Called 05-06-2025 9876543210"
 * and "9876543210 9123456780" are single runs, and read whole they were no number at all (an erasure left them).
 */
function phonesIn(run: string): { digits: string; start: number; end: number }[] {
  const groups = [...run.matchAll(DIGIT_GROUP)].map((m) => ({ start: m.index, end: m.index + m[0].length, count: m[0].length - (m[0][0] === "+" ? 1 : 0) }));
  const found: { digits: string; start: number; end: number }[] = [];
  let i = 0;
  while (i < groups.length) {
    let match: { digits: string; start: number; end: number } | null = null;
    let count = 0;
    for (let j = i; j < groups.length; j++) {
      count += groups[j].count;
      // A number with its country code is 12 digits: no longer span can be one.
      if (count > 12) break;
      const digits = indianPhoneDigits(run.slice(groups[i].start, groups[j].end));
      if (digits) match = { digits, start: groups[i].start, end: groups[j].end };
    }
    if (!match) {
      i++;
      continue;
    }
    found.push(match);
    const end = match.end;
    while (i < groups.length && groups[i].start < end) i++;
  }
  return found;
}

/** Every contact detail written in these texts, as mention keys (no repeats). */
export function contactMentions(...texts: (string | null | undefined)[]): MentionKey[] {
  const keys = new Set<MentionKey>();
  for (const text of texts) {
    if (!text) continue;
    for (const [token] of text.matchAll(EMAIL_TOKEN)) if (token.length <= MAX_EMAIL) keys.add(emailMention(token));
    for (const [run] of text.matchAll(PHONE_TOKEN)) for (const { digits } of phonesIn(run)) keys.add(phoneMention(digits));
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
    .replace(PHONE_TOKEN, (run) => {
      let out = "";
      let at = 0;
      for (const { digits, start, end } of phonesIn(run)) {
        if (!phones.has(digits)) continue;
        out += run.slice(at, start) + replacement;
        at = end;
      }
      return out + run.slice(at);
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
