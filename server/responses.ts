import type { Response as ExpressResponse } from "express";
import { SITE } from "~/config/site";
import type { ErrorClass } from "./error-status";
import { isApiPath } from "./paths";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What a person reading the page should do; the API keeps the short technical message. */
const PAGE_MESSAGES: Record<number, string> = {
  403: "Your form could not be accepted from this page. Please open the page again from our website and send the form there, or contact us directly.",
  405: "This page cannot be used that way. Please go back and use the page's links and forms.",
  413: "What you sent is too large. Please go back and try again with a shorter message or smaller files.",
  503: "The service is temporarily unavailable. Please try again in a moment.",
};

const TITLES: Record<number, string> = {
  400: "Bad Request",
  403: "We could not accept this form",
  404: "Page Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Request Too Large",
  415: "Unsupported Media Type",
  500: "Unexpected Application Error!",
  503: "Service Unavailable",
};

/**
 * An error answered before (or instead of) React Router: the API's JSON error shape (DESIGN.md §3), or a
 * small self-contained page for browsers. Neither says anything about the server's insides.
 */
export function httpErrorResponse(cls: ErrorClass, pathname: string): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (cls.status === 503) headers.set("Retry-After", "5");
  // The body of a refused upload may still be arriving; closing is cheaper than reading it.
  if (cls.status === 413) headers.set("Connection", "close");
  if (isApiPath(pathname)) {
    headers.set("Content-Type", "application/json; charset=utf-8");
    return new Response(JSON.stringify({ error: { code: cls.code, message: cls.message } }), { status: cls.status, headers });
  }
  const title = TITLES[cls.status] ?? "Error";
  headers.set("Content-Type", "text/html; charset=utf-8");
  const contact = `<p>${escapeHtml(SITE.name)}: call <a href="${SITE.phoneHref}">${escapeHtml(SITE.phone)}</a>, WhatsApp <a href="https://wa.me/${SITE.whatsapp}">${escapeHtml(SITE.phone)}</a> or e-mail <a href="mailto:${SITE.email}">${escapeHtml(SITE.email)}</a>.</p>`;
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(`${title} | ${SITE.name}`)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;text-align:center;color:#0f172a;line-height:1.5"><header><p style="font-weight:700;color:#172554"><a href="/" style="color:inherit;text-decoration:none">${escapeHtml(SITE.name)}</a></p></header><main><h1 style="color:#172554">${escapeHtml(title)}</h1><p>${escapeHtml(PAGE_MESSAGES[cls.status] ?? cls.message)}</p>${contact}<p><a href="/">Back to Home</a></p></main></body></html>`;
  return new Response(html, { status: cls.status, headers });
}

/** httpErrorResponse written to an Express response (middleware that answers before React Router). */
export function sendHttpError(res: ExpressResponse, cls: ErrorClass, pathname: string, extraHeaders: Record<string, string> = {}): void {
  const response = httpErrorResponse(cls, pathname);
  res.status(response.status);
  response.headers.forEach((value, key) => res.setHeader(key, value));
  for (const [key, value] of Object.entries(extraHeaders)) res.setHeader(key, value);
  void response.text().then((text) => res.end(text));
}
