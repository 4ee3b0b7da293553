import { expect, fieldMessage, signIn, test, uniqueTag } from "./fixtures";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Manage Schedules, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("adds a batch (messages first, typed values kept), lists it, then deletes it after confirming", async ({ page }) => {
      const days = `Sat, Sun ${uniqueTag("b")}`;
      await signIn(page);
      await page.goto("/admin/schedules");
      await expect(page.getByRole("heading", { name: "Manage Schedules" })).toBeVisible();
      for (const column of ["Course", "Dates", "Schedule", "Mode", "Availability", "Actions"]) {
        await expect(page.getByRole("columnheader", { name: column })).toBeVisible();
      }
      await page.getByRole("link", { name: "Add Schedule" }).click();
      await expect(page).toHaveURL(/\/admin\/schedules\/new$/);
      const dialog = page.getByRole("dialog", { name: "Add New Schedule" });
      await expect(dialog.getByLabel("Time")).toHaveAttribute("placeholder", "6:30 PM - 9:30 PM");
      await expect(dialog.getByLabel("Days")).toHaveAttribute("placeholder", "Mon, Wed, Fri");
      // Available Seats is shown, not typed: a new batch has every seat of its total.
      await expect(dialog.getByTestId("seats-left")).toHaveText("All of the Total Seats");
      await expect(dialog.getByRole("spinbutton", { name: "Available Seats" })).toHaveCount(0);
      await expect(dialog.getByLabel("Total Seats")).toHaveValue("30");
      await expect(dialog.getByLabel("Mode")).toHaveValue("online");
      await expect(dialog.getByLabel("Mode").locator("option")).toHaveText(["Online", "Offline", "Hybrid"]);

      // First a save with missing fields: the spec's messages, and what was typed stays.
      await dialog.getByLabel("Days").fill(days);
      await dialog.getByRole("button", { name: "Save Schedule" }).click();
      await expect(fieldMessage(dialog, "Course is required")).toBeVisible();
      await expect(fieldMessage(dialog, "Time is required")).toBeVisible();
      await expect(fieldMessage(dialog, "Location is required")).toBeVisible();
      await expect(dialog.getByLabel("Days")).toHaveValue(days);

      await dialog.getByLabel("Course").selectOption({ label: "Network Security Specialist" });
      await dialog.getByLabel("Start Date").fill("2031-03-02");
      await dialog.getByLabel("End Date").fill("2031-06-30");
      await dialog.getByLabel("Time").fill("6:30 PM - 9:30 PM");
      await dialog.getByLabel("Mode").selectOption("hybrid");
      await dialog.getByLabel("Location").fill("HITEC City campus, Hyderabad");
      await dialog.getByLabel("Total Seats").fill("25");
      await dialog.getByRole("button", { name: "Save Schedule" }).click();

      // The modal closes and the list reloads with the new batch.
      await expect(page).toHaveURL(/\/admin\/schedules$/);
      await expect(page.getByRole("dialog")).toHaveCount(0);
      const row = page.getByRole("row").filter({ hasText: days });
      await expect(row).toContainText("Network Security Specialist");
      await expect(row).toContainText("Mar 2, 2031 - Jun 30, 2031");
      await expect(row).toContainText("6:30 PM - 9:30 PM");
      await expect(row).toContainText("Hybrid");
      await expect(row).toContainText("0 of 25 taken");
      await expect(row).toContainText("25 left");

      // Edit: the form is filled from the batch.
      await row.getByRole("link", { name: /^Edit/ }).click();
      const edit = page.getByRole("dialog", { name: "Edit Schedule" });
      await expect(edit.getByLabel("Days")).toHaveValue(days);
      await expect(edit.getByLabel("Course")).toHaveValue(/.+/);
      await expect(edit.getByTestId("seats-left")).toHaveText("25 left (0 taken)");
      await expect(edit.getByRole("heading", { name: "Seats taken: 0 of 25" })).toBeVisible();
      await expect(edit.getByText("No student is enrolled in this batch yet.")).toBeVisible();
      await edit.getByLabel("Total Seats").fill("27");
      await edit.getByRole("button", { name: "Save Schedule" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(row).toContainText("0 of 27 taken");

      // Delete asks first.
      if (javaScriptEnabled) {
        page.once("dialog", (d) => {
          expect(d.message()).toBe("Are you sure you want to delete this schedule?");
          void d.dismiss();
        });
        await row.getByRole("link", { name: /^Delete/ }).click();
        await expect(row).toHaveCount(1);
        page.once("dialog", (d) => void d.accept());
        await row.getByRole("link", { name: /^Delete/ }).click();
      } else {
        await row.getByRole("link", { name: /^Delete/ }).click();
        await expect(page).toHaveURL(/\/admin\/schedules\/[^/]+\/delete$/);
        const confirm = page.getByRole("dialog", { name: "Delete Schedule" });
        await expect(confirm).toContainText("Network Security Specialist");
        await confirm.getByRole("button", { name: "Delete" }).click();
        await expect(page).toHaveURL(/\/admin\/schedules$/);
      }
      await expect(page.getByRole("row").filter({ hasText: days })).toHaveCount(0);
    });

    test("Cancel closes the add dialog without saving", async ({ page }) => {
      await signIn(page);
      await page.goto("/admin/schedules/new");
      // Hydration moves the dialog from the page flow to the centre; click once it has settled.
      if (javaScriptEnabled) await expect(page.locator("dialog:modal")).toHaveCount(1);
      await page.getByRole("dialog").getByRole("link", { name: "Cancel" }).click();
      await expect(page).toHaveURL(/\/admin\/schedules$/);
      await expect(page.getByRole("dialog")).toHaveCount(0);
    });
  });
}

test("the schedules screen sends visitors without a session to the sign-in page", async ({ page }) => {
  await page.goto("/admin/schedules/new");
  await expect(page).toHaveURL(/\/admin\/login$/);
});
