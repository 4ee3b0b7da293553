import { beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "~/web/session.server";
import { countCourses, insertCourse, getCourse } from "~/models/course.server";
import { countUsers, getUser, getUserWithSecret } from "~/models/user.server";
import { createUserWithoutActor } from "~/services/users.server";
import * as courses from "~/routes/admin.courses";
import * as courseNew from "~/routes/admin.courses.new";
import * as courseEdit from "~/routes/admin.courses.$id.edit";
import * as courseDelete from "~/routes/admin.courses.$id.delete";
import * as courseSave from "~/routes/admin.courses.save";
import * as syllabusImage from "~/routes/admin.courses.syllabus-image";
import * as dashboard from "~/routes/admin.dashboard";
import * as users from "~/routes/admin.users";
import * as userNew from "~/routes/admin.users.new";
import * as userEdit from "~/routes/admin.users.$id.edit";
import * as userDelete from "~/routes/admin.users.$id.delete";
import * as userPassword from "~/routes/admin.users.$id.password";
import * as ownPassword from "~/routes/admin.users_.me.password";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

useTestDatabase();

type Fn = (args: never) => unknown;
let admin: string;
let editor: string;
let courseId: string;
let otherUserId: string;

beforeAll(async () => {
  admin = await staffCookie("admin");
  editor = await staffCookie("editor");
  courseId = (await insertCourse({ title: "Access Course", category: "beginner", description: "For access checks" })).id;
  otherUserId = (await createUserWithoutActor({ name: "Other Editor", email: "other.editor@staff.test", password: "long-enough-password" })).id;
});

/** A signed session cookie for an existing user, as the login page would set. */
async function staffCookieFor(email: string): Promise<string> {
  const user = (await getUserWithSecret({ email }))!;
  const res = await createUserSession(new Request("http://localhost/admin/login"), user, "/admin");
  return res.headers.get("Set-Cookie")!.split(";")[0];
}

const courseLoaders = (): [Fn, string, Record<string, string>][] => [
  [courses.loader, "/admin/courses", {}],
  [courseNew.loader, "/admin/courses/new", {}],
  [courseEdit.loader, `/admin/courses/${courseId}/edit`, { id: courseId }],
  [courseDelete.loader, `/admin/courses/${courseId}/delete`, { id: courseId }],
  [dashboard.loader, "/admin/dashboard", {}],
];
const userLoaders = (): [Fn, string, Record<string, string>][] => [
  [users.loader, "/admin/users", {}],
  [userNew.loader, "/admin/users/new", {}],
  [userEdit.loader, `/admin/users/${otherUserId}/edit`, { id: otherUserId }],
  [userDelete.loader, `/admin/users/${otherUserId}/delete`, { id: otherUserId }],
  [userPassword.loader, `/admin/users/${otherUserId}/password`, { id: otherUserId }],
];
const writeActions = (): [Fn, string, Record<string, string>][] => [
  [courseNew.action, "/admin/courses/new", {}],
  [courseEdit.action, `/admin/courses/${courseId}/edit`, { id: courseId }],
  [courseDelete.action, `/admin/courses/${courseId}/delete`, { id: courseId }],
  [courseSave.action, "/admin/courses/save", {}],
  [syllabusImage.action, "/admin/courses/syllabus-image", {}],
  [userNew.action, "/admin/users/new", {}],
  [userEdit.action, `/admin/users/${otherUserId}/edit`, { id: otherUserId }],
  [userDelete.action, `/admin/users/${otherUserId}/delete`, { id: otherUserId }],
  [userPassword.action, `/admin/users/${otherUserId}/password`, { id: otherUserId }],
  [ownPassword.action, "/admin/users/me/password", {}],
];

describe("back-office core authorisation", () => {
  it("sends anonymous visitors to the sign-in page from every loader and action, changing nothing", async () => {
    const before = { courses: await countCourses(), users: await countUsers() };
    for (const [fn, path, params] of [...courseLoaders(), ...userLoaders()]) {
      const out = await run(fn, makeRequest(path), params);
      expect([out.status, out.location], path).toEqual([302, "/admin/login"]);
    }
    const form = {
      title: "Sneaky",
      category: "beginner",
      description: "x",
      name: "Sneaky",
      email: "sneaky@x.test",
      password: "long-enough-password",
      role: "admin",
      newPassword: "another-password-1",
      confirmPassword: "another-password-1",
      currentPassword: "x",
    };
    for (const [fn, path, params] of writeActions()) {
      const out = await run(fn, makeRequest(path, { form }), params);
      // The upload endpoints are called by fetch/XHR from the course dialog, so they answer 401 rather than redirect.
      const expected = path.endsWith("/save") || path.endsWith("/syllabus-image") ? [401, null] : [302, "/admin/login"];
      expect([out.status, out.location], `POST ${path}`).toEqual(expected);
    }
    expect({ courses: await countCourses(), users: await countUsers() }).toEqual(before);
    expect(await getCourse(courseId)).not.toBeNull();
    expect(await getUser(otherUserId)).not.toBeNull();
  });

  it("lets editors and admins manage courses and see the dashboard", async () => {
    for (const cookie of [editor, admin]) {
      for (const [fn, path, params] of courseLoaders()) {
        const out = await run(fn, makeRequest(path, { cookie }), params);
        expect(out.status, path).toBe(200);
      }
    }
  });

  it("refuses every users loader and action to an editor with 403, changing nothing", async () => {
    for (const [fn, path, params] of userLoaders()) {
      const out = await run(fn, makeRequest(path, { cookie: editor }), params);
      expect(out.status, path).toBe(403);
      expect((await run(fn, makeRequest(path, { cookie: admin }), params)).status, `admin ${path}`).toBe(200);
    }
    const hashBefore = (await getUserWithSecret({ id: otherUserId }))!.passwordHash;
    const count = await countUsers();
    const attempts: [Fn, string, Record<string, string>, Record<string, string>][] = [
      [userNew.action, "/admin/users/new", {}, { name: "Made By Editor", email: "made.by.editor@x.test", password: "long-enough-password", role: "admin" }],
      [
        userEdit.action,
        `/admin/users/${otherUserId}/edit`,
        { id: otherUserId },
        { name: "Renamed", email: "other.editor@staff.test", role: "admin", password: "" },
      ],
      [userDelete.action, `/admin/users/${otherUserId}/delete`, { id: otherUserId }, {}],
      [
        userPassword.action,
        `/admin/users/${otherUserId}/password`,
        { id: otherUserId },
        { currentPassword: "long-enough-password", newPassword: "new-password-123", confirmPassword: "new-password-123" },
      ],
    ];
    for (const [fn, path, params, form] of attempts) {
      const out = await run(fn, makeRequest(path, { cookie: editor, form }), params);
      expect(out.status, `editor POST ${path}`).toBe(403);
    }
    expect(await countUsers()).toBe(count);
    expect(await getUser(otherUserId)).toMatchObject({ name: "Other Editor", role: "editor" });
    expect((await getUserWithSecret({ id: otherUserId }))!.passwordHash).toBe(hashBefore);
  });

  it("refuses /admin/users/<own id>/password to an editor too; /admin/users/me/password lands on a page they may see", async () => {
    const email = `own-${Math.random().toString(36).slice(2)}@staff.test`;
    const me = await createUserWithoutActor({ name: "Own Editor", email, password: "long-enough-password", role: "editor" });
    const cookie = await staffCookieFor(email);
    expect((await run(ownPassword.loader, makeRequest("/admin/users/me/password", { cookie }))).status).toBe(200);
    const hashBefore = (await getUserWithSecret({ id: me.id }))!.passwordHash;
    const change = { currentPassword: "long-enough-password", newPassword: "new-password-123", confirmPassword: "new-password-123" };

    // The users screen's own route answers 403, as every user action does for an editor, and changes nothing.
    expect((await run(userPassword.loader, makeRequest(`/admin/users/${me.id}/password`, { cookie }), { id: me.id })).status).toBe(403);
    const refused = await run(userPassword.action, makeRequest(`/admin/users/${me.id}/password`, { cookie, form: change }), { id: me.id });
    expect(refused.status).toBe(403);
    expect((await getUserWithSecret({ id: me.id }))!.passwordHash).toBe(hashBefore);

    // The sidebar's own-password page changes it and goes to the course list (which editors see) with the notice.
    const done = await run(ownPassword.action, makeRequest("/admin/users/me/password", { cookie, form: change }));
    expect([done.status, done.location]).toEqual([302, "/admin/courses"]);
    expect(await flashOf(done)).toEqual({ kind: "notice", message: "Password updated" });
    expect((await getUserWithSecret({ id: me.id }))!.passwordHash).not.toBe(hashBefore);
    const after = done.headers.get("Set-Cookie")!.split(";")[0];
    expect((await run(courses.loader, makeRequest("/admin/courses", { cookie: after }))).status).toBe(200);
  });

  it("an admin cannot delete their own account, but can delete another user", async () => {
    const myId = ((await run(users.loader, makeRequest("/admin/users", { cookie: admin }))).body as { meId?: string }).meId;
    expect(typeof myId).toBe("string");
    await run(userDelete.action, makeRequest(`/admin/users/${myId}/delete`, { cookie: admin, form: {} }), { id: myId! });
    expect(await getUser(myId!)).not.toBeNull();
    const victim = (await createUserWithoutActor({ name: "Leaving", email: "leaving@staff.test", password: "long-enough-password" })).id;
    await run(userDelete.action, makeRequest(`/admin/users/${victim}/delete`, { cookie: admin, form: {} }), { id: victim });
    expect(await getUser(victim)).toBeNull();
  });
});
