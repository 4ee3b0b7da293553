/**
 * Log lines are read by whoever runs the server, kept for long and often shipped to other services: they must not
 * carry visitors' names or e-mail addresses, nor a webhook's full URL (its path or query is often the secret that
 * lets anyone post to it). What stays is enough to find the record: ids, the e-mail's domain, the URL's origin.
 */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/gi;
const EMAIL_IN_TEXT = /[^\s<>"'(),;:@/]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;

/** The origin of a URL (no user, path or query), or "a URL" when it cannot be read. */
export function urlForLog(url: string): string {
  const parsed = URL.parse(url);
  return parsed && (parsed.protocol === "http:" || parsed.protocol === "https:") ? `${parsed.origin}/…` : "a URL";
}

/** An e-mail address as its domain only: "…@example.com". */
export function emailForLog(address: string): string {
  const at = address.lastIndexOf("@");
  return at < 0 ? "…" : `…${address.slice(at)}`;
}

/** Any text for a log line (an error message from a mail server or an HTTP client) with URLs and addresses cut down. */
export function redactForLog(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => urlForLog(url)).replace(EMAIL_IN_TEXT, "…@$1");
}
