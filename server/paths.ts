/**
 * Which part of the site a request is for, decided once for every middleware that treats the back office and
 * the API differently (CSRF, no-store, the page cache, lead source, body limits, the API's error shape).
 *
 * React Router matches routes case-insensitively and on the percent-decoded path, so `/API/auth/register`,
 * `/%61pi/auth/register` and `//api/auth/register` all reach the API's routes. A test on the raw path would let
 * each of those spellings past a rule written for `/api`; these helpers see the path the way the router does.
 */

/** The request target's path as the router reads it: decoded, lower-case, without repeated slashes. */
export function routePath(target: string): string {
  // Parsed as a path even when it starts with "//" (which would otherwise name a host); "\" counts as "/" here,
  // as it does for the URL the router is given.
  const url = URL.parse(`http://x${target.startsWith("/") ? "" : "/"}${target}`);
  let path = url?.pathname ?? "/";
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: the router refuses such a path (400); judged by its raw spelling meanwhile.
  }
  return path.toLowerCase().replace(/\/{2,}/g, "/");
}

/** The back office: /admin and everything under it, pages and their .data requests. */
export function isAdminPath(path: string): boolean {
  const p = routePath(path);
  return p === "/admin" || p.startsWith("/admin/") || p === "/admin.data";
}

/** The JSON API (answers in the API's error shape). React Router's `.data` requests are pages' data, not the API. */
export function isApiPath(path: string): boolean {
  const p = routePath(path);
  return (p === "/api" || p.startsWith("/api/")) && !p.endsWith(".data");
}
