import { expect, holdRequests, pdfFile, pngFile, signIn, test, unique } from "./fixtures";
import { type Page, type Route } from "@playwright/test";

const IMAGE_TYPE_MESSAGE = "Please select an image file (JPEG, PNG, etc.)";

async function openAddCourse(page: Page) {
  await page.getByRole("link", { name: "Add Course" }).click();
  await expect(page.getByRole("heading", { name: "Add New Course" })).toBeVisible();
}

async function fillSyllabus(page: Page, javaScriptEnabled: boolean, text: string) {
  if (javaScriptEnabled) {
    // The rich-text editor, not the plain textarea it replaces once the page has hydrated and its code arrived.
    const editor = page.locator("[data-lexical-editor]").and(page.getByRole("textbox", { name: "Course Syllabus Content" }));
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(text);
  } else {
    await page.getByLabel("Course Syllabus Content").fill(text);
  }
}

async function expectSyllabus(page: Page, javaScriptEnabled: boolean, text: string) {
  if (javaScriptEnabled) await expect(page.getByRole("textbox", { name: "Course Syllabus Content" })).toHaveText(text);
  else await expect(page.getByLabel("Course Syllabus Content")).toHaveValue(text);
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`Manage Courses, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("add, edit and delete a course with an image, highlights and a syllabus", async ({ page }) => {
      const title = unique("Threat Hunting");
      await signIn(page);
      await openAddCourse(page);
      // The list of highlights starts with one entry, which cannot be removed.
      await expect(page.getByLabel("Highlight 1")).toBeVisible();
      await expect(page.getByRole("button", { name: /^Remove highlight/ })).toHaveCount(0);

      await page.getByLabel("Title").fill(title);
      await page.getByLabel("Category").selectOption("advanced");
      await page.getByLabel("Duration").fill("10 weeks");
      await page.getByLabel("Description").fill("Hunt adversaries in enterprise logs.");
      await fillSyllabus(page, javaScriptEnabled, "Week 1: log sources");
      await page.getByLabel("Highlight 1").fill("Live SIEM labs");
      await page.getByRole("button", { name: "+ Add Highlight" }).click();
      await page.getByLabel("Highlight 2").fill("Sigma rules");
      await page.getByRole("button", { name: "+ Add Highlight" }).click();
      await page.getByLabel("Highlight 3").fill("To be removed");
      await page.getByRole("button", { name: "Remove highlight 3" }).click();
      await expect(page.getByLabel("Highlight 3")).toHaveCount(0);
      // The add/remove round trip (a server round trip without JavaScript) keeps what was typed.
      await expect(page.getByLabel("Title")).toHaveValue(title);
      await expect(page.getByLabel("Highlight 2")).toHaveValue("Sigma rules");
      await expectSyllabus(page, javaScriptEnabled, "Week 1: log sources");

      await page.getByLabel("Choose a course image").setInputFiles(await pngFile());
      if (javaScriptEnabled) await expect(page.getByRole("img", { name: "Preview of the chosen image" })).toBeVisible();
      await page.getByLabel("Choose a syllabus file").setInputFiles(pdfFile("threat-hunting.pdf"));
      await page.getByLabel("Featured course").check();
      await page.getByRole("button", { name: "Save Course" }).click();

      await expect(page).toHaveURL(/\/admin\/courses$/);
      await expect(page.getByRole("status").filter({ hasText: `Course ${title} saved` })).toBeVisible();
      const row = page.getByRole("row").filter({ hasText: title });
      await expect(row).toContainText("Advanced");
      await expect(row).toContainText("10 weeks");
      await expect(row.getByRole("img", { name: "Featured" })).toBeVisible();
      const imageSrc = await row.locator("img").first().getAttribute("src");
      expect(imageSrc).toMatch(/^\/media\/images\/[a-f0-9]{32}\.webp$/);
      expect((await page.request.get(imageSrc!)).status()).toBe(200);

      // Edit: the form is filled from the course; change the title, drop a highlight, remove the image.
      await row.getByRole("link", { name: `Edit ${title}` }).click();
      await expect(page.getByRole("heading", { name: "Edit Course" })).toBeVisible();
      await expect(page.getByLabel("Title")).toHaveValue(title);
      await expect(page.getByLabel("Highlight 1")).toHaveValue("Live SIEM labs");
      await expect(page.getByLabel("Highlight 2")).toHaveValue("Sigma rules");
      await expect(page.getByLabel("Featured course")).toBeChecked();
      const download = page.getByRole("link", { name: "Download threat-hunting.pdf" });
      await expect(download).toHaveAttribute("href", /^\/media\/syllabus\/[a-f0-9]{32}\.pdf$/);
      const syllabusHref = await download.getAttribute("href");
      await expectSyllabus(page, javaScriptEnabled, "Week 1: log sources");

      const renamed = `${title} II`;
      await page.getByLabel("Title").fill(renamed);
      await fillSyllabus(page, javaScriptEnabled, "Week 1: log sources and parsers");
      if (javaScriptEnabled) await page.getByRole("button", { name: "Remove image" }).click();
      else await page.getByLabel("Remove image").check();
      await page.getByRole("button", { name: "Remove highlight 1" }).click();
      await expect(page.getByLabel("Highlight 1")).toHaveValue("Sigma rules");
      await expect(page.getByRole("button", { name: /^Remove highlight/ })).toHaveCount(0);
      // Without JavaScript that was a round trip: the edited syllabus and the Remove image choice come back as sent.
      await expectSyllabus(page, javaScriptEnabled, "Week 1: log sources and parsers");
      if (!javaScriptEnabled) await expect(page.getByLabel("Remove image")).toBeChecked();
      await page.getByRole("button", { name: "Save Course" }).click();
      await expect(page).toHaveURL(/\/admin\/courses$/);
      const renamedRow = page.getByRole("row").filter({ hasText: renamed });
      await expect(renamedRow.locator("img")).toHaveCount(0);
      // The replaced image file is gone once the row no longer names it.
      expect((await page.request.get(imageSrc!)).status()).toBe(404);

      await renamedRow.getByRole("link", { name: `Edit ${renamed}` }).click();
      await expect(page.getByLabel("Highlight 1")).toHaveValue("Sigma rules");
      await expect(page.getByLabel("Highlight 2")).toHaveCount(0);
      await expectSyllabus(page, javaScriptEnabled, "Week 1: log sources and parsers");
      await page.getByRole("link", { name: "Cancel" }).click();
      await expect(page).toHaveURL(/\/admin\/courses$/);

      // Delete: confirm() with JavaScript, a confirmation page without.
      if (javaScriptEnabled) {
        page.once("dialog", (dialog) => dialog.accept());
        await page
          .getByRole("row")
          .filter({ hasText: renamed })
          .getByRole("link", { name: `Delete ${renamed}` })
          .click();
      } else {
        await page
          .getByRole("row")
          .filter({ hasText: renamed })
          .getByRole("link", { name: `Delete ${renamed}` })
          .click();
        await expect(page).toHaveURL(/\/delete$/);
        await expect(page.getByRole("heading", { name: "Delete Course" })).toBeVisible();
        await page.getByRole("button", { name: "Delete" }).click();
      }
      await expect(page.getByRole("status").filter({ hasText: `Course ${renamed} deleted` })).toBeVisible();
      await expect(page.getByRole("row").filter({ hasText: renamed })).toHaveCount(0);
      expect((await page.request.get(syllabusHref!)).status()).toBe(404);
    });

    test("required fields and a file that is not an image are refused with the spec's messages", async ({ page }) => {
      await signIn(page);
      await openAddCourse(page);
      await page.getByRole("button", { name: "Save Course" }).click();
      await expect(page.getByLabel("Title")).toHaveAccessibleDescription("Title is required");
      await expect(page.getByLabel("Category")).toHaveAccessibleDescription("Category is required");
      await expect(page.getByLabel("Description")).toHaveAccessibleDescription("Description is required");
      if (!javaScriptEnabled) await expect(page.getByRole("alert").first()).toBeVisible();

      const title = unique("Fake Image");
      await page.getByLabel("Title").fill(title);
      await page.getByLabel("Category").selectOption("beginner");
      await page.getByLabel("Description").fill("x");
      await fillSyllabus(page, javaScriptEnabled, "Refused, yet kept");
      // Named .png, but the content is text: only the server's content check can tell.
      await page.getByLabel("Choose a course image").setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
      await page.getByRole("button", { name: "Save Course" }).click();
      await expect(page.getByText(IMAGE_TYPE_MESSAGE).first()).toBeVisible();
      await expect(page.getByLabel("Title")).toHaveValue(title);
      await expectSyllabus(page, javaScriptEnabled, "Refused, yet kept");
      await page.goto("/admin/courses");
      await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(0);
    });
  });
}

test("with JavaScript the button shows upload progress and the syllabus editor has the spec's toolbar", async ({ page }) => {
  await signIn(page);
  await openAddCourse(page);
  const toolbar = page.getByRole("group", { name: "Course Syllabus Content" }).getByRole("toolbar");
  const tools = [
    ["radio", "Bold"],
    ["radio", "Italic"],
    ["radio", "Underline"],
    ["radio", "Strikethrough"],
    ["radio", "Numbered list"],
    ["radio", "Bulleted list"],
    ["combobox", "Text colour"],
    ["combobox", "Background"],
    ["button", "Create link"],
    ["button", "Insert image"],
    ["button", "Clear formatting"],
  ] as const;
  for (const [role, name] of tools) await expect(toolbar.getByRole(role, { name }), name).toBeVisible();
  await toolbar.getByRole("combobox", { name: "Block type" }).click();
  for (let level = 1; level <= 6; level++) await expect(page.getByRole("option", { name: `Heading ${level}` })).toBeVisible();
  await page.keyboard.press("Escape");
  const title = unique("Progress");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Category").selectOption("beginner");
  await page.getByLabel("Description").fill("Upload progress check.");
  await page.getByLabel("Choose a syllabus file").setInputFiles(pdfFile());
  // Colour comes from the palette and is kept as a span in the Markdown.
  const editor = page.getByRole("textbox", { name: "Course Syllabus Content" });
  await editor.click();
  await page.keyboard.type("Exam week");
  await page.keyboard.press("ControlOrMeta+a");
  await toolbar.getByRole("combobox", { name: "Text colour" }).click();
  await page.getByRole("option", { name: "Red" }).click();
  await expect(editor.locator('span[style*="color"]')).toHaveText("Exam week");
  const release = await holdRequests(page, "**/admin/courses/save");
  await page.getByRole("button", { name: "Save Course" }).click();
  await expect(page.getByRole("button", { name: /^(Uploading\.\.\. \d+%|Saving\.\.\.)$/ })).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  const row = page.getByRole("row").filter({ hasText: title });
  await row.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page.getByRole("textbox", { name: "Course Syllabus Content" }).locator('span[style*="color"]')).toHaveText("Exam week");
});

test("Escape closes the course dialog and returns to the list", async ({ page }) => {
  await signIn(page);
  await openAddCourse(page);
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/\/admin\/courses$/);
  await expect(page.getByRole("heading", { name: "Add New Course" })).toHaveCount(0);
});

test("syllabus typed into the plain box before the page's JavaScript ran is kept by the editor", async ({ page }) => {
  await signIn(page);
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await new Promise((r) => setTimeout(r, 700));
    await route.continue();
  });
  await page.goto("/admin/courses/new", { waitUntil: "domcontentloaded" });
  await page.locator("textarea[name=syllabus]").fill("Typed early");
  const editor = page.locator("[data-lexical-editor]").and(page.getByRole("textbox", { name: "Course Syllabus Content" }));
  await expect(editor).toHaveText("Typed early", { timeout: 15_000 });
  await expect(page.locator("input[type=hidden][name=syllabus]")).toHaveValue("Typed early");
});

test("with JavaScript a save after the session ended says so and keeps the form as typed", async ({ page, context }) => {
  await signIn(page);
  await openAddCourse(page);
  const title = unique("Late Save");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Category").selectOption("advanced");
  await page.getByLabel("Description").fill("Typed before the session ran out.");
  await context.clearCookies();
  await page.getByRole("button", { name: "Save Course" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Your session has ended, so the course was not saved." })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/courses\/new$/);
  await expect(page.getByLabel("Title")).toHaveValue(title);
  // Signed in again elsewhere (same cookie jar), the same form saves.
  const other = await context.newPage();
  await signIn(other);
  await other.close();
  await page.getByRole("button", { name: "Save Course" }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(1);
});

test("with JavaScript a failed save shows the server's message, else the error's own, else the spec's", async ({ page }) => {
  await signIn(page);
  await openAddCourse(page);
  await page.getByLabel("Title").fill(unique("Unsaved"));
  await page.getByLabel("Category").selectOption("beginner");
  await page.getByLabel("Description").fill("Never saved.");
  const answers: ((route: Route) => Promise<void>)[] = [
    (route) => route.fulfill({ status: 500, json: { ok: false, result: null, message: "The course store is read-only today.", notice: null } }),
    (route) => route.abort("connectionrefused"),
    (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad Gateway</h1>" }),
  ];
  await page.route("**/admin/courses/save", (route) => answers.shift()!(route));
  const save = page.getByRole("button", { name: "Save Course" });
  // The forms' error summary (issue 37.10): "There is a problem" and the message.
  const banner = page.getByRole("dialog", { name: "Add New Course" }).getByRole("alert").filter({ hasText: "There is a problem" });
  await save.click();
  await expect(banner).toContainText("The course store is read-only today.");
  await save.click();
  await expect(banner).toContainText("The server could not be reached. Please check your connection and try again.");
  await save.click();
  await expect(banner).toContainText("Failed to save course. Please try again.");
  await expect(page.getByRole("heading", { name: "Add New Course" })).toBeVisible();
});

test("a failed syllabus image upload's banner goes away once an upload succeeds", async ({ page }) => {
  await signIn(page);
  await openAddCourse(page);
  const editor = page.getByRole("textbox", { name: "Course Syllabus Content" });
  const toolbar = page.getByRole("group", { name: "Course Syllabus Content" }).getByRole("toolbar");
  await editor.click();
  await toolbar.getByRole("button", { name: "Insert image" }).click();
  const upload = page.getByRole("dialog", { name: "Upload an image" });
  const banner = page.getByRole("dialog", { name: "Add New Course" }).getByRole("alert");
  // Named .png, but not an image: the server refuses it, and the upload dialog stays open for another try.
  await upload.locator('input[type="file"]').setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
  await upload.getByRole("button", { name: "Save" }).click();
  await expect(banner).toHaveText(IMAGE_TYPE_MESSAGE);
  await upload.locator('input[type="file"]').setInputFiles(await pngFile("diagram.png"));
  await upload.getByRole("button", { name: "Save" }).click();
  await expect(editor.locator('img[src^="/media/images/"]')).toHaveCount(1);
  await expect(banner).toHaveCount(0);
});
