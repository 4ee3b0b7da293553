import { expect, postEnquiry, signIn, test, uniqueTag } from "./fixtures";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Manage Enquiries, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("finds an enquiry, moves it through every status, then deletes it after confirming", async ({ page }) => {
      const fullName = `Enquirer ${uniqueTag("e")}`;
      await postEnquiry(page.request, { fullName, email: "enq.student@example.com", phone: "98765 43210", preferredMode: "hybrid" });
      await signIn(page);
      await page.goto("/admin/enquiries");
      for (const column of ["Student", "Contact", "Course & Mode", "Status", "Date", "Actions"]) {
        await expect(page.getByRole("columnheader", { name: column })).toBeVisible();
      }

      await page.getByLabel("Search enquiries").fill(fullName);
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(new RegExp(`\\?q=${fullName.replace(" ", "\\+")}$`));
      const row = page.getByRole("row").filter({ hasText: fullName });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText("enq.student@example.com");
      await expect(row).toContainText("WhatsApp enabled");
      await expect(row).toContainText("SOC Analyst Training Program");
      await expect(row).toContainText("Hybrid");
      await expect(row).toContainText("New");
      await expect(row).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);

      for (const [button, badge] of [
        ["Contacted", "Contacted"],
        ["Enrolled", "Enrolled"],
        ["Closed", "Closed"],
        ["New", "New"],
      ] as const) {
        await row.getByRole("link", { name: `View enquiry from ${fullName}` }).click();
        const details = page.getByRole("dialog", { name: "Enquiry Details" });
        await expect(details).toContainText("Weekend batch?");
        await expect(details).toContainText("WhatsApp notifications");
        await expect(details.getByRole("link", { name: "Email Student" })).toHaveAttribute("href", /^mailto:enq\.student@example\.com/);
        // The phone's 10 digits with India's country code.
        await expect(details.getByRole("link", { name: /WhatsApp/ })).toHaveAttribute("href", "https://wa.me/919876543210");
        if (button === "Enrolled") {
          // Enrolled needs the batch the student joins while the course has upcoming batches: one of its own course's
          // (listed first, under the course's title) with seats left.
          const batch = details.locator("#follow-up-batch");
          const open = await batch.locator("optgroup").first().locator("option").filter({ hasNotText: "· full" }).first().getAttribute("value");
          await batch.selectOption(open!);
          await details.getByRole("button", { name: "Save batch" }).click();
          await expect(page.getByText("Batch saved.")).toBeVisible();
          await expect(details.locator("#follow-up-batch")).toHaveValue(open!);
        }
        await details.getByRole("button", { name: button }).click();
        // After an update the details close and the list (same search) reloads.
        await expect(page).toHaveURL(new RegExp(`/admin/enquiries\\?q=`));
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await expect(row.getByText(badge, { exact: true })).toBeVisible();
      }

      await page.getByRole("link", { name: "Contacted", exact: true }).click();
      await expect(page).toHaveURL(/status=contacted/);
      await expect(page.getByRole("row").filter({ hasText: fullName })).toHaveCount(0);
      await page.getByRole("link", { name: "New", exact: true }).click();
      await expect(row).toHaveCount(1);

      if (javaScriptEnabled) {
        page.once("dialog", (d) => {
          expect(d.message()).toBe("Are you sure you want to delete this enquiry?");
          void d.accept();
        });
        await row.getByRole("link", { name: /^Delete/ }).click();
      } else {
        await row.getByRole("link", { name: /^Delete/ }).click();
        await expect(page).toHaveURL(/\/delete\?/);
        await page.getByRole("dialog", { name: "Delete Enquiry" }).getByRole("button", { name: "Delete" }).click();
      }
      await expect(page.getByText("No enquiries found for the selected filter.")).toBeVisible();
    });

    test("shows no WhatsApp link when the student turned notifications off", async ({ page }) => {
      const fullName = `Quiet ${uniqueTag("e")}`;
      const { id } = await postEnquiry(page.request, { fullName, whatsappNotifications: false });
      await signIn(page);
      await page.goto(`/admin/enquiries/${id}`);
      const details = page.getByRole("dialog", { name: "Enquiry Details" });
      await expect(details).toContainText(fullName);
      await expect(details.getByRole("link", { name: "Email Student" })).toBeVisible();
      await expect(details.getByRole("link", { name: /WhatsApp/ })).toHaveCount(0);
      await page.goto(`/admin/enquiries?q=${encodeURIComponent(fullName)}`);
      await expect(page.getByRole("row").filter({ hasText: fullName })).not.toContainText("WhatsApp enabled");
    });
  });
}
