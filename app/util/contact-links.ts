/** Links staff use to answer people: e-mail, WhatsApp and phone (spec §2 enquiry and contact details). */

/** A mailto: link; the subject is percent-encoded (mail clients read "+" literally). */
export function mailtoUrl(email: string, subject?: string): string {
  const to = encodeURIComponent(email.trim()).replace(/%40/g, "@");
  return subject ? `mailto:${to}?subject=${encodeURIComponent(subject)}` : `mailto:${to}`;
}

/** The Reply via Email subject: "Re: <subject>", or "Your contact query" when there was none. */
export function replySubject(subject: string | null | undefined): string {
  const s = subject?.trim();
  return s ? `Re: ${s}` : "Your contact query";
}

/**
 * https://wa.me/<digits>. wa.me needs the country code; the site takes 10-digit Indian numbers (spec §5),
 * so a bare 10-digit number gets 91 in front. Null when there are no digits.
 */
export function whatsappChatUrl(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  if (!digits) return null;
  return `https://wa.me/${digits.length === 10 ? `91${digits}` : digits}`;
}

/**
 * A tel: link keeping a leading + and the digits. The forms store Indian numbers as their 10 digits (spec §5), so a
 * bare 10-digit number is dialled with +91, which works from any phone, roaming included. Null when there are no digits.
 */
export function telUrl(phone: string | null | undefined): string | null {
  const trimmed = phone?.trim() ?? "";
  const digits = trimmed.replace(/\D/g, "");
  if (!digits) return null;
  if (trimmed.startsWith("+")) return `tel:+${digits}`;
  return `tel:${digits.length === 10 ? `+91${digits}` : digits}`;
}
