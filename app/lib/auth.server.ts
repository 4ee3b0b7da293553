import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getUserWithSecret, type UserWithSecret } from "~/models/user.server";
import { burnPasswordCheck, verifyPassword } from "./password.server";

/** The one message for any failed sign-in: it never says whether the e-mail exists (spec §8). */
export const LOGIN_FAILED = "Invalid credentials or server error. Please try again.";

export class LoginError extends Error {}

/** Checks an e-mail and password; throws LoginError with LOGIN_FAILED when they do not match. */
export async function verifyLogin(email: string, password: string): Promise<UserWithSecret> {
  const user = email ? await getUserWithSecret({ email }) : null;
  if (!user) {
    await burnPasswordCheck(password);
    throw new LoginError(LOGIN_FAILED);
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw new LoginError(LOGIN_FAILED);
  return user;
}

export const FORM_STRATEGY = "form";

/** Staff sign-in through remix-auth's form strategy; the session itself is kept by session.server.ts. */
export const authenticator = new Authenticator<UserWithSecret>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    return verifyLogin(email, password);
  }),
  FORM_STRATEGY,
);
