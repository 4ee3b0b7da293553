import { expect, signIn, staffToken, test, uniqueTag } from "./fixtures";

/**
 * Turning an enquiry into an enrolment, with JavaScript on and off: a visitor comes from a campaign and picks a
 * batch's Enroll Now; staff see where it came from, take it on, note the call, set the follow-up, enrol it
 * (the batch loses its last seat and shows as full), and change several at once.
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`Enquiry pipeline, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("from a campaign visit to an enrolment that fills the batch", async ({ page }) => {
      const tag = uniqueTag("p");
      const token = await staffToken(page.request);
      const course = ((await (await page.request.get("/api/courses")).json()) as { data: { id: string; title: string }[] }).data[0];
      const day = new Date(Date.now() + (400 + Math.floor(Math.random() * 300)) * 86_400_000).toISOString().slice(0, 10);
      const batch = await page.request.post("/api/schedules", {
        headers: { Authorization: `Bearer ${token}` },
        data: { course: course.id, startDate: day, endDate: day, time: "7 PM", days: "Sat", mode: "online", location: `Room ${tag}`, seats: 1, totalSeats: 1 },
      });
      expect(batch.status()).toBe(201);

      // The visitor lands from a campaign link, browses, then uses the batch's Enroll Now.
      await page.goto(`/courses?utm_source=diwali-mailer&utm_medium=email&utm_campaign=${tag}`);
      await page.goto(`/enquiry?course=${encodeURIComponent(course.title)}&date=${day}&mode=online`);
      await expect(page.getByLabel("Preferred Mode")).toHaveValue("online"); // preselected by the batch's link
      const fullName = `Pipeline ${tag}`;
      await page.getByLabel("Full Name").fill(fullName);
      await page.getByLabel("Email").fill(`${tag}@example.com`);
      await page.getByLabel("Phone Number").fill("+91 90000 12345");
      await page.getByRole("button", { name: /Submit|Register/ }).click();
      await expect(page.getByText("Registration Successful!")).toBeVisible();

      await page.context().clearCookies();
      await signIn(page);
      await page.goto(`/admin/enquiries?source=diwali-mailer`);
      const row = page.getByRole("row").filter({ hasText: fullName });
      await expect(row).toContainText("Source: diwali-mailer");
      await expect(row).toContainText("9000012345");
      await row.getByRole("link", { name: `View enquiry from ${fullName}` }).click();
      const details = javaScriptEnabled ? page.getByRole("dialog", { name: "Enquiry Details" }) : page.locator("dialog");
      await expect(details).toContainText(`campaign diwali-mailer / email / ${tag}`);
      // The batch chosen by Enroll Now, named by its readable start day.
      const startText = new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
      await expect(details).toContainText(`starts ${startText}`);
      await expect(details).toContainText("1 of 1 seats left");

      // Every enquiry has an owner from the moment it arrives (round-robin among the staff who take enquiries).
      const owner = details.locator("#follow-up-owner");
      await expect(owner).not.toHaveValue("");
      const arrivalOwner = (await owner.locator("option:checked").textContent())!.trim();
      if (arrivalOwner !== "Administrator") {
        await details.getByRole("button", { name: "Assign to me" }).click();
        await expect(details).toContainText(`Owner: ${arrivalOwner} → Administrator`);
      }
      await expect(details.locator("#follow-up-owner option:checked")).toHaveText("Administrator");
      await expect(details.getByRole("button", { name: "Assign to me" })).toHaveCount(0);
      await details.getByLabel("Add a note").fill("Called; will pay the fee on Monday.");
      await details.getByRole("button", { name: "Add note" }).click();
      await expect(details).toContainText("Called; will pay the fee on Monday.");
      await details.locator("#follow-up-at").fill("2030-01-15T10:30");
      await details.getByRole("button", { name: "Save follow-up" }).click();
      await expect(details).toContainText("Follow-up: none → Jan 15, 2030, 10:30 AM");

      await details.getByRole("button", { name: "Enrolled" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Enquiry marked as Enrolled." }).first()).toBeVisible();
      // The batch's last seat is taken: the public page shows it full, with no Enroll Now.
      const cards = await page.request.get("/schedules");
      const html = await cards.text();
      const card = html.slice(html.lastIndexOf("<article", html.indexOf(`Room ${tag}`)), html.indexOf("</article>", html.indexOf(`Room ${tag}`)));
      expect(card).toContain("This batch is full");
      expect(card).not.toContain("Enroll Now");

      // The owner filter finds it among the signed-in staff member's enquiries.
      await page.goto(`/admin/enquiries?assignee=mine&q=${encodeURIComponent(fullName)}`);
      await expect(page.getByRole("row").filter({ hasText: fullName })).toContainText("Administrator");
    });

    test("several enquiries change status at once, each on its own timeline", async ({ page }) => {
      const tag = uniqueTag("b");
      for (const i of [1, 2]) {
        const r = await page.request.post("/api/enquiries", {
          data: {
            fullName: `Bulk ${tag} ${i}`,
            email: `${tag}${i}@example.com`,
            phone: `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`,
            preferredCourse: "SOC Analyst Training Program",
            preferredMode: "online",
          },
        });
        expect(r.status()).toBe(201);
      }
      await signIn(page);
      await page.goto(`/admin/enquiries?q=${encodeURIComponent(`Bulk ${tag}`)}`);
      for (const i of [1, 2]) await page.getByLabel(`Select the enquiry from Bulk ${tag} ${i}`).check();
      const bulk = page.getByRole("form", { name: "Change the selected enquiries" });
      await bulk.getByLabel("Set status").selectOption("contacted");
      await bulk.getByRole("button", { name: "Apply to selected" }).click();
      await expect(page.getByRole("status").filter({ hasText: "2 enquiries updated." })).toBeVisible();
      for (const i of [1, 2]) await expect(page.getByRole("row").filter({ hasText: `Bulk ${tag} ${i}` })).toContainText("Contacted");
      await page.getByRole("link", { name: `View enquiry from Bulk ${tag} 1` }).click();
      await expect(page.locator("dialog")).toContainText("Status: New → Contacted");
      // The export link carries the list's search.
      await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", new RegExp(`^/admin/enquiries/export\\.csv\\?q=Bulk`));
    });
  });
}
