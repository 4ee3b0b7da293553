import type { NextFunction, Request, Response } from "express";
import { routePath } from "./paths";
import { env } from "~/env.server";
import { encodeLeadSource, LEAD_COOKIE, LEAD_COOKIE_MAX_AGE, leadSourceFromCookieHeader, utmFromUrl } from "~/util/lead-source";

/**
 * Remembers where a visitor came from when they land on a public page: UTM tags in the URL (a campaign link;
 * the latest one wins), or another site in Referer on a visit that has no source yet (the first one wins).
 * A first-party cookie carries it to the enquiry form, so it works without JavaScript. Once read, the link's
 * tracking parameters leave the request (dropTrackingParameters).
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

/**
 * Query parameters that say where a click came from and nothing about the page: the campaign tags read here, and
 * the click ids that ad networks and social sites add to every link (Facebook, Google, Microsoft, TikTok, X,
 * LinkedIn, Instagram, Yandex, Mailchimp; Google's srsltid and _gl).
 */
const TRACKING_PARAMETER = /^(?:utm_\w+|fbclid|gclid|gbraid|wbraid|dclid|msclkid|ttclid|twclid|li_fat_id|igshid|yclid|mc_cid|mc_eid|srsltid|_gl)$/i;

/**
 * The request continues without its tracking parameters, once they have been read: the page is rendered, and kept
 * by the page cache, for the address it shows. Each ad click carries its own click id, so a campaign would
 * otherwise be rendered anew for every visitor and push the real pages out of the cache; and a form's action (the
 * page's own address) would carry one visitor's click id in a page kept for everyone.
 */
function dropTrackingParameters(req: Request): void {
  const at = req.originalUrl.indexOf("?");
  if (at < 0) return;
  // The other parameters keep their bytes, so the address is the one a link without the tags would give.
  const pairs = req.originalUrl.slice(at + 1).split("&");
  const kept = pairs.filter((pair) => !TRACKING_PARAMETER.test(parameterName(pair)));
  if (kept.length === pairs.length) return;
  const target = `${req.originalUrl.slice(0, at)}${kept.length ? `?${kept.join("&")}` : ""}`;
  req.url = target;
  req.originalUrl = target;
}

function parameterName(pair: string): string {
  const name = pair.split("=", 1)[0].replaceAll("+", " ");
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

export function leadSource(req: Request, res: Response, next: NextFunction) {
  if (req.method !== "GET" || !PAGE_PATH.test(routePath(req.path))) return next();
  // Read as a path even when it starts with "//" (which would otherwise name a host).
  const url = URL.parse(`http://x${req.originalUrl.startsWith("/") ? req.originalUrl : `/${req.originalUrl}`}`);
  if (!url) return next();
  const utm = utmFromUrl(url);
  const referrer = externalReferrer(req);
  const known = leadSourceFromCookieHeader(req.headers.cookie);
  if (utm || (referrer && !known)) {
    const value = encodeLeadSource({
      utmSource: null,
      utmMedium: null,
      utmCampaign: null,
      ...utm,
      referrer: referrer ?? (utm ? null : (known?.referrer ?? null)),
    });
    const secure = env().PUBLIC_URL.startsWith("https:") && env().NODE_ENV === "production" ? "; Secure" : "";
    res.append("Set-Cookie", `${LEAD_COOKIE}=${value}; Path=/; Max-Age=${LEAD_COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax${secure}`);
  }
  dropTrackingParameters(req);
  next();
}
