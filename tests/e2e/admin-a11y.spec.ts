import { blockAppScripts, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import { type Page } from "@playwright/test";
import { ADMIN_EMAIL } from "./env";

/** Set ADMIN_SHOTS_DIR to keep a full-page screenshot of every screen checked. */
const SHOTS = process.env.ADMIN_SHOTS_DIR;

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The screens of the back-office core, with the heading to wait for on each. */
async function screens(page: Page) {
  // Rows other specs never touch: they add and delete courses and users in the same database meanwhile.
  await page.goto("/admin/courses");
  const courseEdit = await page
    .getByRole("row")
    .filter({ hasText: "Cloud Security Practitioner" })
    .getByRole("link", { name: /^Edit / })
    .getAttribute("href");
  await page.goto("/admin/users");
  const userEdit = await page
    .getByRole("row")
    .filter({ hasText: ADMIN_EMAIL })
    .getByRole("link", { name: /^Edit / })
    .getAttribute("href");
  expect(courseEdit).toMatch(/^\/admin\/courses\/[^/]+\/edit$/);
  expect(userEdit).toMatch(/^\/admin\/users\/[^/]+\/edit$/);
  const userBase = userEdit!.replace(/\/edit$/, "");
  return [
    { name: "dashboard", path: "/admin/dashboard", heading: "Dashboard" },
    { name: "courses", path: "/admin/courses", heading: "Manage Courses" },
    { name: "course-new", path: "/admin/courses/new", heading: "Add New Course", editor: true },
    { name: "course-edit", path: courseEdit!, heading: "Edit Course", editor: true },
    { name: "course-delete", path: courseEdit!.replace(/\/edit$/, "/delete"), heading: "Delete Course" },
    { name: "users", path: "/admin/users", heading: "Manage Users" },
    { name: "user-new", path: "/admin/users/new", heading: "Add New User" },
    { name: "user-edit", path: userEdit!, heading: "Edit User" },
    { name: "user-password", path: `${userBase}/password`, heading: /^Change Password/ },
    { name: "user-delete", path: `${userBase}/delete`, heading: "Delete User" },
    { name: "own-password", path: "/admin/users/me/password", heading: /^Change Password/ },
  ];
}

for (const javaScriptEnabled of [true, false]) {
  for (const width of [1280, 375]) {
    test(`sign-in, dashboard, courses and users have no axe violations (default rules) at ${width} px, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width, height: 900 });
      // axe runs as a script in the page, so "off" keeps the browser's JavaScript but never loads the app's:
      // the markup is then exactly the server's, with dialogs as in-flow pages and the menu as a checkbox.
      if (!javaScriptEnabled) await blockAppScripts(page);
      const suffix = `${width}${javaScriptEnabled ? "" : "-nojs"}`;

      await page.goto("/admin/login");
      await expectNoAxeViolations(page, "login");
      await shoot(page, `login-${suffix}`);
      // The sign-in form showing its error messages.
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
      await expectNoAxeViolations(page, "login with errors");

      await signIn(page);
      for (const screen of await screens(page)) {
        await page.goto(screen.path);
        await expect(page.getByRole("heading", { name: screen.heading, exact: true }).first()).toBeVisible();
        if (javaScriptEnabled && screen.editor) {
          // MDXEditor loads lazily on the course form; scan it once it is there.
          await expect(page.getByRole("textbox", { name: "Course Syllabus Content" })).toBeVisible({ timeout: 15_000 });
        }
        await expectNoAxeViolations(page, screen.name);
        await shoot(page, `${screen.name}-${suffix}`);
      }

      // Forms showing their error messages.
      for (const [path, save] of [
        ["/admin/courses/new", "Save Course"],
        ["/admin/users/new", "Save User"],
      ] as const) {
        await page.goto(path);
        // Hydration moves the dialog from the page flow to the centre; click once it has settled.
        if (javaScriptEnabled) await expect(page.locator("dialog:modal")).toHaveCount(1);
        await page.getByRole("button", { name: save }).click();
        await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
        await expectNoAxeViolations(page, `${path} with errors`);
        await shoot(page, `${path.split("/")[2]}-errors-${suffix}`);
      }

      // The narrow menu, opened (a checkbox toggle that works without JavaScript).
      if (width === 375) {
        await page.goto("/admin/courses");
        await page.getByText("Menu", { exact: true }).click();
        await expect(page.getByRole("link", { name: "Users" })).toBeVisible();
        await expectNoAxeViolations(page, "menu open");
        await shoot(page, `menu-open-${suffix}`);
      }
    });
  }
}
