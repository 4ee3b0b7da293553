import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { LOGIN_FAILED } from "~/schemas/login";
import { signIn } from "~/services/auth.server";
import { hashPassword, verifyPassword } from "~/infra/password.server";
import { requireStaff } from "~/web/actor.server";
import { createUserSession, destroySession, endSession, getSession, readUserSession, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "~/web/session.server";
import { issueToken, revokeToken, TOKEN_AUDIENCE, TOKEN_ISSUER, verifyToken } from "~/web/token.server";
import { deleteUserRow, getUserWithSecret, updateUserRow } from "~/models/user.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";

/**
 * ASVS authentication and session checks at the library level, on a real database: password hashing
 * parameters, the end of sessions and tokens (sign-out, password change, deleted user, expiry, tampering),
 * and no way to tell an unknown e-mail from a wrong password, by message or by time.
 */
useTestDatabase();

let n = 0;
async function staff(password = "correct-horse-battery") {
  n++;
  const user = await createUserWithoutActor({ name: `Staff ${n}`, email: `staff${n}@example.com`, password, role: "editor" });
  return { user, password, secret: (await getUserWithSecret({ id: user.id }))! };
}

/** Signs in the way the login route does and returns a request carrying the resulting cookie. */
async function signedInRequest(secret: { id: string; sessionVersion: number }): Promise<Request> {
  const response = await createUserSession(new Request("http://localhost/admin/login", { method: "POST" }), secret, "/admin/courses");
  const cookie = response.headers.get("Set-Cookie")!.split(";")[0];
  return new Request("http://localhost/admin/courses", { headers: { Cookie: cookie } });
}

describe("password hashing", () => {
  it("uses argon2id with at least 19 MiB of memory and 2 iterations", async () => {
    const { secret, password } = await staff();
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(secret.passwordHash);
    expect(m, secret.passwordHash).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(19 * 1024);
    expect(Number(m![2])).toBeGreaterThanOrEqual(2);
    expect(secret.passwordHash).not.toContain(password);
    expect(await verifyPassword(secret.passwordHash, password)).toBe(true);
    expect(await verifyPassword(secret.passwordHash, `${password}x`)).toBe(false);
  });

  it("salts every hash and survives a malformed stored hash", async () => {
    expect(await hashPassword("same-password")).not.toBe(await hashPassword("same-password"));
    expect(await verifyPassword("not-a-hash", "x")).toBe(false);
  });
});

describe("sessions end", () => {
  it("a fresh session is read back", async () => {
    const { secret } = await staff();
    const check = await readUserSession(await signedInRequest(secret));
    expect(check?.user.id).toBe(secret.id);
    expect(check?.user).not.toHaveProperty("passwordHash");
  });

  it("on sign-out: the cookie is cleared and a copy kept by someone else stops working; other devices stay signed in", async () => {
    const { secret } = await staff();
    const request = await signedInRequest(secret);
    const otherDevice = await signedInRequest(secret);
    const token = await issueToken(secret);
    const cleared = await destroySession(await getSession(request));
    expect(cleared).toMatch(/^__session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);
    await endSession((await readUserSession(request))!);
    expect(await readUserSession(request)).toBeNull();
    expect((await readUserSession(otherDevice))?.user.id).toBe(secret.id);
    expect((await verifyToken(token))?.id).toBe(secret.id);
    // Signing out twice (two tabs) is harmless.
    await endSession((await readUserSession(otherDevice))!);
    expect(await readUserSession(otherDevice)).toBeNull();
  });

  it("on a password change, for every session and token issued before it", async () => {
    const { secret } = await staff();
    const request = await signedInRequest(secret);
    const token = await issueToken(secret);
    await updateUserRow(secret.id, { passwordHash: await hashPassword("a-brand-new-password") });
    expect(await readUserSession(request)).toBeNull();
    expect(await verifyToken(token)).toBeNull();
    const fresh = (await getUserWithSecret({ id: secret.id }))!;
    expect((await readUserSession(await signedInRequest(fresh)))?.user.id).toBe(secret.id);
    expect((await verifyToken(await issueToken(fresh)))?.id).toBe(secret.id);
  });

  it("a change of name or role alone keeps the sessions", async () => {
    const { secret } = await staff();
    const request = await signedInRequest(secret);
    await updateUserRow(secret.id, { name: "Renamed" });
    expect((await readUserSession(request))?.user.name).toBe("Renamed");
  });

  it("when the user is deleted", async () => {
    const { secret } = await staff();
    const request = await signedInRequest(secret);
    const token = await issueToken(secret);
    await deleteUserRow(secret.id);
    expect(await readUserSession(request)).toBeNull();
    expect(await verifyToken(token)).toBeNull();
    const redirect = await requireStaff({ request, context: { clientIp: "127.0.0.1", cspNonce: "" } }).then(
      () => null,
      (r: unknown) => r as Response,
    );
    expect(redirect?.status).toBe(302);
    expect(redirect?.headers.get("Location")).toBe("/admin/login");
    expect(redirect?.headers.get("Set-Cookie")).toMatch(/^__session=;/);
  });

  it("after the idle and the absolute timeouts", async () => {
    const { secret } = await staff();
    const request = await signedInRequest(secret);
    const now = Date.now();
    expect(await readUserSession(request, now + SESSION_IDLE_MS - 60_000)).not.toBeNull();
    expect(await readUserSession(request, now + SESSION_IDLE_MS + 60_000)).toBeNull();
    expect(await readUserSession(request, now + SESSION_ABSOLUTE_MS + 60_000)).toBeNull();
  });

  it("a tampered or forged cookie is no session", async () => {
    const { secret } = await staff();
    const cookie = (await signedInRequest(secret)).headers.get("Cookie")!;
    const value = cookie.slice("__session=".length);
    const flipped = value.slice(0, 10) + (value[10] === "A" ? "B" : "A") + value.slice(11);
    for (const forged of [
      `__session=${flipped}`,
      `__session=${Buffer.from(JSON.stringify({ userId: secret.id })).toString("base64")}`,
      "__session=",
      "__session=%E0%A4%A",
    ]) {
      expect(await readUserSession(new Request("http://localhost/", { headers: { Cookie: forged } }))).toBeNull();
    }
  });
});

describe("API tokens end", () => {
  it("when revoked, expired, re-signed, unsigned or aimed elsewhere", async () => {
    const { secret } = await staff();
    expect((await verifyToken(await issueToken(secret)))?.id).toBe(secret.id);
    expect(await verifyToken(await issueToken(secret, -10))).toBeNull();
    const claims = { ver: secret.sessionVersion };
    const otherKey = new TextEncoder().encode("another-secret-0123456789-0123456789-0123");
    const sign = (key: Uint8Array, audience = TOKEN_AUDIENCE) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(secret.id)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(audience)
        .setExpirationTime("1h")
        .sign(key);
    expect(await verifyToken(await sign(otherKey))).toBeNull();
    const realKey = new TextEncoder().encode(process.env.SESSION_SECRET!);
    expect(await verifyToken(await sign(realKey, "some-other-api"))).toBeNull();
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ sub: secret.id, ver: secret.sessionVersion, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE })).toString("base64url")}.`;
    expect(await verifyToken(unsigned)).toBeNull();
    expect(await verifyToken("garbage")).toBeNull();
    // API sign-out ends that one token; another token of the same user goes on.
    const token = await issueToken(secret);
    const other = await issueToken(secret);
    expect(await revokeToken(token)).toBe(true);
    expect(await verifyToken(token)).toBeNull();
    expect((await verifyToken(other))?.id).toBe(secret.id);
    expect(await revokeToken("garbage")).toBe(false);
  });
});

describe("no user enumeration", () => {
  const failure = (email: string, password: string) =>
    signIn({ email, password }, { user: null, ip: "192.0.2.10" }).then(
      () => null,
      (e: unknown) => e,
    );

  it("an unknown e-mail and a wrong password fail with the same message", async () => {
    const { user } = await staff();
    const unknown = await failure("nobody-here@example.com", "whatever-password");
    const wrong = await failure(user.email, "wrong-password");
    expect(unknown).toMatchObject({ kind: "unauthorized" });
    expect(wrong).toMatchObject({ kind: "unauthorized" });
    expect((unknown as Error).message).toBe(LOGIN_FAILED);
    expect((wrong as Error).message).toBe(LOGIN_FAILED);
  });

  it("and take the same time (median of interleaved attempts within a tolerance)", async () => {
    const { user } = await staff();
    const time = async (fn: () => Promise<unknown>) => {
      const t = process.hrtime.bigint();
      await fn();
      return Number(process.hrtime.bigint() - t) / 1e6;
    };
    // Warm-up: the first unknown-e-mail check also makes the dummy hash it compares against.
    await failure("warm-up@example.com", "x");
    await failure(user.email, "x");
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 15; i++) {
      unknown.push(await time(() => failure(`nobody${i}@example.com`, `guess-${i}`)));
      wrong.push(await time(() => failure(user.email, `guess-${i}`)));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [u, w] = [median(unknown), median(wrong)];
    // A real argon2id check takes tens of milliseconds; skipping it for unknown e-mails would show as a large gap.
    expect(w).toBeGreaterThan(5);
    expect(Math.abs(u - w), `unknown ${u.toFixed(1)} ms vs wrong password ${w.toFixed(1)} ms`).toBeLessThan(Math.max(10, 0.35 * Math.max(u, w)));
  });
});
