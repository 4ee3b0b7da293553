import { inTransaction } from "~db/client.server";
import { hashPassword } from "~/infra/password.server";
import { deleteUserRow, EmailTakenError, getUser, insertUser, listUsers as listUserRows, updateUserRow, type User } from "~/models/user.server";
import type { Page, PageInput } from "~/models/paging.server";
import { CURRENT_PASSWORD_REQUIRED, EMAIL_TAKEN, OWN_ACCOUNT_DELETE, takesEnquiriesSchema, userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { setTakesEnquiries } from "~/models/assignment.server";
import { USER_ROLE_LABELS } from "~/schemas/values";
import { requireAdmin, type StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { savePassword, verifyCurrentPassword, type PasswordChanged } from "./auth.server";
import { conflict, forbidden, invalid, notFound } from "./service-error";
import { forgetAssignee } from "./enquiries.server";
import { parseInput } from "./validation";
import { writeGuardSchema } from "~/schemas/write-guard";
import { changedMeanwhile, guardedWrite, type GuardedRecord } from "./write-guard.server";

/** A user under the write rule (write-guard.server.ts): "This user was changed by … at … IST. Here is what it holds now." */
const userRecord = (id: string): GuardedRecord<User> => ({ thing: "user", scope: "user", read: () => getUser(id), notFoundName: "User", answer: (now) => now });

const emailTaken = () => conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN }, "email_taken");

export async function listUsers(actor: StaffActor, page: PageInput): Promise<Page<User>> {
  requireAdmin(actor);
  return listUserRows(page);
}

export async function getUserForAdmin(actor: StaffActor, id: string): Promise<User> {
  requireAdmin(actor);
  const user = await getUser(id);
  if (!user) throw notFound("User");
  return user;
}

export async function createUser(actor: StaffActor, input: unknown): Promise<User> {
  requireAdmin(actor);
  const values = parseInput(userCreateSchema, input);
  const passwordHash = await hashPassword(values.password);
  try {
    return await inTransaction(async () => {
      const user = await insertUser({ name: values.name, email: values.email, passwordHash, role: values.role });
      await record(actor, "create", "user", user.id, `${user.name} <${user.email}> as ${user.role}`);
      return user;
    });
  } catch (error) {
    if (error instanceof EmailTakenError) throw emailTaken();
    throw error;
  }
}

export type UserUpdated = { user: User; password: PasswordChanged | null };

/**
 * Edit User. Nobody changes their own role (so the last admin cannot lock everyone out); a missing role keeps
 * the current one; an empty password keeps the current one (spec §5). Setting your own password here needs
 * your current password, as Change Password does. Drawn from an older version of the account (another admin's
 * edit since), refused with what it holds now; a repeat of the same form post changes nothing.
 */
export async function updateUser(actor: StaffActor, id: string, input: unknown): Promise<UserUpdated> {
  requireAdmin(actor);
  const found = await getUser(id);
  if (!found) throw notFound("User");
  const values = parseInput(userUpdateSchema, input);
  const guard = parseInput(writeGuardSchema, input);
  const own = id === actor.user.id;
  const roleGiven = typeof input === "object" && input !== null && (input as Record<string, unknown>).role !== undefined;
  if (own && values.password) {
    if (!values.currentPassword) throw invalid({ currentPassword: CURRENT_PASSWORD_REQUIRED });
    await verifyCurrentPassword(actor, found, values.currentPassword);
  }
  const passwordHash = values.password ? await hashPassword(values.password) : undefined;
  const target = userRecord(id);
  try {
    return await guardedWrite(
      target,
      guard,
      async (before) => {
        const role = own || !roleGiven ? before.role : values.role;
        let saved =
          (await updateUserRow(id, { name: values.name, email: values.email, role }, { version: before.version, updatedBy: actor.user.name })) ??
          (await changedMeanwhile(target));
        if (values.takesEnquiries !== undefined && values.takesEnquiries !== before.takesEnquiries) {
          await setTakesEnquiries(id, values.takesEnquiries);
          saved = (await getUser(id))!;
          await record(actor, "update", "user", id, `${saved.name}: new enquiries ${saved.takesEnquiries ? "given by round-robin" : "no longer given"}`);
        }
        const fields = changeSummary(before, saved, { name: "Name", email: "Email" });
        if (fields !== "No changes") await record(actor, "update", "user", id, fields);
        if (before.role !== saved.role) {
          await record(actor, "role", "user", id, `Role of ${saved.name}: ${USER_ROLE_LABELS[before.role]} → ${USER_ROLE_LABELS[saved.role]}`);
        }
        const password = passwordHash ? await savePassword(actor, saved, passwordHash) : null;
        return { user: password?.user ?? saved, password };
      },
      (before) => ({ user: before, password: null }),
    );
  } catch (error) {
    if (error instanceof EmailTakenError) throw emailTaken();
    throw error;
  }
}

/**
 * Who the round-robin gives new enquiries to (admins choose): on or off for one staff member, audited. Staff who
 * are away stay in the team but get no new leads.
 */
export async function setUserTakesEnquiries(actor: StaffActor, id: string, input: unknown): Promise<User> {
  requireAdmin(actor);
  const { takesEnquiries } = parseInput(takesEnquiriesSchema, input);
  return inTransaction(async () => {
    const before = await getUser(id);
    if (!before || !(await setTakesEnquiries(id, takesEnquiries, actor.user.name))) throw notFound("User");
    const saved = (await getUser(id))!;
    if (before.takesEnquiries !== saved.takesEnquiries) {
      await record(actor, "update", "user", id, `${saved.name}: new enquiries ${saved.takesEnquiries ? "given by round-robin" : "no longer given"}`);
    }
    return saved;
  });
}

export async function deleteUser(actor: StaffActor, id: string): Promise<void> {
  requireAdmin(actor);
  // The disabled button is only a hint; this is the rule (spec §5).
  if (id === actor.user.id) throw forbidden(OWN_ACCOUNT_DELETE, "own_account");
  await inTransaction(async () => {
    const user = await getUser(id);
    if (!user || !(await deleteUserRow(id))) throw notFound("User");
    await forgetAssignee(id);
    await record(actor, "delete", "user", id, `${user.name} <${user.email}>`);
  });
}

/**
 * The first admin of a new installation, made at start-up from ADMIN_EMAIL (checked loosely by app/env.server.ts,
 * so the quick start's admin@localhost is fine, though Add User would refuse an address without a domain).
 */
export async function createFirstAdmin(email: string, password: string): Promise<User> {
  return insertUser({ name: "Administrator", email, passwordHash: await hashPassword(password), role: "admin" });
}

/**
 * A staff account made outside any signed-in session: the test fixtures and scripts. Same checks and hashing
 * as Add User.
 */
export async function createUserWithoutActor(input: { name: string; email: string; password: string; role?: User["role"] }): Promise<User> {
  const values = parseInput(userCreateSchema, input);
  try {
    return await insertUser({ name: values.name, email: values.email, passwordHash: await hashPassword(values.password), role: values.role });
  } catch (error) {
    if (error instanceof EmailTakenError) throw emailTaken();
    throw error;
  }
}
