import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, holdRequests, signIn, test } from "./fixtures";

const LOGIN_FAILED = "Invalid credentials or server error. Please try again.";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`admin sign-in, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("every admin screen sends a visitor without a session to the sign-in page", async ({ page }) => {
      for (const path of [
        "/admin",
        "/admin/courses",
        "/admin/dashboard",
        "/admin/users",
        "/admin/courses/new",
        "/admin/users/me/password",
        "/admin/no-such-screen",
      ]) {
        await page.goto(path);
        await expect(page, path).toHaveURL(/\/admin\/login$/);
      }
      await expect(page.getByRole("heading", { name: "Admin sign in" })).toBeVisible();
    });

    test("empty fields are refused with the field messages", async ({ page }) => {
      await page.goto("/admin/login");
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByText("Email is required")).toBeVisible();
      await expect(page.getByText("Password is required")).toBeVisible();
      await expect(page).toHaveURL(/\/admin\/login$/);
    });

    test("a wrong password shows the spec's message and keeps the e-mail", async ({ page }) => {
      await page.goto("/admin/login");
      await page.getByLabel("Email").fill(ADMIN_EMAIL);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByRole("alert")).toHaveText(LOGIN_FAILED);
      await expect(page.getByLabel("Email")).toHaveValue(ADMIN_EMAIL);
      // Without JavaScript the page comes back from the server, which never echoes a password.
      if (!javaScriptEnabled) await expect(page.getByLabel("Password")).toHaveValue("");
      await page.goto("/admin/courses");
      await expect(page).toHaveURL(/\/admin\/login$/);
    });

    test("the right password opens the course list; /admin goes there too; logout ends the session", async ({ page }) => {
      await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
      await expect(page.getByRole("heading", { name: "Manage Courses" })).toBeVisible();
      await expect(page.getByTestId("admin-user-name")).toHaveText("Administrator");
      await expect(page.getByTestId("admin-user-role")).toHaveText("Admin");

      await page.goto("/admin");
      await expect(page).toHaveURL(/\/admin\/courses$/);
      // A signed-in user does not see the sign-in form again.
      await page.goto("/admin/login");
      await expect(page).toHaveURL(/\/admin\/courses$/);

      // An unknown admin path is a 404 inside the admin frame, never the public site's header and footer.
      const missing = await page.goto("/admin/no-such-screen");
      expect(missing?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
      await expect(page.getByTestId("admin-user-name")).toHaveText("Administrator");
      await expect(page.getByRole("link", { name: "Enroll Now" })).toHaveCount(0);
      await page.getByRole("link", { name: "Back to Courses" }).click();
      await expect(page).toHaveURL(/\/admin\/courses$/);

      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/admin\/login$/);
      await page.goto("/admin/dashboard");
      await expect(page).toHaveURL(/\/admin\/login$/);
    });
  });
}

test("the sign-in button says Signing in... while the request runs", async ({ page }) => {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  // Hold the action's answer so the pending state can be seen.
  const release = await holdRequests(page, "**/admin/login*", "POST");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("button", { name: "Signing in..." })).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/admin\/courses$/);
});

test("logout is a POST: a GET of /admin/logout signs nobody out", async ({ page }) => {
  await signIn(page);
  await page.goto("/admin/logout");
  await page.goto("/admin/courses");
  await expect(page).toHaveURL(/\/admin\/courses$/);
});

test("the sidebar collapses below 768 px and opens with the Menu toggle, without JavaScript too", async ({ browser }) => {
  for (const javaScriptEnabled of [false, true]) {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, javaScriptEnabled });
    const page = await context.newPage();
    await signIn(page);
    const nav = page.getByRole("navigation", { name: "Admin" });
    await expect(nav).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: "Dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await context.close();
  }
});
