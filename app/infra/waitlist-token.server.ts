import { createHash, createHmac, hkdfSync } from "node:crypto";
import { env } from "~/env.server";

let cachedKey: { secret: string; key: Buffer } | undefined;
function linkKey(): Buffer {
  const secret = env().SESSION_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "soc-institute", "waitlist-offer-link", 32)) };
  return cachedKey.key;
}

/**
 * A waitlist offer link's token: an HMAC of the offer's id under a key derived from SESSION_SECRET (its own HKDF
 * label, so it is no other token). It cannot be guessed; the database keeps only its SHA-256, so a copy of the
 * tables opens no offer; and the e-mail, rendered when it is sent, prints it without any row holding it.
 * Changing SESSION_SECRET voids the links of open offers (they still expire and move the list on).
 */
export function offerToken(offerId: string): string {
  return createHmac("sha256", linkKey()).update(`waitlist-offer:${offerId}`).digest("base64url");
}

export const hashOfferToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** The page a token's link opens (a query string: the access log drops those). */
export const offerPath = (token: string) => `/waitlist/offer?token=${encodeURIComponent(token)}`;
