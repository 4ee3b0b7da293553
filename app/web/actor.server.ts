import type { AppLoadContext } from "react-router";
import type { Role, User } from "~/models/user.server";
import type { Actor, StaffActor } from "~/services/actor";
import { readUserSession, redirectToSignIn } from "./session.server";

/**
 * The Actor a service call is made for (app/services/actor.ts), built from the request's load context (client
 * address, request id) and the signed-in user, if any.
 */
export function actorFor(user: User | null, context: AppLoadContext): Actor {
  return { user: user ? { id: user.id, name: user.name, email: user.email, role: user.role } : null, ip: context.clientIp, requestId: context.requestId };
}

/** The Actor for a signed-in staff member. */
export function staffActorFor(user: User, context: AppLoadContext): StaffActor {
  return actorFor(user, context) as StaffActor;
}

/** A visitor on the public pages: the forms there never look at the session. */
export function visitorActor(context: AppLoadContext): Actor {
  return actorFor(null, context);
}

/**
 * The staff member acting on a back-office request, for loaders and actions alike (a layout's loader does not
 * guard its children's actions, so each checks): without a valid session, a redirect to the sign-in page; signed
 * in without `role`, a 403 page (DESIGN.md §4.2: Users is for admins). The API's twin is requireApiStaff.
 */
export async function requireStaff({ request, context }: { request: Request; context: AppLoadContext }, { role }: { role?: Role } = {}): Promise<StaffActor> {
  const check = await readUserSession(request);
  if (!check) return redirectToSignIn(request);
  if (role && check.user.role !== role) throw new Response("Forbidden", { status: 403, statusText: "Forbidden" });
  return staffActorFor(check.user, context);
}
