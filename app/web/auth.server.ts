import type { AppLoadContext } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { UserWithSecret } from "~/models/user.server";
import { signIn } from "~/services/auth.server";
import { visitorActor } from "./actor.server";

/**
 * Staff sign-in through remix-auth's form strategy. The strategy reads the form; the rules (throttling, the
 * password check, the audit rows) are the sign-in service's, shared with POST /api/auth/login. The session
 * itself is kept by session.server.ts. The authenticator is made per request because the service needs the
 * client's address, which only the load context knows.
 */
export async function authenticateStaff(request: Request, context: AppLoadContext): Promise<UserWithSecret> {
  const authenticator = new Authenticator<UserWithSecret>();
  authenticator.use(
    new FormStrategy(async ({ form }) => signIn({ email: form.get("email") ?? undefined, password: form.get("password") ?? undefined }, visitorActor(context))),
    "form",
  );
  return authenticator.authenticate("form", request);
}
