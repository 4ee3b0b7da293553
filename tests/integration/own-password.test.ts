import { describe, expect, it, vi } from "vitest";
import { resetRateLimits } from "~/infra/rate-limit.server";
import { getUserWithSecret } from "~/models/user.server";
import { action as userEdit } from "~/routes/admin.users.$id.edit";
import { action as userPassword } from "~/routes/admin.users.$id.password";
import { action as ownPassword } from "~/routes/admin.users_.me.password";
import { loader as courses } from "~/routes/admin.courses";
import { createUserWithoutActor } from "~/services/users.server";
import { createUserSession } from "~/web/session.server";
import { PASSWORD_CHANGE_FAILED } from "~/schemas/user";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run } from "./admin-route-helpers";

// One rule everywhere (DESIGN.md §4.6): your own password needs the current one; an admin sets another user's
// without it; a wrong current password is throttled like a sign-in (here after 3 failures).
vi.hoisted(() => {
  process.env.RATE_LIMIT = "on";
  process.env.LOGIN_RATE_LIMIT_ACCOUNT = "3";
});
setupTestDatabase();

const PASSWORD = "long-enough-password";
let n = 0;
async function staff(role: "admin" | "editor") {
  const email = `pw-${role}-${++n}@staff.test`;
  const user = await createUserWithoutActor({ name: `Pw ${role} ${n}`, email, password: PASSWORD, role });
  const secret = (await getUserWithSecret({ id: user.id }))!;
  const cookie = (await createUserSession(new Request("http://localhost/admin/login"), secret, "/admin")).headers.get("Set-Cookie")!.split(";")[0];
  return { user, cookie, hash: secret.passwordHash };
}
const hashOf = async (id: string) => (await getUserWithSecret({ id }))!.passwordHash;
type Reply = { result: { error: Record<string, string[]> } };

describe("Edit User of your own account", () => {
  it("refuses a new password without the current one, and with a wrong one; takes it with the right one and keeps you signed in", async () => {
    await resetRateLimits();
    const me = await staff("admin");
    const path = `/admin/users/${me.user.id}/edit`;
    const base = { name: me.user.name, email: me.user.email, role: "admin", password: "a-new-password-1" };

    const missing = await run(userEdit, makeRequest(path, { cookie: me.cookie, form: base }), { id: me.user.id });
    expect(missing.status).toBe(400);
    expect((missing.body as Reply).result.error.currentPassword).toEqual(["Current password is required"]);

    const wrong = await run(userEdit, makeRequest(path, { cookie: me.cookie, form: { ...base, currentPassword: "not-my-password" } }), { id: me.user.id });
    expect(wrong.status).toBe(400);
    expect((wrong.body as Reply).result.error.currentPassword).toEqual([PASSWORD_CHANGE_FAILED]);
    expect(await hashOf(me.user.id)).toBe(me.hash);

    const right = await run(userEdit, makeRequest(path, { cookie: me.cookie, form: { ...base, currentPassword: PASSWORD } }), { id: me.user.id });
    expect(right.status).toBe(302);
    expect(await hashOf(me.user.id)).not.toBe(me.hash);
    const kept = right.headers.get("Set-Cookie")!.split(";")[0];
    expect((await run(courses, makeRequest("/admin/courses", { cookie: kept }))).status).toBe(200);
    // The cookie from before the change no longer works.
    expect((await run(courses, makeRequest("/admin/courses", { cookie: me.cookie }))).status).toBe(302);
  });

  it("a name change without a password needs nothing more", async () => {
    const me = await staff("admin");
    const out = await run(
      userEdit,
      makeRequest(`/admin/users/${me.user.id}/edit`, { cookie: me.cookie, form: { name: "Renamed Self", email: me.user.email, role: "admin", password: "" } }),
      { id: me.user.id },
    );
    expect(out.status).toBe(302);
    expect(await hashOf(me.user.id)).toBe(me.hash);
  });
});

describe("Change Password", () => {
  it("of your own account needs the current password, also on the Users screen's own row", async () => {
    const me = await staff("admin");
    const change = { newPassword: "another-password-2", confirmPassword: "another-password-2" };
    const missing = await run(userPassword, makeRequest(`/admin/users/${me.user.id}/password`, { cookie: me.cookie, form: change }), { id: me.user.id });
    expect(missing.status).toBe(400);
    expect((missing.body as Reply).result.error.currentPassword).toEqual(["Current password is required"]);
    expect(await hashOf(me.user.id)).toBe(me.hash);
    const done = await run(ownPassword, makeRequest("/admin/users/me/password", { cookie: me.cookie, form: { ...change, currentPassword: PASSWORD } }));
    expect(done.status).toBe(302);
    expect(await flashOf(done)).toEqual({ kind: "notice", message: "Password updated" });
  });

  it("an admin sets another user's password without knowing theirs", async () => {
    const admin = await staff("admin");
    const other = await staff("editor");
    const out = await run(
      userPassword,
      makeRequest(`/admin/users/${other.user.id}/password`, {
        cookie: admin.cookie,
        form: { newPassword: "set-by-admin-1", confirmPassword: "set-by-admin-1" },
      }),
      { id: other.user.id },
    );
    expect(out.status).toBe(302);
    expect(await hashOf(other.user.id)).not.toBe(other.hash);
    // Their sessions end; the admin's goes on.
    expect((await run(courses, makeRequest("/admin/courses", { cookie: other.cookie }))).status).toBe(302);
    expect((await run(courses, makeRequest("/admin/courses", { cookie: admin.cookie }))).status).toBe(200);
  });

  it("a wrong current password is throttled like a sign-in", async () => {
    await resetRateLimits();
    const me = await staff("editor");
    const guess = (p: string) =>
      run(
        ownPassword,
        makeRequest("/admin/users/me/password", {
          cookie: me.cookie,
          form: { currentPassword: p, newPassword: "guessing-pass-1", confirmPassword: "guessing-pass-1" },
        }),
      );
    for (let i = 0; i < 3; i++) expect((await guess(`wrong-${i}`)).status).toBe(400);
    const limited = await guess(PASSWORD);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await hashOf(me.user.id)).toBe(me.hash);
  });
});
