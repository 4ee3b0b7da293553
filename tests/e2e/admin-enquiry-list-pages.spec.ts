import type { Page } from "@playwright/test";
import { expect, postEnquiry, signIn, staffToken, test, uniqueTag } from "./fixtures";

/**
 * Issue 30: the enquiry list reads each page from the nearer end of its order (a last page costs what a first one
 * does) and shows "Next follow-up first" as two parts, the dated follow-ups (earliest first) and then the rest
 * (oldest first), each read in its own index's order. In Chromium with JavaScript on and off, staff page through
 * both orders with Next and Previous, and every page shows the stored enquiries in the right order, none twice.
 */

/** The names in the list's rows, top to bottom. */
async function namesShown(page: Page, tag: string): Promise<string[]> {
  const rows = page.getByRole("row").filter({ hasText: tag });
  await expect(rows.first()).toBeVisible();
  return (await rows.allInnerTexts()).map((text) => text.match(new RegExp(`${tag} \\d+`))![0]);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Enquiry list pages, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("newest first and next follow-up first, page by page, as stored", async ({ page }) => {
      test.setTimeout(90_000);
      const tag = uniqueTag("Pager");
      const names: string[] = [];
      const ids: string[] = [];
      for (let i = 1; i <= 23; i++) {
        const fullName = `${tag} ${String(i).padStart(2, "0")}`;
        const phone = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
        ids.push((await postEnquiry(page.request, { fullName, email: `${tag.toLowerCase()}.${i}@example.com`, phone })).id);
        names.push(fullName);
      }
      // Follow-ups on three of them, the latest-made one the earliest due.
      const auth = { Authorization: `Bearer ${await staffToken(page.request)}` };
      for (const [i, at] of [
        [21, "2031-03-01T10:00:00+05:30"],
        [4, "2031-03-02T10:00:00+05:30"],
        [12, "2031-03-03T10:00:00+05:30"],
      ] as const) {
        const { data } = (await (await page.request.get(`/api/enquiries/${ids[i - 1]}`, { headers: auth })).json()) as { data: Record<string, unknown> };
        const saved = await page.request.put(`/api/enquiries/${ids[i - 1]}`, {
          headers: auth,
          data: {
            fullName: data.fullName,
            email: data.email,
            phone: data.phone,
            preferredCourse: data.preferredCourse,
            preferredMode: data.preferredMode,
            message: data.message,
            followUpAt: at,
            version: data.version,
          },
        });
        expect(saved.status(), await saved.text()).toBe(200);
      }

      await signIn(page);
      await page.goto("/admin/enquiries");
      await page.getByLabel("Search enquiries").fill(tag);
      await page.getByRole("button", { name: "Search" }).click();
      const pager = page.getByRole("navigation", { name: "Pagination" });

      // Newest first: 23 … 4, then 3 … 1 (the last page, read from the end).
      const newest = [...names].reverse();
      await expect(pager).toContainText("Page 1 of 2 · 23 enquiries");
      expect(await namesShown(page, tag)).toEqual(newest.slice(0, 20));
      await pager.getByRole("link", { name: "Next" }).click();
      await expect(pager).toContainText("Page 2 of 2 · 23 enquiries");
      expect(await namesShown(page, tag)).toEqual(newest.slice(20));
      await pager.getByRole("link", { name: "Previous" }).click();
      await expect(pager).toContainText("Page 1 of 2");
      expect(await namesShown(page, tag)).toEqual(newest.slice(0, 20));

      // Next follow-up first: the three dated ones by their date, then the other twenty, oldest first.
      await page.getByRole("navigation", { name: "Order of the list" }).getByRole("link", { name: "Next follow-up first" }).click();
      await expect(page).toHaveURL(/sort=follow-up/);
      const byFollowUp = [names[20], names[3], names[11], ...names.filter((_, i) => ![20, 3, 11].includes(i))];
      await expect(pager).toContainText("Page 1 of 2 · 23 enquiries");
      expect(await namesShown(page, tag)).toEqual(byFollowUp.slice(0, 20));
      await pager.getByRole("link", { name: "Next" }).click();
      await expect(pager).toContainText("Page 2 of 2");
      expect(await namesShown(page, tag)).toEqual(byFollowUp.slice(20));
    });
  });
}
