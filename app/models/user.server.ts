import { type Role } from "~/schemas/values";
import type { Selectable } from "kysely";
import { db } from "~db/client.server";
import { isUniqueViolation } from "~db/errors";
import type { UsersTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import { pageBounds, toPage, type Page, type PageInput } from "./paging.server";
import { nextVersion, versionOf, type VersionedWrite } from "./versioning.server";

export type { Role };

/** A user as the app and the API show it: never the password or its hash. */
export type User = {
  id: string;
  name: string;
  email: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
  /** Gets the daily digest e-mail (app/services/digest.server.ts). */
  dailyDigest: boolean;
  /** Given new enquiries by the round-robin (app/models/assignment.server.ts). */
  takesEnquiries: boolean;
  /** One more on every staff edit of the account (not a password change, not the round-robin's turn); who made it. */
  version: number;
  updatedBy: string | null;
};

export type UserWithSecret = User & { passwordHash: string; sessionVersion: number };

function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role === "admin" ? "admin" : "editor",
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    dailyDigest: Boolean(row.dailyDigest),
    takesEnquiries: Boolean(row.takesEnquiries),
    ...versionOf(row),
  };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class EmailTakenError extends Error {
  constructor() {
    super("A user with this email already exists");
  }
}

export async function listUsers(filter: PageInput = {}): Promise<Page<User>> {
  const { page, limit, offset } = pageBounds(filter);
  const [rows, count] = await Promise.all([
    db().selectFrom("users").selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    db()
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return toPage(rows.map(toUser), Number(count.n), page, limit);
}

/** Every staff member's id and name, by name: assignee pickers and the names on enquiries (no page limit). */
export async function listStaffNames(): Promise<{ id: string; name: string }[]> {
  return db().selectFrom("users").select(["id", "name"]).orderBy("name").orderBy("id").execute();
}

/** The addresses of all admin users: where staff alerts go when NOTIFY_EMAIL is unset. */
export async function listAdminEmails(): Promise<string[]> {
  const rows = await db().selectFrom("users").select("email").where("role", "=", "admin").orderBy("createdAt").execute();
  return rows.map((r) => r.email);
}

export async function countUsers(): Promise<number> {
  const r = await db()
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function getUser(id: string): Promise<User | null> {
  const row = await db().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toUser(row) : null;
}

/** For sign-in and session checks only. */
export async function getUserWithSecret(by: { id: string } | { email: string }): Promise<UserWithSecret | null> {
  let q = db().selectFrom("users").selectAll();
  q = "id" in by ? q.where("id", "=", by.id) : q.where("email", "=", normaliseEmail(by.email));
  const row = await q.executeTakeFirst();
  return row ? { ...toUser(row), passwordHash: row.passwordHash, sessionVersion: Number(row.sessionVersion) } : null;
}

async function emailTaken(email: string, exceptId?: string): Promise<boolean> {
  let q = db().selectFrom("users").select("id").where("email", "=", email);
  if (exceptId) q = q.where("id", "!=", exceptId);
  return Boolean(await q.executeTakeFirst());
}

/** Hashing is the caller's job (app/services/users.server.ts): this stores the hash it is given. */
export async function insertUser(input: { name: string; email: string; passwordHash: string; role?: Role }): Promise<User> {
  const email = normaliseEmail(input.email);
  if (await emailTaken(email)) throw new EmailTakenError();
  const id = newId();
  const now = nowIso();
  try {
    await db()
      .insertInto("users")
      .values({ id, name: input.name.trim(), email, passwordHash: input.passwordHash, role: input.role ?? "editor", createdAt: now, updatedAt: now })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  return (await getUser(id))!;
}

/**
 * A missing passwordHash keeps the current password. A new one bumps sessionVersion, which ends the user's sessions
 * and tokens. With `guard` (an edit of the account) it adds one to the version, and with `guard.version` writes only
 * if the stored one is still that (null: gone or changed meanwhile); a password change alone passes none.
 */
export async function updateUserRow(
  id: string,
  input: { name?: string; email?: string; passwordHash?: string; role?: Role },
  guard?: VersionedWrite,
): Promise<User | null> {
  const values: Record<string, unknown> = guard ? nextVersion(guard.updatedBy) : { updatedAt: nowIso() };
  if (input.name !== undefined) values.name = input.name.trim();
  if (input.email !== undefined) {
    const email = normaliseEmail(input.email);
    if (await emailTaken(email, id)) throw new EmailTakenError();
    values.email = email;
  }
  if (input.role !== undefined) values.role = input.role;
  if (input.passwordHash) values.passwordHash = input.passwordHash;
  try {
    let update = db()
      .updateTable("users")
      .set((eb) => ({ ...values, ...(input.passwordHash ? { sessionVersion: eb("sessionVersion", "+", 1) } : {}) }))
      .where("id", "=", id);
    if (guard?.version !== undefined) update = update.where("version", "=", guard.version);
    const r = await update.executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return null;
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  return getUser(id);
}

export async function deleteUserRow(id: string): Promise<boolean> {
  const r = await db().deleteFrom("users").where("id", "=", id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
