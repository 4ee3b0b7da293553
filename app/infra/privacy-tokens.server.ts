import { createHash, createHmac, hkdfSync } from "node:crypto";
import { env } from "~/env.server";
import type { PrivacyLinkKind } from "~/models/privacy-links.server";

let cachedKey: { secret: string; key: Buffer } | undefined;
function linkKey(): Buffer {
  const secret = env().SESSION_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "soc-institute", "privacy-link", 32)) };
  return cachedKey.key;
}

/**
 * A privacy link's token: an HMAC of its kind and row id under a key derived from SESSION_SECRET (its own HKDF
 * label, so it is no other token). It cannot be guessed; the database keeps only its SHA-256 (a copy of the tables
 * opens nobody's page); the e-mail, rendered when it is sent, prints it without any row holding it; changing one
 * character gives a token no row has. Changing SESSION_SECRET voids every link (they also expire).
 */
export function privacyToken(kind: PrivacyLinkKind, linkId: string): string {
  return createHmac("sha256", linkKey()).update(`${kind}:${linkId}`).digest("base64url");
}

export const hashPrivacyToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** The address a /me link was mailed to, as the link keeps it: the SHA-256 of the address in lower case. */
export const hashLinkAddress = (address: string) => createHash("sha256").update(address.trim().toLowerCase(), "utf8").digest("hex");

/** A token as it may arrive in a link (43 base64url characters); anything else is looked up as nothing. */
export const plausibleToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** The pages a token opens, with the token in the query string (the access log drops query strings). */
export const mePath = (token: string) => `/me?token=${encodeURIComponent(token)}`;
export const guardianPath = (token: string) => `/guardian/consent?token=${encodeURIComponent(token)}`;
