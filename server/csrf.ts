import type { NextFunction, Request, Response } from "express";
import { env } from "~/env.server";
import { carriesSessionCookie } from "~/web/session.server";
import { isApiPath, routePath } from "./paths";
import { sendHttpError } from "./responses";

/**
 * Cross-site request forgery, refused in one place: any write (not GET/HEAD/OPTIONS) that carries the back
 * office's session cookie must come from the site's own pages, whatever its path. React Router checks the Origin
 * only for routes that render a page; resource routes (the course upload, syllabus images, sign-out, the API)
 * would otherwise take a forged POST from a same-site page (a sibling subdomain: SameSite=Lax does not stop those).
 * The path is not consulted at all: routes match case-insensitively and after percent-decoding, so a list of
 * protected prefixes (`/admin`, `/api`) was sidestepped by `/API/...` or `/%61pi/...`, and a public form posted
 * from our own page passes anyway. Bearer-token calls carry no cookie and are not affected; a request with neither
 * Origin nor Sec-Fetch-Site (curl, a server) is no browser and cannot be forged.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const CROSS_ORIGIN = { status: 403, code: "cross_origin", message: "Cross-site requests are not allowed" };
/** A public page's form posted from another site, a sandboxed frame or a page whose policy hid its origin. */
const CROSS_SITE_FORM = { status: 403, code: "cross_site_form", message: "Cross-site form posts are not accepted" };

/** The origins our own pages post from: this request's host as the client addressed it, and PUBLIC_URL. */
function ownOrigins(req: Request): Set<string> {
  const origins = new Set<string>([new URL(env().PUBLIC_URL).origin]);
  const host = req.get("host");
  if (host) {
    origins.add(`${req.protocol}://${host}`);
    // Behind a TLS-terminating proxy that is not trusted (TRUST_PROXY unset), req.protocol says http.
    origins.add(`https://${host}`);
  }
  return origins;
}

export function isSameOriginWrite(req: Request): boolean {
  const site = req.get("sec-fetch-site");
  if (site !== undefined && site !== "same-origin" && site !== "none") return false;
  const origin = req.get("origin");
  if (origin === undefined) return true;
  return ownOrigins(req).has(origin);
}

export function csrfGuard(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method) || isSameOriginWrite(req)) return next();
  // The body of a refused upload may still be arriving: answer and close rather than read it.
  if (carriesSessionCookie(req.headers.cookie)) return sendHttpError(res, CROSS_ORIGIN, req.path, { Connection: "close" });
  // Integrations may post enquiries to the API from anywhere; without a cookie they act as nobody.
  if (isApiPath(req.path)) return next();
  // A page's form from elsewhere (or with `Origin: null`). React Router would refuse it too, with a bare
  // "Bad Request" and a stack trace in the log; the visitor gets a page that says what to do, the log one line.
  console.warn(
    `[${(res.locals.requestId as string | undefined) ?? "-"}] 403 ${req.method} ${routePath(req.path)}: cross-site form post refused (Origin: ${req.get("origin") ?? "-"}, Sec-Fetch-Site: ${req.get("sec-fetch-site") ?? "-"})`,
  );
  sendHttpError(res, CROSS_SITE_FORM, req.path, { Connection: "close" });
}
