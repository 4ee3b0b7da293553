import { inTransaction } from "~db/client.server";
import { burnPasswordCheck, hashPassword, verifyPassword } from "~/infra/password.server";
import { beginLoginAttempt, RATE_LIMIT_MESSAGE, recordLoginFailure, recordLoginSuccess } from "~/infra/rate-limit.server";
import { getUser, getUserWithSecret, updateUserRow, type User, type UserWithSecret } from "~/models/user.server";
import { LOGIN_FAILED, loginSchema } from "~/schemas/login";
import { changePasswordSchema, PASSWORD_CHANGE_FAILED, setPasswordSchema } from "~/schemas/user";
import type { Actor, StaffActor } from "./actor";
import { record } from "./audit.server";
import { forbidden, notFound, ServiceError, tooMany } from "./service-error";
import { parseInput } from "./validation";

/**
 * Signing in and passwords, for the back office's forms and the API alike: the throttle, the checks,
 * the audit rows. Sessions (cookies) and tokens are the routes' business; they call these for the rules.
 */

/**
 * Checks an e-mail and password. Every attempt is counted before the (slow) password check; a wrong one
 * is a failure whether or not the e-mail exists, and the answer never says which.
 */
export async function signIn(input: unknown, actor: Actor): Promise<UserWithSecret> {
  const { email, password } = parseInput(loginSchema, input);
  const gate = await beginLoginAttempt(actor.ip, email);
  if (!gate.ok) throw tooMany(RATE_LIMIT_MESSAGE, gate.retryAfter);
  const user = await getUserWithSecret({ email });
  const matches = user ? await verifyPassword(user.passwordHash, password) : (await burnPasswordCheck(password), false);
  if (!user || !matches) {
    await recordLoginFailure(actor.ip, email);
    await record(actor, "sign-in-failed", "session", user?.id ?? null, `Sign-in with ${email.slice(0, 254)} failed`, {
      userId: user?.id ?? null,
      userName: user?.name ?? email.slice(0, 254),
    });
    throw new ServiceError("unauthorized", LOGIN_FAILED);
  }
  await recordLoginSuccess(actor.ip, email);
  await record(actor, "sign-in", "session", user.id, "", { userId: user.id, userName: user.name });
  return user;
}

/** Records a sign-out (the session or token itself is ended by the caller). */
export async function signOut(actor: StaffActor, how: "session" | "token"): Promise<void> {
  await record(actor, "sign-out", "session", actor.user.id, how === "token" ? "API token" : "Browser session");
}

/**
 * A current password typed to authorise a change of one's own account: throttled exactly like a sign-in,
 * so a stolen session or token cannot be used to guess it.
 */
export async function verifyCurrentPassword(actor: Actor, user: Pick<User, "id" | "email">, currentPassword: string): Promise<void> {
  const gate = await beginLoginAttempt(actor.ip, user.email);
  if (!gate.ok) throw tooMany(RATE_LIMIT_MESSAGE, gate.retryAfter);
  const secret = await getUserWithSecret({ id: user.id });
  if (!secret || !(await verifyPassword(secret.passwordHash, currentPassword))) {
    await recordLoginFailure(actor.ip, user.email);
    throw new ServiceError("invalid", PASSWORD_CHANGE_FAILED, { currentPassword: PASSWORD_CHANGE_FAILED }, undefined, "invalid_current_password");
  }
  await recordLoginSuccess(actor.ip, user.email);
}

export type PasswordChanged = { user: User; own: boolean; sessionVersion: number };

/**
 * Change Password. Your own password needs the current one (OWASP ASVS 5.0 §6.2.3), on every screen and in
 * the API; an admin may set another user's password without it. The user's sessions and tokens end (the
 * caller moves its own session or token to the new version when it was its own password).
 */
export async function changePassword(actor: StaffActor, targetId: string, input: unknown): Promise<PasswordChanged> {
  const own = targetId === actor.user.id;
  if (!own && actor.user.role !== "admin") throw forbidden("You can only change your own password");
  const target = own ? actor.user : await getUser(targetId);
  if (!target) throw notFound("User");
  let newPassword: string;
  if (own) {
    const values = parseInput(changePasswordSchema, input);
    await verifyCurrentPassword(actor, target, values.currentPassword);
    newPassword = values.newPassword;
  } else {
    newPassword = parseInput(setPasswordSchema, input).newPassword;
  }
  return savePassword(actor, target, await hashPassword(newPassword));
}

/**
 * Stores a new password's hash and records it, in the caller's transaction if there is one. Hash before
 * opening a transaction: hashing is slow, and on SQLite a transaction holds up every other request.
 */
export async function savePassword(actor: StaffActor, target: Pick<User, "id" | "name">, passwordHash: string): Promise<PasswordChanged> {
  const own = target.id === actor.user.id;
  return inTransaction(async () => {
    const user = await updateUserRow(target.id, { passwordHash });
    if (!user) throw notFound("User");
    await record(actor, "password", "user", target.id, own ? "Changed their own password" : `Set the password of ${target.name}`);
    const fresh = await getUserWithSecret({ id: target.id });
    return { user, own, sessionVersion: fresh!.sessionVersion };
  });
}
