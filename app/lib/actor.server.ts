import type { AppLoadContext } from "react-router";
import type { User } from "~/models/user.server";
import type { Actor, StaffActor } from "~/services/actor";
import { requireUser, requireUserWithRole } from "./session.server";

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

/** The signed-in staff member of a back-office request (or the redirect to sign in). */
export async function requireStaffActor(request: Request, context: AppLoadContext): Promise<StaffActor> {
  return staffActorFor(await requireUser(request), context);
}

/** Same, for screens only one role may open (a 403 page for the others). */
export async function requireStaffActorWithRole(request: Request, context: AppLoadContext, role: User["role"]): Promise<StaffActor> {
  return staffActorFor(await requireUserWithRole(request, role), context);
}
