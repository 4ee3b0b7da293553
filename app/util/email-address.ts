/**
 * E-mail addresses as the outbox uses them: one plain address per recipient, never a list hidden in one
 * string. A visitor types their own address, so "a@x.in, b@y.in" or a name with a line break must not
 * become a second recipient or a header of its own.
 */

// Nothing that separates, quotes, comments or groups addresses, no spaces and no control characters.
const PLAIN_ADDRESS = /^[^\s\p{Cc}@,;:<>()[\]"\\]+@[^\s\p{Cc}@,;:<>()[\]"\\]+$/u;

/** One plain address such as ravi@example.com (local names like admin@localhost too), at most 254 characters. */
export function isPlainAddress(value: string): boolean {
  return value.length <= 254 && PLAIN_ADDRESS.test(value);
}

/**
 * A display name or subject safe for a header: control characters (CR/LF among them) become spaces, runs collapse;
 * direction controls (U+202A–202E, U+2066–2069), which would show a name reversed in the mail client, go.
 */
export function cleanHeaderText(value: string, max = 200): string {
  return value
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, "")
    .replace(/[\p{Cc}\u2028\u2029]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max);
}

export type Mailbox = { name: string; address: string };

/** "Name <a@b.in>" or "a@b.in" → { name, address }; null when it is not one plain address. */
export function parseMailbox(value: string): Mailbox | null {
  const text = value.trim();
  const angled = /^(.*?)\s*<([^<>]+)>$/.exec(text);
  const name = angled ? angled[1].trim().replace(/^"(.*)"$/, "$1") : "";
  const address = (angled ? angled[2] : text).trim();
  if (!isPlainAddress(address) || /[\p{Cc}<>"]/u.test(name)) return null;
  return { name, address };
}

/** A comma-separated list of plain addresses (NOTIFY_EMAIL); null when any entry is not one. */
export function parseAddressList(value: string): string[] | null {
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!items.length || !items.every(isPlainAddress)) return null;
  return [...new Set(items.map((s) => s.toLowerCase()))];
}

/** The domain of an address, for Message-IDs (`<id@domain>`). */
export function addressDomain(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1) || "localhost";
}

const DOTLESS_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The mailbox an address reaches, for counting mail to it: case folded, a "+tag" dropped, and Gmail's dots (which it
 * ignores) dropped, so "Ra.Vi+x@gmail.com" and "ravi@googlemail.com" count as one. Never used to send or to find a
 * person's records: only to limit how often one inbox is written to.
 */
export function mailboxKey(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return address.trim().toLowerCase();
  let local = address.slice(0, at).trim().toLowerCase();
  let domain = address
    .slice(at + 1)
    .trim()
    .toLowerCase();
  local = local.replace(/\+.*$/, "");
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replace(/\./g, "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}
