import { parse } from "csv-parse/sync";
import { PDFDocument, PDFName, PDFString } from "@cantoo/pdf-lib";
import { expect, fieldMessage, signIn, test, uniqueTag } from "./fixtures";

/**
 * Security round 4 in a real browser, JavaScript off (plain form posts) and on: an enquiry whose PDF would run a
 * script on opening is refused with the message asking for a plain PDF and keeps what was typed; the same enquiry
 * with a plain PDF is taken; a name typed with direction controls reaches the staff list, the enquiry's screen and
 * the CSV export in the order it was typed, each typed value isolated in <bdi>.
 */
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
const ACTIVE_PDF =
  "This PDF contains scripts, attached files or links that open by themselves. Please attach a plain PDF instead (print or save it as PDF again).";

async function pdf(active: boolean): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  if (active) doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "JavaScript", JS: PDFString.of("app.alert(1)") }));
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an active PDF is refused with its message, a plain one is taken, and the name reads as typed for staff", async ({ page }) => {
      const tag = uniqueTag("Bidi");
      // "Ravi <tag> Kumar" with an override that would show "fdp.exe" as "exe.pdf", and an isolate around the tag.
      const typed = `Ravi \u2066${tag}\u2069 \u202Efdp.exe\u202C Kumar`;
      const stored = `Ravi ${tag} fdp.exe Kumar`;
      await page.goto("/enquiry");
      const form = page.locator("#enquiry-page-form");
      await form.getByLabel("Full Name").fill(typed);
      await form.getByLabel("Email").fill(`${tag.toLowerCase()}@example.com`);
      await form.getByLabel("Phone Number").fill("98765 43210");
      await form.getByLabel("Preferred Course").selectOption("Cloud Security Practitioner");
      await form.getByLabel("Preferred Mode").selectOption("online");
      await form.getByLabel("Attachments (optional)").setInputFiles({ name: "cv.pdf", mimeType: "application/pdf", buffer: await pdf(true) });
      await form.getByRole("button", { name: "Submit Registration" }).click();
      await expect(fieldMessage(page, ACTIVE_PDF)).toBeVisible();
      // Nothing was stored, and what was typed is still there to send again.
      await expect(page.locator("#enquiry-page-form").getByLabel("Email")).toHaveValue(`${tag.toLowerCase()}@example.com`);

      const again = page.locator("#enquiry-page-form");
      await again.getByLabel("Full Name").fill(typed);
      await again.getByLabel("Attachments (optional)").setInputFiles({ name: "cv.pdf", mimeType: "application/pdf", buffer: await pdf(false) });
      await again.getByRole("button", { name: "Submit Registration" }).click();
      await expect(page.getByRole("heading", { name: "Registration Successful!" })).toBeVisible();

      await signIn(page);
      await page.goto(`/admin/enquiries?q=${tag}`);
      const row = page.getByRole("row").filter({ hasText: tag });
      await expect(row).toHaveCount(1);
      await expect(row.locator("bdi").first()).toHaveText(stored);
      expect(await row.innerHTML()).not.toMatch(BIDI);

      await row.getByRole("link", { name: /View/ }).first().click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.locator("bdi", { hasText: stored }).first()).toBeVisible();
      await expect(dialog.getByRole("link", { name: "cv.pdf" })).toBeVisible();

      const csv = await page.request.get(`/admin/enquiries/export.csv?q=${tag}`);
      expect(csv.ok()).toBe(true);
      const rows = parse(await csv.text(), { bom: true, columns: true }) as Record<string, string>[];
      const names = rows.map((r) => Object.values(r).find((v) => v.includes(tag)));
      expect(names).toEqual([stored]);
      expect(JSON.stringify(rows)).not.toMatch(BIDI);
    });
  });
}
