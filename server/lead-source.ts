import type { NextFunction, Request, Response } from "express";
import { env } from "~/env.server";
import { encodeLeadSource, LEAD_COOKIE, LEAD_COOKIE_MAX_AGE, leadSourceFromCookieHeader, utmFromUrl } from "~/lib/lead-source";

/**
 * Remembers where a visitor came from when they land on a public page: UTM tags in the URL (a campaign link;
 * the latest one wins), or another site in Referer on a visit that has no source yet (the first one wins).
 * A first-party cookie carries it to the enquiry form, so it works without JavaScript.
 */
const PAGE_PATH = /^\/(?!api\/|api$|admin|assets\/|media\/|healthz)[^.]*$/;

function externalReferrer(req: Request): string | null {
  const referer = req.get("referer");
  if (!referer) return null;
  try {
    const from = new URL(referer);
    if (from.protocol !== "http:" && from.protocol !== "https:") return null;
    const own = new Set([req.get("host"), new URL(env().PUBLIC_URL).host]);
    return own.has(from.host) ? null : `${from.origin}${from.pathname}`.slice(0, 500);
  } catch {
    return null;
  }
}

export function leadSource(req: Request, res: Response, next: NextFunction) {
  if (req.method !== "GET" || !PAGE_PATH.test(req.path)) return next();
  // Read as a path even when it starts with "//" (which would otherwise name a host).
  const url = URL.parse(`http://x${req.originalUrl.startsWith("/") ? req.originalUrl : `/${req.originalUrl}`}`);
  if (!url) return next();
  const utm = utmFromUrl(url);
  const referrer = externalReferrer(req);
  const known = leadSourceFromCookieHeader(req.headers.cookie);
  if (utm || (referrer && !known)) {
    const value = encodeLeadSource({ utmSource: null, utmMedium: null, utmCampaign: null, ...utm, referrer: referrer ?? (utm ? null : (known?.referrer ?? null)) });
    const secure = env().PUBLIC_URL.startsWith("https:") && env().NODE_ENV === "production" ? "; Secure" : "";
    res.append("Set-Cookie", `${LEAD_COOKIE}=${value}; Path=/; Max-Age=${LEAD_COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax${secure}`);
  }
  next();
}
