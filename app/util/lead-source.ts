import { cleanText } from "~/schemas/fields";

/**
 * Where a visitor came from, remembered for the length of a visit without JavaScript: the landing page's UTM
 * tags and the site that sent them, kept in a first-party cookie (server/lead-source.ts sets it) and read when
 * an enquiry is sent (app/web/site-forms.server.ts).
 */
export const LEAD_COOKIE = "lead_src";
export const LEAD_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

export type LeadSource = { utmSource: string | null; utmMedium: string | null; utmCampaign: string | null; referrer: string | null };

const clip = (v: unknown, max: number): string | null => {
  if (typeof v !== "string") return null;
  const text = cleanText(v, false).trim().slice(0, max);
  return text || null;
};

export function encodeLeadSource(source: LeadSource): string {
  return Buffer.from(JSON.stringify({ s: source.utmSource, m: source.utmMedium, c: source.utmCampaign, r: source.referrer })).toString("base64url");
}

/** The cookie's value read back; anything unreadable is no source at all (the visitor controls the cookie). */
export function decodeLeadSource(value: string | undefined): LeadSource | null {
  if (!value) return null;
  try {
    const raw = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Record<string, unknown>;
    const source = { utmSource: clip(raw.s, 100), utmMedium: clip(raw.m, 100), utmCampaign: clip(raw.c, 100), referrer: clip(raw.r, 500) };
    return Object.values(source).some(Boolean) ? source : null;
  } catch {
    return null;
  }
}

export function leadSourceFromCookieHeader(cookie: string | null | undefined): LeadSource | null {
  const match = new RegExp(`(?:^|;\\s*)${LEAD_COOKIE}=([^;]*)`).exec(cookie ?? "");
  return decodeLeadSource(match?.[1]);
}

/** The UTM tags of a landing URL, or null when it has none. */
export function utmFromUrl(url: URL): Omit<LeadSource, "referrer"> | null {
  const tags = {
    utmSource: clip(url.searchParams.get("utm_source"), 100),
    utmMedium: clip(url.searchParams.get("utm_medium"), 100),
    utmCampaign: clip(url.searchParams.get("utm_campaign"), 100),
  };
  return tags.utmSource || tags.utmMedium || tags.utmCampaign ? tags : null;
}

/** The one word lists group and filter by: the UTM source, else the referring site's host, else "direct". */
export function sourceLabel(source: Partial<LeadSource> | null | undefined): string {
  const tag = source?.utmSource?.trim().toLowerCase();
  if (tag) return tag.slice(0, 100);
  if (source?.referrer) {
    try {
      return new URL(source.referrer).hostname.replace(/^www\./, "").slice(0, 100) || "direct";
    } catch {
      return "direct";
    }
  }
  return "direct";
}
