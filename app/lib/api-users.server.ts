import { changePasswordSchema, EMAIL_TAKEN, PASSWORD_CHANGE_FAILED, userUpdateSchema } from "~/schemas/user";
import { EmailTakenError, getUser, getUserWithSecret, updateUser, type User } from "~/models/user.server";
import { ApiError, fieldErrors, invalid, json, notFound, one, validate } from "./api.server";
import { readBody } from "./api-body.server";
import { verifyPassword } from "./password.server";
import { beginLoginAttempt, RATE_LIMIT_MESSAGE, recordLoginFailure, recordLoginSuccess, retryAfterHeaders } from "./rate-limit.server";
import { issueToken } from "./token.server";

/**
 * PUT /api/users/:id. With `currentPassword` it is the caller changing their own password (spec §7);
 * otherwise an admin editing a user, where an empty password keeps the current one (spec §5).
 */
export async function updateUserFromRequest(request: Request, caller: User, id: string, ip: string): Promise<Response> {
  const body = await readBody(request);
  if (body.currentPassword !== undefined) return changeOwnPassword(caller, id, body, ip);
  if (caller.role !== "admin") throw new ApiError(403, "forbidden", "Only an admin can do this");
  if (!(await getUser(id))) throw notFound("User");
  const values = validate(userUpdateSchema, body);
  const own = id === caller.id;
  // Setting one's own password needs the current one (a stolen token must not be enough to take the account over).
  if (own && values.password) throw invalid({ currentPassword: "Current password is required" });
  try {
    const saved = await updateUser(id, {
      name: values.name,
      email: values.email,
      password: values.password,
      // Nobody changes their own role; a missing role keeps the current one instead of the form's default.
      role: own || body.role === undefined ? undefined : values.role,
    });
    if (!saved) throw notFound("User");
    return one(saved);
  } catch (error) {
    if (error instanceof EmailTakenError) throw new ApiError(409, "email_taken", EMAIL_TAKEN, { email: EMAIL_TAKEN });
    throw error;
  }
}

async function changeOwnPassword(caller: User, id: string, body: Record<string, unknown>, ip: string): Promise<Response> {
  if (id !== caller.id) throw new ApiError(403, "forbidden", "You can only change your own password with currentPassword");
  const newPassword = body.password ?? body.newPassword;
  const parsed = changePasswordSchema.safeParse({ currentPassword: body.currentPassword, newPassword, confirmPassword: body.confirmPassword ?? newPassword });
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    // The API's field is `password` (spec §7); the shared schema calls it newPassword.
    if (fields.newPassword && body.newPassword === undefined) {
      fields.password = fields.newPassword;
      delete fields.newPassword;
    }
    throw invalid(fields);
  }
  // Guessing the current password is throttled like guessing it at sign-in.
  const gate = await beginLoginAttempt(ip, caller.email);
  if (!gate.ok) throw new ApiError(429, "rate_limited", RATE_LIMIT_MESSAGE, undefined, retryAfterHeaders(gate));
  const secret = await getUserWithSecret({ id });
  if (!secret || !(await verifyPassword(secret.passwordHash, parsed.data.currentPassword))) {
    await recordLoginFailure(ip, caller.email);
    throw new ApiError(400, "invalid_current_password", PASSWORD_CHANGE_FAILED, { currentPassword: PASSWORD_CHANGE_FAILED });
  }
  await recordLoginSuccess(ip, caller.email);
  const saved = await updateUser(id, { password: parsed.data.newPassword });
  const fresh = await getUserWithSecret({ id });
  if (!saved || !fresh) throw notFound("User");
  // Every earlier token of this user stops working; the caller gets a new one to carry on with.
  return json({ data: saved, token: await issueToken(fresh) });
}
