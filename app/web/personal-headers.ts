/**
 * The headers of a page or file opened by a personal link (a token in the query: /me, its data and calendar files,
 * a guardian's consent, a waitlist offer): kept by no cache, never indexed, and no Referer carries the token off
 * (same-origin still sends Origin, so the page's own forms post as same-site).
 */
export const PERSONAL_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "same-origin" } as const;
