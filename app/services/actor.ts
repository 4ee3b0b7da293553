import type { User } from "~/models/user.server";
import { forbidden } from "./service-error";

/**
 * Who asks a service to do something: the signed-in staff member (null for a visitor or an integration
 * posting a form anonymously), the client's address and the request id, for rules that depend on the
 * user and for the audit log.
 */
export type Actor = {
  user: Pick<User, "id" | "name" | "email" | "role"> | null;
  ip: string;
  requestId?: string;
};

export type StaffActor = Actor & { user: NonNullable<Actor["user"]> };

/** Admins only (DESIGN.md §4.2): staff accounts, the audit log and the outbox, for the screens and the API alike. */
export function requireAdmin(actor: StaffActor) {
  if (actor.user.role !== "admin") throw forbidden();
}
