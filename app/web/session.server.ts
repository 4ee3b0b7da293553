import { randomBytes } from "node:crypto";
import { createCookieSessionStorage, redirect, type Session } from "react-router";
import { env } from "~/env.server";
import { isSessionRevoked, revokeSession } from "~/models/revoked-session.server";
import { getUserWithSecret, type User } from "~/models/user.server";

/** Signed out after this long without a request. */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** Signed out after this long whatever the activity. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** lastSeen is rewritten at most this often, so most responses carry no new cookie. */
export const SESSION_TOUCH_MS = 5 * 60 * 1000;

/** `sid` names this one session, so signing out can end it alone (see endSession). */
type SessionData = { sid: string; userId: string; version: number; issuedAt: number; lastSeen: number };
type FlashData = { flash: string };

/**
 * The cookie's name. Over https in production it carries the `__Host-` prefix, which browsers accept only from a
 * secure page, for the whole site (Path=/) and for this host alone (no Domain): a sibling subdomain or a plain-http
 * page on the network cannot plant or overwrite it.
 */
export function sessionCookieName(): string {
  return secureCookies() ? "__Host-session" : "__session";
}

function secureCookies(): boolean {
  const e = env();
  return e.NODE_ENV === "production" && e.PUBLIC_URL.startsWith("https:");
}

/** Either spelling of the name, anywhere in a Cookie header, in any case. */
const MENTIONS_SESSION = /__session|__host-session/i;

/**
 * True when a Cookie header mentions the back office's session cookie at all, valid or not (CSRF check, page
 * cache). Deliberately wider than a cookie parser: `__session =…` (a space before "=") is the session cookie to
 * React Router's parser, which trims names; a regex looking for `__session=` took it for an anonymous visitor.
 * Any header that names the cookie, however spelled, counts, so no parser's reading can be narrower than this one.
 */
export function carriesSessionCookie(cookieHeader: string | undefined): boolean {
  return MENTIONS_SESSION.test(cookieHeader ?? "");
}

let storage: ReturnType<typeof build> | undefined;
function build() {
  return createCookieSessionStorage<SessionData, FlashData>({
    cookie: {
      name: sessionCookieName(),
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies(),
      path: "/",
      secrets: [env().SESSION_SECRET],
      maxAge: SESSION_ABSOLUTE_MS / 1000,
    },
  });
}
export function sessionStorage() {
  storage ??= build();
  return storage;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export async function commitSession(session: Session<SessionData, FlashData>) {
  return sessionStorage().commitSession(session);
}

export async function destroySession(session: Session<SessionData, FlashData>) {
  return sessionStorage().destroySession(session);
}

/** Starts a session for a user who just signed in and answers with a redirect carrying the cookie. */
export async function createUserSession(request: Request, user: { id: string; sessionVersion: number }, redirectTo: string) {
  const session = await getSession(request);
  const now = Date.now();
  session.set("sid", randomBytes(16).toString("hex"));
  session.set("userId", user.id);
  session.set("version", user.sessionVersion);
  session.set("issuedAt", now);
  session.set("lastSeen", now);
  return redirect(redirectTo, { headers: { "Set-Cookie": await commitSession(session) } });
}

export type SessionCheck = { user: User; session: Session<SessionData, FlashData>; needsTouch: boolean };

/**
 * The signed-in user of this request, or null when there is no valid session:
 * expired (idle or absolute), signed out, for a deleted user, or from before a password change.
 */
export async function readUserSession(request: Request, now = Date.now()): Promise<SessionCheck | null> {
  const session = await getSession(request);
  const sid = session.get("sid");
  const userId = session.get("userId");
  const version = session.get("version");
  const issuedAt = session.get("issuedAt");
  const lastSeen = session.get("lastSeen");
  if (typeof sid !== "string" || !userId || typeof version !== "number" || typeof issuedAt !== "number" || typeof lastSeen !== "number") return null;
  if (now - issuedAt > SESSION_ABSOLUTE_MS || now - lastSeen > SESSION_IDLE_MS) return null;
  const [found, revoked] = await Promise.all([getUserWithSecret({ id: userId }), isSessionRevoked(sid)]);
  if (!found || found.sessionVersion !== version || revoked) return null;
  const { passwordHash: _h, sessionVersion: _v, ...user } = found;
  return { user, session, needsTouch: now - lastSeen > SESSION_TOUCH_MS };
}

/**
 * Signs this session out: the cookie is cleared, and the session id is refused from now on, so a copy of the
 * cookie kept elsewhere stops working too (ASVS 7.4.1). The user's other sessions and tokens go on.
 */
export async function endSession(check: SessionCheck): Promise<void> {
  const sid = check.session.get("sid")!;
  const issuedAt = check.session.get("issuedAt")!;
  await revokeSession(sid, new Date(issuedAt + SESSION_ABSOLUTE_MS));
}

/**
 * Moves this session to the user's new session version (after they changed their own password, which ends
 * every other session of theirs), keeping its lifetime.
 */
export function keepSessionAfterPasswordChange(session: Session<SessionData, FlashData>, sessionVersion: number): void {
  session.set("version", sessionVersion);
  session.set("lastSeen", Date.now());
}

/** Sets a new lastSeen and returns the cookie to send, for the inactivity timeout. */
export async function touchSession(check: SessionCheck, now = Date.now()): Promise<string> {
  check.session.set("lastSeen", now);
  return commitSession(check.session);
}

/** Sends a request without a valid session to the sign-in page, clearing a stale cookie on the way. */
export async function redirectToSignIn(request: Request): Promise<never> {
  const session = await getSession(request);
  const headers = session.has("userId") ? { "Set-Cookie": await destroySession(session) } : undefined;
  throw redirect("/admin/login", { headers });
}

/** For the sign-in page: true when a valid session already exists. */
export async function hasUserSession(request: Request): Promise<boolean> {
  return Boolean(await readUserSession(request));
}
