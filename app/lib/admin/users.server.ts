import { parseWithSchema } from "~/lib/form-submission";
import { data } from "react-router";
import { verifyPassword } from "~/lib/password.server";
import { beginLoginAttempt, RATE_LIMIT_MESSAGE, recordLoginFailure, recordLoginSuccess, retryAfterHeaders } from "~/lib/rate-limit.server";
import { requireUser } from "~/lib/session.server";
import { getUser, getUserWithSecret, updateUser, type User } from "~/models/user.server";
import { changePasswordSchema, PASSWORD_CHANGE_FAILED } from "~/schemas/user";
import { redirectWithFlash } from "./flash.server";

export const PASSWORD_UPDATED = "Password updated";
const HIDE_PASSWORDS = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };

/**
 * Who may open the Change Password form for `targetId`: the user themself, or an admin. Either way the
 * form asks for the target's CURRENT password (spec §2, §7: the change sends currentPassword), so an admin
 * cannot take over another account with it; an admin resets a forgotten password through Edit User instead.
 */
export async function requirePasswordTarget(request: Request, targetId: string): Promise<{ actor: User; target: User }> {
  const actor = await requireUser(request);
  const target = targetId === "me" ? actor : await getUser(targetId);
  if (!target) throw new Response("Not Found", { status: 404 });
  if (target.id !== actor.id && actor.role !== "admin") throw new Response("Forbidden", { status: 403 });
  return { actor, target };
}

/** The Change Password action: checks, updates, and keeps the signed-in user signed in when it was their own. */
export async function changePassword(request: Request, clientIp: string, targetId: string, backTo: string) {
  const { actor, target } = await requirePasswordTarget(request, targetId);
  const submission = parseWithSchema(await request.formData(), changePasswordSchema);
  if (submission.status !== "success") return data({ result: submission.reply(HIDE_PASSWORDS) }, { status: 400 });

  // Guessing a current password here is a sign-in attempt: the same throttle applies.
  const allowed = await beginLoginAttempt(clientIp, target.email);
  if (!allowed.ok) return data({ result: submission.reply({ ...HIDE_PASSWORDS, formErrors: [RATE_LIMIT_MESSAGE] }) }, { status: 429, headers: retryAfterHeaders(allowed) });
  const secret = await getUserWithSecret({ id: target.id });
  if (!secret || !(await verifyPassword(secret.passwordHash, submission.value.currentPassword))) {
    await recordLoginFailure(clientIp, target.email);
    return data({ result: submission.reply({ ...HIDE_PASSWORDS, formErrors: [PASSWORD_CHANGE_FAILED] }) }, { status: 400 });
  }
  await recordLoginSuccess(clientIp, target.email);

  // updateUser bumps the session version, which ends every session of the target user...
  if (!(await updateUser(target.id, { password: submission.value.newPassword }))) throw new Response("Not Found", { status: 404 });
  const own = target.id === actor.id;
  return redirectWithFlash(request, backTo, { kind: "notice", message: PASSWORD_UPDATED }, {
    // ...so the user who changed their own password gets this session moved to the new version.
    update: own ? (session) => reissue(session, target.id) : undefined,
  });
}

/** Moves a session to the user's current version (after their own password change), keeping its lifetime. */
export async function reissue(session: { set: (key: "version" | "lastSeen", value: number) => void }, userId: string) {
  const fresh = await getUserWithSecret({ id: userId });
  if (fresh) {
    session.set("version", fresh.sessionVersion);
    session.set("lastSeen", Date.now());
  }
}
