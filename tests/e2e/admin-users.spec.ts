import { ADMIN_EMAIL, expect, fieldMessage, signIn, test, unique } from "./fixtures";
import { type Page } from "@playwright/test";

const MISMATCH = "New passwords do not match";
const CHANGE_FAILED = "Failed to change password. Please check your current password.";
const OWN_ACCOUNT = "You cannot delete your own account";

async function addUser(page: Page, user: { name: string; email: string; password: string; role: "editor" | "admin" }) {
  await page.goto("/admin/users");
  await page.getByRole("link", { name: "Add User" }).click();
  await expect(page.getByRole("heading", { name: "Add New User" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(user.name);
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Role", { exact: true }).selectOption(user.role);
  await page.getByRole("button", { name: "Save User" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole("row").filter({ hasText: user.email })).toContainText(user.role === "admin" ? "Admin" : "Editor");
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`Manage Users, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an editor made here sees no Users item and gets 403 on /admin/users", async ({ page, browser }) => {
      const name = unique("Editor");
      const email = `${name.split(" ")[1]}@example.com`;
      await signIn(page);
      await addUser(page, { name, email, password: "editor-password-1", role: "editor" });

      const editorContext = await browser.newContext({ javaScriptEnabled });
      const editor = await editorContext.newPage();
      await signIn(editor, email, "editor-password-1");
      await expect(editor.getByTestId("admin-user-role")).toHaveText("Editor");
      const nav = editor.getByRole("navigation", { name: "Admin" });
      await expect(nav.getByRole("link", { name: "Courses" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Users" })).toHaveCount(0);
      for (const path of ["/admin/users", "/admin/users/new"]) {
        const response = await editor.goto(path);
        expect(response?.status(), path).toBe(403);
        await expect(editor.getByText("You do not have permission to view this page.")).toBeVisible();
      }
      // A write the browser could still send is refused too, and nothing changes.
      const refused = await editor.request.post("/admin/users/new", {
        form: { name: "Sneaky", email: "sneaky@example.com", password: "sneaky-password", role: "admin" },
      });
      expect(refused.status()).toBe(403);
      await page.goto("/admin/users");
      await expect(page.getByRole("row").filter({ hasText: "sneaky@example.com" })).toHaveCount(0);
      await editorContext.close();
    });

    test("edit keeps the password when left empty; a taken e-mail is refused clearly", async ({ page, browser }) => {
      const name = unique("Trainer");
      const email = `${name.split(" ")[1]}@example.com`;
      await signIn(page);
      await addUser(page, { name, email, password: "trainer-password-1", role: "editor" });
      const row = page.getByRole("row").filter({ hasText: email });
      await row.getByRole("link", { name: `Edit ${name}` }).click();
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
      await page.getByLabel("Email", { exact: true }).fill(ADMIN_EMAIL);
      await page.getByRole("button", { name: "Save User" }).click();
      // The error summary (issue 37.10) links to the field's own message.
      await expect(page.getByRole("alert").getByRole("link", { name: "A user with this email already exists" })).toBeVisible();
      await page.getByLabel("Name", { exact: true }).fill(`${name} Renamed`);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Save User" }).click();
      await expect(page).toHaveURL(/\/admin\/users$/);
      await expect(page.getByRole("row").filter({ hasText: email })).toContainText(`${name} Renamed`);
      // The old password still works.
      const other = await browser.newContext({ javaScriptEnabled });
      await signIn(await other.newPage(), email, "trainer-password-1");
      await other.close();
    });

    test("change password: a mismatch is refused, a wrong current password too, then it changes", async ({ page, browser }) => {
      const name = unique("Changer");
      const email = `${name.split(" ")[1]}@example.com`;
      await signIn(page);
      await addUser(page, { name, email, password: "old-password-1", role: "editor" });

      // The user changes their own password from the sidebar.
      const context = await browser.newContext({ javaScriptEnabled });
      const own = await context.newPage();
      await signIn(own, email, "old-password-1");
      const otherSession = await browser.newContext({ javaScriptEnabled });
      const other = await otherSession.newPage();
      await signIn(other, email, "old-password-1");

      await own.getByRole("link", { name: "Change my password" }).click();
      await expect(own.getByRole("heading", { name: `Change Password for ${name}` })).toBeVisible();
      const posts: string[] = [];
      own.on("request", (r) => {
        if (r.method() === "POST") posts.push(r.url());
      });
      await own.getByLabel("Current Password", { exact: true }).fill("old-password-1");
      await own.getByLabel("New Password", { exact: true }).fill("new-password-22");
      await own.getByLabel("Confirm New Password", { exact: true }).fill("new-password-23");
      await own.getByRole("button", { name: "Update Password" }).click();
      await expect(own.getByRole("alert")).toHaveText(MISMATCH);
      // With JavaScript the mismatch is caught before any request.
      if (javaScriptEnabled) expect(posts).toEqual([]);

      await own.getByLabel("Current Password", { exact: true }).fill("wrong-password");
      await own.getByLabel("New Password", { exact: true }).fill("new-password-22");
      await own.getByLabel("Confirm New Password", { exact: true }).fill("new-password-22");
      await own.getByRole("button", { name: "Update Password" }).click();
      await expect(own.getByRole("alert")).toHaveText(CHANGE_FAILED);

      await own.getByLabel("Current Password", { exact: true }).fill("old-password-1");
      await own.getByLabel("New Password", { exact: true }).fill("new-password-22");
      await own.getByLabel("Confirm New Password", { exact: true }).fill("new-password-22");
      await own.getByRole("button", { name: "Update Password" }).click();
      // Back on the course list (an editor may not see /admin/users), with the notice.
      await expect(own).toHaveURL(/\/admin\/courses$/);
      await expect(own.getByRole("status").filter({ hasText: "Password updated" })).toBeVisible();
      await expect(own.getByRole("alert")).toHaveCount(0);
      // This session stays signed in; the user's other session has ended.
      await own.reload();
      await expect(own).toHaveURL(/\/admin\/courses$/);
      await other.goto("/admin/courses");
      await expect(other).toHaveURL(/\/admin\/login$/);
      await signIn(other, email, "new-password-22");
      await context.close();
      await otherSession.close();
    });

    test("your own account cannot be deleted, and the server refuses it too", async ({ page }) => {
      await signIn(page);
      await page.goto("/admin/users");
      const mine = page.getByRole("row").filter({ hasText: ADMIN_EMAIL });
      await expect(mine.getByRole("button", { name: /^Delete/ })).toBeDisabled();
      await expect(mine.getByText(OWN_ACCOUNT)).toBeVisible();
      const editHref = await mine.getByRole("link", { name: /^Edit/ }).getAttribute("href");
      const deletePath = editHref!.replace(/\/edit(\?.*)?$/, "/delete");
      const response = await page.request.post(deletePath);
      expect(response.status()).toBe(403);
      await page.goto("/admin/users");
      await expect(page.getByRole("row").filter({ hasText: ADMIN_EMAIL })).toHaveCount(1);
    });
  });
}

test("an admin sets another user's password without theirs; that user's sessions end", async ({ page, browser }) => {
  const name = unique("Other");
  const email = `${name.split(" ")[1]}@example.com`;
  await signIn(page);
  await addUser(page, { name, email, password: "other-password-1", role: "editor" });
  const theirs = await browser.newContext();
  const their = await theirs.newPage();
  await signIn(their, email, "other-password-1");
  await page
    .getByRole("row")
    .filter({ hasText: email })
    .getByRole("link", { name: `Change password of ${name}` })
    .click();
  await expect(page.getByRole("heading", { name: `Change Password for ${name}` })).toBeVisible();
  // No current password: the admin does not know it (DESIGN.md §4.6).
  await expect(page.getByLabel("Current Password", { exact: true })).toHaveCount(0);
  await page.getByLabel("New Password", { exact: true }).fill("set-by-admin-1");
  await page.getByLabel("Confirm New Password", { exact: true }).fill("set-by-admin-1");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole("status").filter({ hasText: "Password updated" })).toBeVisible();
  await their.goto("/admin/courses");
  await expect(their).toHaveURL(/\/admin\/login$/);
  await signIn(their, email, "set-by-admin-1");
  await theirs.close();
});

test("Edit User of your own account asks for the current password before setting a new one", async ({ page, browser }) => {
  await signIn(page);
  await page.goto("/admin/users");
  await page.getByRole("row").filter({ hasText: ADMIN_EMAIL }).getByRole("link", { name: /^Edit/ }).click();
  await page.getByLabel("Password", { exact: true }).fill("a-new-admin-password");
  await page.getByRole("button", { name: "Save User" }).click();
  await expect(fieldMessage(page, "Current password is required")).toBeVisible();
  await page.getByLabel("Current Password", { exact: true }).fill("not-the-password");
  await page.getByLabel("Password", { exact: true }).fill("a-new-admin-password");
  await page.getByRole("button", { name: "Save User" }).click();
  await expect(page.getByRole("alert").first()).toContainText(CHANGE_FAILED);
  // The admin's password is unchanged: a fresh sign-in still works with it.
  const fresh = await browser.newContext();
  await signIn(await fresh.newPage());
  await fresh.close();
});

test("deleting a user asks first and removes the row", async ({ page }) => {
  const name = unique("Leaver");
  const email = `${name.split(" ")[1]}@example.com`;
  await signIn(page);
  await addUser(page, { name, email, password: "leaver-password-1", role: "editor" });
  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await page
    .getByRole("row")
    .filter({ hasText: email })
    .getByRole("link", { name: `Delete ${name}` })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "User deleted" })).toBeVisible();
  expect(asked).toContain(name);
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(0);
});
