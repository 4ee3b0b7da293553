import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../helpers/smtp-sink";
import { expect, expectNoAxeViolations, fieldMessage, test, uniqueTag } from "./fixtures";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * Privacy (DPDP Act) as a visitor and staff meet it, with JavaScript off and on, on a server of its own with a real
 * SMTP server: the notice linked from every public form and listing every field the form sends; marketing and
 * "I am under 18" unticked; a consent row with the notice version for each submission; the /me link read at the
 * SMTP server, the person's page, the JSON download, marketing withdrawn, erasure; a minor's message held until the
 * guardian's link is followed; the grievance contact edited by an admin and shown on /privacy.
 */
const OFFSET = 16;
let server: TestServer;
let smtp: SmtpSink;
let token = "";

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startServer(OFFSET, { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>", NOTIFY_EMAIL: "desk@cybersoc.test" });
  token = (
    await (await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) })).json()
  ).token;
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const linkIn = (mail: ReceivedMail, path: string) => new RegExp(`https?://[^\\s/]+/${path}\\?token=[\\w%-]+`).exec(mail.parsed.text ?? "")?.[0];

async function mailTo(address: string, subject: RegExp): Promise<ReceivedMail> {
  const [mail] = await smtp.waitFor((m) => m.envelope.to.includes(address) && subject.test(m.parsed.subject ?? ""), 1, 30_000);
  return mail;
}

/** The names of the controls a form sends (what the notice must list), read from the page. */
async function fieldNames(form: Locator): Promise<string[]> {
  return form.evaluate((f) => [...new Set([...(f as HTMLFormElement).elements].map((e) => (e as HTMLInputElement).name).filter(Boolean))]);
}

async function enhancedIfScripted(page: Page, form: Locator, js: boolean) {
  if (!js) return;
  await form.locator("input[name=email]").focus();
  await expect(form).toHaveAttribute("data-enhanced", "");
  void page;
}

for (const js of [false, true]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("every public form links to the notice, which lists every field it sends; marketing and under 18 start unticked", async ({ page }) => {
      const forms: [string, string][] = [
        ["/", "#enquiry-home-form"],
        ["/enquiry", "#enquiry-page-form"],
        ["/enquiry", "#where-is-my-enquiry-form"],
        ["/contact", "#contact-form"],
      ];
      for (const [path, selector] of forms) {
        await page.goto(`${server.url}${path}`);
        const form = page.locator(selector);
        const names = await fieldNames(form);
        expect(names.length, `${path} ${selector}`).toBeGreaterThan(0);
        if (selector !== "#where-is-my-enquiry-form") {
          await expect(form.getByLabel(/^Also send me newsletters/)).not.toBeChecked();
          await expect(form.getByLabel("I am under 18")).not.toBeChecked();
          // The guardian's fields show only once "I am under 18" is ticked (CSS: the same without JavaScript).
          await expect(form.getByLabel("Parent or guardian", { exact: true })).toBeHidden();
          await form.getByLabel("I am under 18").check();
          await expect(form.getByLabel("Parent or guardian", { exact: true })).toBeVisible();
          await form.getByLabel("I am under 18").uncheck();
        }
        const section = selector === "#where-is-my-enquiry-form" ? page.locator("#where-is-my-enquiry") : form;
        await section.getByRole("link", { name: /privacy notice/i }).click();
        await expect(page).toHaveURL(/\/privacy$/);
        await expect(page.getByRole("heading", { level: 1, name: "Privacy notice" })).toBeVisible();
        await expect(page.getByTestId("notice-version")).toContainText(/Version \d{4}-\d{2}-\d{2}/);
        const notice = await page.locator("main").innerText();
        // Each field sent is covered by an item (its data-fields); the reader sees words, not field names (issue 37.10).
        const covered = (await page.locator("main [data-fields]").evaluateAll((els) => els.map((e) => e.getAttribute("data-fields")!))).join(" ").split(" ");
        for (const name of names) {
          expect(covered, `${path} ${selector} sends "${name}"`).toContain(name);
          if (/[a-z][A-Z]/.test(name)) expect(notice, `no field name "${name}" in the text`).not.toContain(name);
        }
        for (const item of ["IP address", "Where you came from", "Attachments", "Data Protection Board", "withdraw", "erase"]) expect(notice).toContain(item);
      }
    });

    test("an enquiry records the notice version; /me opens from the e-mailed link: status, JSON download, marketing withdrawn, erasure", async ({ page }) => {
      const tag = uniqueTag(js ? "js" : "nojs");
      const email = `${tag}@example.com`;
      const name = `Priya ${tag}`;
      // Someone else, whose enquiry must not appear on this person's page.
      const other = await fetch(`${server.url}/api/enquiries`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          fullName: "Not Me",
          email: `${tag}.other@example.org`,
          phone: "9000000001",
          preferredCourse: "Cloud Security Practitioner",
          preferredMode: "online",
        }),
      });
      expect(other.status).toBe(201);

      await page.goto(`${server.url}/enquiry`);
      const form = page.locator("#enquiry-page-form");
      await enhancedIfScripted(page, form, js);
      await form.getByLabel("Full Name").fill(name);
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Phone Number").fill("98450 12345");
      await form.getByLabel("Preferred Course").selectOption("SOC Analyst Training Program");
      await form.getByLabel("Preferred Mode").selectOption("online");
      await form.getByLabel(/^Also send me newsletters/).check();
      await form.getByRole("button", { name: "Submit Registration" }).click();
      await expect(page.getByRole("heading", { name: "Registration Successful!" })).toBeVisible();

      const stored = (await api("GET", `/api/enquiries?q=${encodeURIComponent(email)}`)).body.data;
      expect(stored).toHaveLength(1);
      expect(stored[0].marketingConsent).toBe(true);
      expect(stored[0].consents.map((c: { purpose: string; channel: string }) => `${c.purpose}:${c.channel}`)).toEqual([
        "notice:enquiry-page",
        "marketing:enquiry-page",
      ]);
      expect(stored[0].consents[0].noticeVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      const ack = await mailTo(email, /received your enquiry/);
      const link = linkIn(ack, "me");
      expect(link).toBeTruthy();
      const referers: string[] = [];
      page.on("request", (r) => referers.push(r.headers()["referer"] ?? ""));
      const response = await page.goto(link!);
      // The token is exchanged for a cookie scoped to /me: the address bar (and so every Referer) holds a clean /me.
      expect(new URL(page.url()).pathname).toBe("/me");
      expect(new URL(page.url()).search).toBe("");
      expect(referers.filter((r) => r.includes("token="))).toEqual([]);
      expect(response?.headers()["cache-control"]).toBe("no-store");
      expect(response?.headers()["x-robots-tag"]).toContain("noindex");
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
      await expect(page.getByRole("heading", { name: `Hello, ${name}` })).toBeVisible();
      await expect(page.getByRole("heading", { name: "SOC Analyst Training Program" })).toBeVisible();
      await expect(page.getByTestId("me-enquiry-status")).toHaveText("Received: a counsellor will call you");
      await expect(page.getByText("Not Me")).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Cloud Security Practitioner" })).toHaveCount(0);

      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download my data" }).click();
      const file = await (await download).path();
      const data = JSON.parse(fs.readFileSync(file, "utf8"));
      expect(data.email).toBe(email);
      expect(data.enquiries.map((e: { fullName: string }) => e.fullName)).toEqual([name]);
      expect(data.enquiries[0].consents).toHaveLength(2);
      expect(data.enquiries[0].timeline.length).toBeGreaterThan(0);
      expect(data.emails.some((m: { recipient: string }) => m.recipient === email)).toBe(true);

      await expect(page.getByTestId("me-marketing-state")).toContainText("You agreed");
      await page.getByRole("button", { name: "Withdraw my marketing consent" }).click();
      await expect(page.getByText("Done: we will send you no more newsletters")).toBeVisible();
      await expect(page.getByTestId("me-marketing-state")).toContainText("You get no newsletters");
      const after = (await api("GET", `/api/enquiries/${stored[0].id}`)).body.data;
      expect(after.marketingConsent).toBe(false);
      expect(after.consents.at(-1)).toMatchObject({ purpose: "marketing", action: "withdrawn", channel: "me" });

      // A correction that cannot be saved: the summary at the form, in view, and the title says so.
      await page.getByLabel("Phone number").fill("98765");
      await page.getByRole("button", { name: "Save my details" }).click();
      const correctSummary = page.locator("#me-correct-section").getByRole("alert").filter({ hasText: "There is a problem" });
      await expect(correctSummary).toBeInViewport();
      await expect(page).toHaveTitle(/^Error: /);
      await expect(correctSummary.getByRole("link")).toHaveAttribute("href", "#me-phone");
      expect((await api("GET", `/api/enquiries/${stored[0].id}`)).body.data.phone).toBe(stored[0].phone);

      await page.getByRole("button", { name: "Erase my data" }).click();
      await expect(page.locator("#me-erase-section").getByText("There is a problem")).toBeInViewport();
      await expect(page.getByText("Tick the box to confirm").first()).toBeVisible();
      await page.getByLabel("I understand: erase all my data").check();
      await page.getByRole("button", { name: "Erase my data" }).click();
      await expect(page.getByRole("heading", { name: "Your data is erased" })).toBeVisible();
      expect((await api("GET", `/api/enquiries?q=${encodeURIComponent(email)}`)).body.total).toBe(0);
      expect((await api("GET", `/api/enquiries/${stored[0].id}`)).status).toBe(404);
      await page.goto(link!);
      await expect(page.getByText("This link is not valid")).toBeVisible();
    });

    test('"Where is my enquiry?" answers the same for any address and mails a link only to one on file', async ({ page }) => {
      const tag = uniqueTag(js ? "wjs" : "wnojs");
      const email = `${tag}@example.com`;
      const made = await fetch(`${server.url}/api/contact-queries`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: `Kiran ${tag}`, email, message: "Hello" }),
      });
      expect(made.status).toBe(201);
      // A mistake first: the summary at the form (where the page comes back without JavaScript), the title says so.
      await page.goto(`${server.url}/enquiry`);
      await page.locator("#where-is-my-enquiry").getByLabel("Your e-mail address").fill("not-an-address");
      await page.locator("#where-is-my-enquiry").getByRole("button", { name: "Send me the link" }).click();
      const summary = page.locator("#where-is-my-enquiry").getByRole("alert").filter({ hasText: "There is a problem" });
      await expect(summary).toBeInViewport();
      await expect(page).toHaveTitle(/^Error: /);
      await expect(summary.getByRole("link")).toHaveAttribute("href", "#where-is-my-enquiry-email");
      for (const address of [`unknown.${tag}@example.com`, email]) {
        await page.goto(`${server.url}/enquiry`);
        const lookup = page.locator("#where-is-my-enquiry");
        await lookup.getByLabel("Your e-mail address").fill(address);
        await lookup.getByRole("button", { name: "Send me the link" }).click();
        await expect(page.getByText("If we have an enquiry or message from that address, we have just e-mailed it a link")).toBeVisible();
      }
      const mail = await mailTo(email, /your link/);
      await page.goto(linkIn(mail, "me")!);
      await expect(page.getByRole("heading", { name: `Hello, Kiran ${tag}` })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Your messages" })).toBeVisible();
      expect(smtp.received.some((m) => m.envelope.to.includes(`unknown.${tag}@example.com`))).toBe(false);
    });

    test("a minor's message is held from staff until the guardian's link is followed", async ({ page }) => {
      const tag = uniqueTag(js ? "mjs" : "mnojs");
      const email = `${tag}@example.com`;
      const guardian = `parent.${tag}@example.com`;
      await page.goto(`${server.url}/contact`);
      const form = page.locator("#contact-form");
      await enhancedIfScripted(page, form, js);
      await form.getByLabel("Name").first().fill(`Aarav ${tag}`);
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Message").fill("Do you teach students in school?");
      await form.getByLabel("I am under 18").check();
      await form.getByRole("button", { name: "Send Message" }).click();
      await expect(fieldMessage(page, "Parent or guardian's name is required")).toBeVisible();
      await page.locator("#contact-form").getByLabel("Parent or guardian", { exact: true }).fill(`Meena ${tag}`);
      await page.locator("#contact-form").getByLabel("Parent or guardian's e-mail").fill(guardian);
      await page.locator("#contact-form").getByRole("button", { name: "Send Message" }).click();
      await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();

      const mail = await mailTo(guardian, /Please confirm/);
      expect((await api("GET", `/api/contact-queries?q=${encodeURIComponent(email)}`)).body.total).toBe(0);
      expect(
        smtp.received.some((m) => m.envelope.to.includes(email) || (m.envelope.to.includes("desk@cybersoc.test") && (m.parsed.text ?? "").includes(email))),
      ).toBe(false);

      await page.goto(linkIn(mail, "guardian/consent")!);
      await expect(page.getByRole("heading", { name: `Aarav ${tag} needs your consent` })).toBeVisible();
      await expect(page.getByText("Do you teach students in school?")).toBeVisible();
      await page.getByRole("button", { name: "I consent" }).click();
      await expect(page.getByRole("heading", { name: "Thank you for your consent" })).toBeVisible();
      const listed = (await api("GET", `/api/contact-queries?q=${encodeURIComponent(email)}`)).body.data;
      expect(listed).toHaveLength(1);
      expect(listed[0].guardianConsentAt).toEqual(expect.any(String));
      // What was held back goes now: the staff alert and the acknowledgement.
      await mailTo(email, /received your message/);
      await smtp.waitFor((m) => m.envelope.to.includes("desk@cybersoc.test") && (m.parsed.text ?? "").includes(email), 1, 30_000);
    });

    test("an admin edits the grievance contact; /privacy shows it at once; staff erase a person by e-mail", async ({ page }) => {
      const tag = uniqueTag(js ? "sjs" : "snojs");
      await page.goto(`${server.url}/privacy`);
      await page.goto(`${server.url}/admin/login`);
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page).toHaveURL(/\/admin\/courses$/);
      await page.goto(`${server.url}/admin/settings`);
      await page.getByLabel("Name", { exact: true }).fill(`Officer ${tag}`);
      await page.getByLabel("Postal address").fill(`Box ${tag}, Hyderabad 500081`);
      await page.getByRole("button", { name: "Save Settings" }).click();
      await expect(page.getByText("Settings saved.")).toBeVisible();
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue(`Officer ${tag}`);
      await page.getByLabel("Email", { exact: true }).fill("not an address");
      await page.getByRole("button", { name: "Save Settings" }).click();
      await expect(fieldMessage(page, "Valid email is required")).toBeVisible();
      await expect(page.getByLabel("Email", { exact: true })).toHaveValue("not an address");

      const visitor = await page.context().browser()!.newPage({ javaScriptEnabled: js });
      await visitor.goto(`${server.url}/privacy`);
      await expect(visitor.getByTestId("privacy-contact")).toContainText(`Officer ${tag}`);
      await expect(visitor.getByTestId("privacy-contact")).toContainText(`Box ${tag}, Hyderabad 500081`);
      await visitor.close();

      const email = `${tag}@example.com`;
      await api("POST", "/api/enquiries", {
        fullName: `Erase ${tag}`,
        email,
        phone: "9111122222",
        preferredCourse: "SOC Analyst Training Program",
        preferredMode: "online",
      });
      await page.goto(`${server.url}/admin/privacy`);
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Find records" }).click();
      await expect(page.getByTestId("privacy-records")).toContainText(`Erase ${tag}`);
      await page.getByLabel(/^Erase the personal data of these 1 record/).check();
      await page.getByRole("button", { name: "Erase this person's data" }).click();
      await expect(page.getByText("Erased the personal data of 1 enquiry and 0 contact queries.")).toBeVisible();
      expect((await api("GET", `/api/enquiries?q=${encodeURIComponent(email)}`)).body.total).toBe(0);
      const audit = (await api("GET", "/api/audit-log?entityType=person")).body.data;
      expect(audit[0]).toMatchObject({ action: "erase", userName: "Administrator" });
      expect(audit[0].summary).not.toContain(email);
    });
  });
}

test("an editor may not open the site settings", async ({ page }) => {
  const email = `${uniqueTag("ed")}@example.com`;
  expect((await api("POST", "/api/auth/register", { name: "Edith Editor", email, password: "editor-password-1", role: "editor" })).status).toBe(201);
  await page.goto(`${server.url}/admin/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("editor-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  await expect(page.getByRole("link", { name: "Settings" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Privacy" })).toBeVisible();
  const res = await page.goto(`${server.url}/admin/settings`);
  expect(res?.status()).toBe(403);
});

test("the privacy pages and screens have no accessibility violations (axe, WCAG 2.1 A/AA)", async ({ page }) => {
  const tag = uniqueTag("axe");
  const email = `${tag}@example.com`;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  expect(
    (
      await post("/api/enquiries", {
        fullName: `Axe ${tag}`,
        email,
        phone: "9123456780",
        preferredCourse: "SOC Analyst Training Program",
        preferredMode: "online",
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await post("/api/contact-queries", {
        name: `Axe ${tag}`,
        email: `kid.${tag}@example.com`,
        message: "Hi",
        under18: true,
        guardianName: "Axe Parent",
        guardianEmail: `parent.${tag}@example.com`,
      })
    ).status,
  ).toBe(201);
  const me = linkIn(await mailTo(email, /received your enquiry/), "me")!;
  const guardian = linkIn(await mailTo(`parent.${tag}@example.com`, /Please confirm/), "guardian/consent")!;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const url of [`${server.url}/privacy`, me, guardian, `${server.url}/me?token=not-a-valid-token-0123456789`]) {
      await page.goto(url);
      await expectNoAxeViolations(page, `${url.replace(/token=[^&]+/, "token=…")} at ${width} px`);
    }
  }
  await page.goto(`${server.url}/contact`);
  await page.locator("#contact-form").getByLabel("I am under 18").check();
  await expectNoAxeViolations(page, "/contact with the guardian's fields");
  await page.goto(`${server.url}/admin/login`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  for (const path of ["/admin/settings", `/admin/privacy?email=${encodeURIComponent(email)}`]) {
    await page.goto(`${server.url}${path}`);
    await expectNoAxeViolations(page, path);
  }
});
