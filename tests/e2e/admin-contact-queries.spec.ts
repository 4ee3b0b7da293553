import { expect, postContactQuery, signIn, test, uniqueTag } from "./fixtures";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Contact Queries, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("Reply via Email opens the mail program with Re: <subject> and marks the query replied", async ({ page }) => {
      const name = `Visitor ${uniqueTag("c")}`;
      await postContactQuery(page.request, { name, email: "cq.visitor@example.com", subject: "Weekend batch" });
      await signIn(page);
      await page.goto(`/admin/contact-queries?q=${encodeURIComponent(name)}`);
      for (const column of ["Name", "Contact", "Subject", "Status", "Date", "Actions"]) {
        await expect(page.getByRole("columnheader", { name: column })).toBeVisible();
      }
      const row = page.getByRole("row").filter({ hasText: name });
      await expect(row).toContainText("Weekend batch");
      await expect(row).toContainText("New");
      // Date with time, en-US.
      await expect(row).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)/);

      await row.getByRole("link", { name: `View query from ${name}` }).click();
      const details = page.getByRole("dialog", { name: "Contact Query" });
      await expect(details).toContainText("Do you run weekend batches?");
      await expect(details.getByRole("link", { name: /^Call/ })).toHaveAttribute("href", "tel:+919000011111");
      const mailto = "mailto:cq.visitor@example.com?subject=Re%3A%20Weekend%20batch";

      if (javaScriptEnabled) {
        const reply = details.getByRole("link", { name: "Reply via Email" });
        await expect(reply).toHaveAttribute("href", mailto);
        const opened = page.waitForRequest((r) => r.url().startsWith("mailto:"));
        await reply.click();
        expect((await opened).url()).toBe(mailto);
        // The status was set in the background; the list reloads with it.
        await expect(page).toHaveURL(/\/admin\/contact-queries\?q=/);
        await expect(row.getByText("Replied", { exact: true })).toBeVisible();
      } else {
        // Without JavaScript a link cannot write: a POST marks it replied and comes back to the details,
        // which now show Replied and offer the mail program with the prepared subject.
        await details.getByRole("button", { name: "Reply via Email" }).click();
        await expect(page).toHaveURL(/\/admin\/contact-queries\/[^/?]+\?q=[^&]+&reply=ready$/);
        await expect(page.getByRole("status").filter({ hasText: "Contact query marked as Replied." })).toBeVisible();
        await expect(details.getByRole("definition").filter({ hasText: /^Replied$/ })).toBeVisible();
        await expect(details.getByRole("button", { name: "Replied", exact: true })).toHaveAttribute("aria-pressed", "true");
        const open = details.getByRole("link", { name: "Open your e-mail app" });
        await expect(open).toHaveAttribute("href", mailto);
        await expect(details).toContainText("Re: Weekend batch");
        const opened = page.waitForRequest((r) => r.url().startsWith("mailto:"));
        await open.click();
        expect((await opened).url()).toBe(mailto);
        // Closing the details goes back to the same list view, where the row shows the new status.
        await details.getByRole("link", { name: "Close" }).click();
        await expect(page).toHaveURL(/\/admin\/contact-queries\?q=[^&]+$/);
        await expect(row.getByText("Replied", { exact: true })).toBeVisible();
      }
    });

    test("sets statuses freely, shows No subject and no Call link when absent, and deletes after confirming", async ({ page }) => {
      const name = `Visitor ${uniqueTag("c")}`;
      // No phone: left out (JSON takes "" for the free-text subject, not for a phone, as the API document says).
      await postContactQuery(page.request, { name, subject: "", phone: undefined });
      await signIn(page);
      await page.goto(`/admin/contact-queries?status=new&q=${encodeURIComponent(name)}`);
      const row = page.getByRole("row").filter({ hasText: name });
      await expect(row).toContainText("No subject");

      await row.getByRole("link", { name: /^View/ }).click();
      const details = page.getByRole("dialog", { name: "Contact Query" });
      await expect(details.getByRole("link", { name: /^Call/ })).toHaveCount(0);
      if (javaScriptEnabled) {
        await expect(details.getByRole("link", { name: "Reply via Email" })).toHaveAttribute("href", /subject=Your%20contact%20query$/);
      }
      await details.getByRole("button", { name: "Closed" }).click();
      await expect(page).toHaveURL(/status=new/);
      await expect(page.getByText("No contact queries found for the selected filter.")).toBeVisible();
      await page.getByRole("link", { name: "Closed", exact: true }).click();
      await expect(row.getByText("Closed", { exact: true })).toBeVisible();
      await row.getByRole("link", { name: /^View/ }).click();
      await page.getByRole("dialog", { name: "Contact Query" }).getByRole("button", { name: "New" }).click();
      await expect(page).toHaveURL(/status=closed/);
      await expect(row).toHaveCount(0);

      await page.getByRole("link", { name: "All Queries" }).click();
      if (javaScriptEnabled) {
        page.once("dialog", (d) => void d.accept());
        await row.getByRole("link", { name: /^Delete/ }).click();
      } else {
        await row.getByRole("link", { name: /^Delete/ }).click();
        await page.getByRole("dialog", { name: "Delete Contact Query" }).getByRole("button", { name: "Delete" }).click();
      }
      await expect(page.getByText("No contact queries found for the selected filter.")).toBeVisible();
    });
  });
}
