import type { User } from "~/models/user.server";

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
