import { hkdfSync, randomUUID } from "node:crypto";
import { SignJWT, jwtVerify, type JWTPayload } from "jose";
import { env } from "~/env.server";
import { isSessionRevoked, revokeSession } from "~/models/revoked-session.server";
import { getUserWithSecret, type User } from "~/models/user.server";

export const TOKEN_ISSUER = "soc-institute";
export const TOKEN_AUDIENCE = "soc-institute-api";
export const TOKEN_TTL_SECONDS = 8 * 60 * 60;

let cachedKey: { secret: string; key: Uint8Array } | undefined;

/**
 * The token key is derived from SESSION_SECRET (HKDF-SHA256 with its own label) rather than being the
 * cookie-signing secret itself, so a value signed for one purpose can never pass as the other.
 */
export function tokenKeyFor(secret: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secret, "soc-institute", "api-bearer-token-hs256", 32));
}

function key(): Uint8Array {
  const secret = env().SESSION_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: tokenKeyFor(secret) };
  return cachedKey.key;
}

/** A signed HS256 bearer token for the JSON API; `ver` ties it to the user's current password, `jti` names it for sign-out. */
export async function issueToken(user: { id: string; sessionVersion: number }, ttlSeconds = TOKEN_TTL_SECONDS): Promise<string> {
  return new SignJWT({ ver: user.sessionVersion })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(user.id)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key());
}

async function readToken(token: string): Promise<(JWTPayload & { sub: string; ver: number; jti: string; exp: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, key(), {
      algorithms: ["HS256"],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
    });
    if (typeof payload.sub !== "string" || typeof payload.ver !== "number" || typeof payload.jti !== "string" || typeof payload.exp !== "number") return null;
    return payload as JWTPayload & { sub: string; ver: number; jti: string; exp: number };
  } catch {
    return null;
  }
}

/** The user a bearer token names, or null for a bad, expired or revoked token. */
export async function verifyToken(token: string): Promise<User | null> {
  const payload = await readToken(token);
  if (!payload) return null;
  const [found, revoked] = await Promise.all([getUserWithSecret({ id: payload.sub }), isSessionRevoked(payload.jti)]);
  if (!found || found.sessionVersion !== payload.ver || revoked) return null;
  const { passwordHash: _h, sessionVersion: _v, ...user } = found;
  return user;
}

/** Signs this one token out (POST /api/auth/logout); the user's other tokens and sessions go on. */
export async function revokeToken(token: string): Promise<boolean> {
  const payload = await readToken(token);
  if (!payload) return false;
  await revokeSession(payload.jti, new Date(payload.exp * 1000));
  return true;
}
