import { createCookie } from "react-router";
import { env } from "~/env.server";
import type { MeAccess } from "~/services/privacy-me.server";

/**
 * The person's own pages (/me, /me/data.json, /me/calendar.ics) after their e-mail's link was opened once: the
 * token is exchanged for this short-lived, HttpOnly cookie scoped to /me and the page redirects to a clean address,
 * so the token stays neither in the address bar, the history, nor the Referer of anything the page loads. The
 * cookie names the link (by id, signed with SESSION_SECRET, with its own expiry), never the token; the link's own
 * checks (expiry, the address it was mailed to) still run on every use.
 */
export const ME_ACCESS_SECONDS = 60 * 60;

type AccessValue = { link: string; until: number };

let cookie: ReturnType<typeof build> | undefined;
function build() {
  const e = env();
  return createCookie("me_access", {
    httpOnly: true,
    sameSite: "lax",
    secure: e.NODE_ENV === "production" && e.PUBLIC_URL.startsWith("https:"),
    path: "/me",
    secrets: [e.SESSION_SECRET],
    maxAge: ME_ACCESS_SECONDS,
  });
}
const meCookie = () => (cookie ??= build());

/** The Set-Cookie header that lets the person in without the token, for ME_ACCESS_SECONDS. */
export async function grantMeAccess(linkId: string): Promise<string> {
  const value: AccessValue = { link: linkId, until: Date.now() + ME_ACCESS_SECONDS * 1000 };
  return meCookie().serialize(value);
}

/** The Set-Cookie header that ends it (after an erasure). */
export async function endMeAccess(): Promise<string> {
  return meCookie().serialize("", { maxAge: 0 });
}

/** Who the request is for: the link its cookie names while the cookie is in date, else null. */
export async function meAccessOf(request: Request): Promise<MeAccess | null> {
  const value = (await meCookie().parse(request.headers.get("Cookie"))) as AccessValue | null;
  if (!value || typeof value.link !== "string" || typeof value.until !== "number" || value.until <= Date.now()) return null;
  return { linkId: value.link };
}
