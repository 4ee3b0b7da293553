import { expect, fieldMessage, signIn, test, uniqueTag } from "./fixtures";
import { type Page } from "@playwright/test";

async function addPendingReview(page: Page, name: string) {
  await page.goto("/admin/reviews");
  await page.getByRole("link", { name: "Add Review" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Review" });
  await expect(dialog.getByLabel("Rating")).toHaveValue("5");
  await expect(dialog.getByLabel("Review Type")).toHaveValue("text");
  // A new review starts unapproved (DESIGN.md §4.3).
  await expect(dialog.getByLabel("Approved for display")).not.toBeChecked();
  // The thumbnail field shows only for video reviews (CSS, so also without JavaScript).
  await expect(dialog.getByLabel("Video Thumbnail URL")).toBeHidden();
  await dialog.getByLabel("Review Type").selectOption("video");
  await expect(dialog.getByLabel("Video Thumbnail URL")).toBeVisible();
  await dialog.getByLabel("Review Type").selectOption("text");

  await dialog.getByLabel("Student Name").fill(name);
  await dialog.getByRole("button", { name: "Save Review" }).click();
  await expect(fieldMessage(dialog, "Position is required")).toBeVisible();
  await expect(fieldMessage(dialog, "Profile image URL is required")).toBeVisible();
  await expect(fieldMessage(dialog, "Review text is required")).toBeVisible();
  await expect(dialog.getByLabel("Student Name")).toHaveValue(name);

  await dialog.getByLabel("Position/Title").fill("SOC Analyst L1 at Acme");
  await dialog.getByLabel("Profile Image URL").fill("/images/avatars/priya-reddy.svg");
  await dialog.getByLabel("Rating").selectOption("4");
  await dialog.getByLabel("Course").selectOption("SOC Analyst Training Program");
  await dialog.getByLabel("Review Text").fill("The SIEM labs prepared me for the job.");
  await dialog.getByRole("button", { name: "Save Review" }).click();
  await expect(page).toHaveURL(/\/admin\/reviews$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Manage Reviews, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("adds a review as pending, approves it from the Pending tab, then deletes it", async ({ page }) => {
      const name = `Student ${uniqueTag("r")}`;
      await signIn(page);
      await addPendingReview(page, name);

      const row = page.getByRole("row").filter({ hasText: name });
      await expect(row).toContainText("Pending");
      await expect(row).toContainText("Text");
      await expect(row.getByRole("img", { name: "Rated 4 out of 5" })).toBeVisible();

      await page.getByRole("link", { name: "Pending", exact: true }).click();
      await expect(page).toHaveURL(/\?status=pending$/);
      await expect(page.getByRole("link", { name: "Pending", exact: true })).toHaveAttribute("aria-current", "page");
      await row.getByRole("button", { name: `Approve review by ${name}` }).click();
      // The list reloads on the same tab; the review has left it.
      await expect(page).toHaveURL(/\/admin\/reviews\?status=pending$/);
      await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);

      await page.getByRole("link", { name: "Approved", exact: true }).click();
      await expect(row).toContainText("Approved");
      // Approve is offered only for pending reviews.
      await expect(row.getByRole("button", { name: /^Approve/ })).toHaveCount(0);

      // Back to pending only by editing the checkbox (spec §4).
      await row.getByRole("link", { name: /^Edit/ }).click();
      const edit = page.getByRole("dialog", { name: "Edit Review" });
      await expect(edit.getByLabel("Approved for display")).toBeChecked();
      await edit.getByLabel("Approved for display").uncheck();
      await edit.getByRole("button", { name: "Save Review" }).click();
      await expect(page).toHaveURL(/\/admin\/reviews\?status=approved$/);
      await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);

      await page.getByRole("link", { name: "All Reviews" }).click();
      if (javaScriptEnabled) {
        page.once("dialog", (d) => void d.accept());
        await row.getByRole("link", { name: /^Delete/ }).click();
      } else {
        await row.getByRole("link", { name: /^Delete/ }).click();
        await page.getByRole("dialog", { name: "Delete Review" }).getByRole("button", { name: "Delete" }).click();
      }
      await expect(page).toHaveURL(/\/admin\/reviews$/);
      await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
    });
  });
}
