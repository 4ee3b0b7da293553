import { describe, expect, it } from "vitest";
import { createUserSession } from "~/web/session.server";
import { getUserWithSecret } from "~/models/user.server";
import { action as userEdit } from "~/routes/admin.users.$id.edit";
import { action as userPassword } from "~/routes/admin.users.$id.password";
import { action as userNew } from "~/routes/admin.users.new";
import { action as ownPassword } from "~/routes/admin.users_.me.password";
import { COMMON_PASSWORD } from "~/schemas/user";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";
import { makeRequest, run } from "./admin-route-helpers";

// The Users screen and the own-password page refuse a common password on its field, and store nothing.
setupTestDatabase();

const PASSWORD = "long-enough-password";
let n = 0;
async function staff(role: "admin" | "editor") {
  const email = `common-${role}-${++n}@staff.test`;
  const user = await createUserWithoutActor({ name: `Common ${role} ${n}`, email, password: PASSWORD, role });
  const secret = (await getUserWithSecret({ id: user.id }))!;
  const cookie = (await createUserSession(new Request("http://localhost/admin/login"), secret, "/admin")).headers.get("Set-Cookie")!.split(";")[0];
  return { user, cookie, hash: secret.passwordHash };
}
const hashOf = async (id: string) => (await getUserWithSecret({ id }))!.passwordHash;
type Reply = { result: { error: Record<string, string[]> } };
const fieldErrors = (out: { body: unknown }) => (out.body as Reply).result.error;

describe("a common password", () => {
  it("is refused on Add User, on the Password field; no user is made", async () => {
    const admin = await staff("admin");
    const out = await run(
      userNew,
      makeRequest("/admin/users/new", {
        cookie: admin.cookie,
        form: { name: "New Person", email: "new.person@staff.test", password: "Password1", role: "editor" },
      }),
    );
    expect(out.status).toBe(400);
    expect(fieldErrors(out).password).toEqual([COMMON_PASSWORD]);
    expect(await getUserWithSecret({ email: "new.person@staff.test" })).toBeFalsy();

    const ok = await run(
      userNew,
      makeRequest("/admin/users/new", {
        cookie: admin.cookie,
        form: { name: "New Person", email: "new.person@staff.test", password: "a-new-password-9", role: "editor" },
      }),
    );
    expect(ok.status).toBe(302);
  });

  it("is refused on Edit User with a new password; the old one stays", async () => {
    const admin = await staff("admin");
    const other = await staff("editor");
    const form = { name: other.user.name, email: other.user.email, role: "editor", password: "ILOVEYOU" };
    const out = await run(userEdit, makeRequest(`/admin/users/${other.user.id}/edit`, { cookie: admin.cookie, form }), { id: other.user.id });
    expect(out.status).toBe(400);
    expect(fieldErrors(out).password).toEqual([COMMON_PASSWORD]);
    expect(await hashOf(other.user.id)).toBe(other.hash);
  });

  it("is refused when an admin sets another user's password", async () => {
    const admin = await staff("admin");
    const other = await staff("editor");
    const form = { newPassword: "qwerty123", confirmPassword: "qwerty123" };
    const out = await run(userPassword, makeRequest(`/admin/users/${other.user.id}/password`, { cookie: admin.cookie, form }), { id: other.user.id });
    expect(out.status).toBe(400);
    expect(fieldErrors(out).newPassword).toEqual([COMMON_PASSWORD]);
    expect(await hashOf(other.user.id)).toBe(other.hash);
  });

  it("is refused on Change Password of your own account, even with the right current password", async () => {
    const me = await staff("editor");
    const form = { currentPassword: PASSWORD, newPassword: "trustno1", confirmPassword: "trustno1" };
    const out = await run(ownPassword, makeRequest("/admin/users/me/password", { cookie: me.cookie, form }));
    expect(out.status).toBe(400);
    expect(fieldErrors(out).newPassword).toEqual([COMMON_PASSWORD]);
    expect(await hashOf(me.user.id)).toBe(me.hash);
  });
});
