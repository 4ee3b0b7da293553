import { blockAppScripts, expect, expectNoAxeViolations, signIn, test, uniqueTag } from "./fixtures";
import { type Locator, type Page } from "@playwright/test";
import { closeDb, db, openDb } from "~db/client.server";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { ADMIN, portFor, startServer, type TestServer } from "./servers";

/**
 * The outbox from the visitor's form to the admin's screen, on a server of its own whose SMTP_URL points at
 * a real SMTP server in this test process: an enquiry sent from /enquiry with JavaScript off and from the
 * home page with JavaScript on reaches the mailbox and shows on /admin/outbox; Resend works with JavaScript on
 * and off; an editor gets 403.
 */
const OFFSET = 7;
test.use({ baseURL: `http://127.0.0.1:${portFor(OFFSET)}` });

const EDITOR = { name: "Otto Outboxless", email: "outbox-editor@example.com", password: "editor-password-1" };
let server: TestServer;
let smtp: SmtpSink;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpSink();
  server = await startServer(OFFSET, { SMTP_URL: smtp.url, NOTIFY_EMAIL: "desk@cybersoc.test", MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>" });
  const login = await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) });
  const { token } = (await login.json()) as { token: string };
  const made = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...EDITOR, role: "editor" }),
  });
  expect(made.status).toBe(201);
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

async function fillEnquiry(form: Locator, name: string, email: string) {
  await form.getByLabel("Full Name").fill(name);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Phone Number").fill("98765 43210");
  await form.getByLabel("Preferred Course").selectOption("Cloud Security Practitioner");
  await form.getByLabel("Preferred Mode").selectOption("online");
}

/** The row of the outbox list that names this recipient and subject start. */
const row = (page: Page, recipient: string, subject: RegExp) =>
  page.locator("#admin-main tbody tr").filter({ hasText: recipient }).filter({ hasText: subject });

/** Marks this recipient's acknowledgement failed, as 24 hours of refusals would: no screen makes one on demand. */
async function failAcknowledgement(recipient: string) {
  await openDb(`file:${server.dbFile}`);
  try {
    await db()
      .updateTable("outbox")
      .set({ status: "failed", lastError: "550 5.1.1 Mailbox unavailable", updatedAt: new Date().toISOString() })
      .where("recipient", "=", recipient)
      .execute();
  } finally {
    await closeDb();
  }
}

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("an enquiry from /enquiry reaches the mailbox, shows as Sent on the Outbox, and a failed one is sent again", async ({ page }) => {
    const tag = uniqueTag("nojs");
    const email = `${tag}@example.com`;
    await page.goto("/enquiry");
    const form = page.locator("#enquiry-page-form");
    await fillEnquiry(form, `Nila ${tag}`, email);
    await form.getByRole("button", { name: "Submit Registration" }).click();
    await expect(page.getByRole("heading", { name: "Registration Successful!" })).toBeVisible();

    const [ack] = await smtp.waitFor((m) => m.envelope.to.includes(email), 1, 10_000);
    expect(ack.parsed.subject).toBe("We have received your enquiry | CyberSOC Academy");
    await smtp.waitFor((m) => m.parsed.subject === `New enquiry: Nila ${tag} for Cloud Security Practitioner (Online)`, 1, 10_000);

    await signIn(page);
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Outbox" }).click();
    await expect(page).toHaveURL(/\/admin\/outbox$/);
    await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
    await expect(row(page, email, /We have received your enquiry/)).toContainText("Sent");
    await expect(row(page, "desk@cybersoc.test", new RegExp(`Nila ${tag}`))).toContainText("Sent");

    await failAcknowledgement(email);
    await page.getByRole("navigation", { name: "Filter messages by status" }).getByRole("link", { name: "Failed" }).click();
    await expect(page).toHaveURL(/\/admin\/outbox\?status=failed$/);
    const failed = row(page, email, /We have received your enquiry/);
    await expect(failed).toContainText("550 5.1.1 Mailbox unavailable");
    await failed.getByRole("button", { name: /^Resend/ }).click();
    await expect(page).toHaveURL(/\/admin\/outbox\?status=failed$/);
    await expect(page.getByRole("status")).toHaveText("The message will be sent again shortly.");
    await smtp.waitFor((m) => m.envelope.to.includes(email), 2, 10_000);
    await page.goto("/admin/outbox?status=sent");
    await expect(row(page, email, /We have received your enquiry/)).toContainText("Sent");
  });
});

test.describe("JavaScript on", () => {
  test("an enquiry from the home page reaches the mailbox and the Outbox; the dashboard warns of a failure; Resend", async ({ page }) => {
    const tag = uniqueTag("js");
    const email = `${tag}@example.com`;
    await page.goto("/");
    const form = page.locator("#enquiry-home-form");
    await form.locator("input[name=email]").focus();
    await expect(form).toHaveAttribute("data-enhanced", "");
    await fillEnquiry(form, `Jaya ${tag}`, email);
    await form.getByRole("button", { name: "Submit Enquiry" }).click();
    await expect(page.getByRole("heading", { name: "Enquiry Submitted!" })).toBeVisible();
    await smtp.waitFor((m) => m.envelope.to.includes(email), 1, 10_000);

    await signIn(page);
    await page.goto("/admin/outbox");
    await expect(row(page, email, /We have received your enquiry/)).toContainText("Sent");

    await failAcknowledgement(email);
    await page.goto("/admin/dashboard");
    const banner = page.getByRole("region", { name: "Some messages were not delivered" });
    await expect(banner).toContainText("could not be delivered in the last 24 hours.");
    await banner.getByRole("link", { name: "Open the Outbox" }).click();
    await expect(page).toHaveURL(/\/admin\/outbox\?status=failed$/);
    await row(page, email, /We have received your enquiry/)
      .getByRole("button", { name: /^Resend/ })
      .click();
    await expect(page.getByRole("status")).toHaveText("The message will be sent again shortly.");
    await smtp.waitFor((m) => m.envelope.to.includes(email), 2, 10_000);
  });

  test("an editor sees no Outbox item and gets the access-denied screen at its URL", async ({ page }) => {
    await signIn(page, EDITOR.email, EDITOR.password);
    const nav = page.getByRole("navigation", { name: "Admin" });
    await expect(nav.getByRole("link", { name: "Courses" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Outbox" })).toHaveCount(0);
    const response = await page.goto("/admin/outbox");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "Access denied" })).toBeVisible();
    await expect(page.locator("#admin-main tbody tr")).toHaveCount(0);
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`axe on the Outbox, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test("every tab, a failed row with Resend and the dashboard's warning have no WCAG 2.1 A/AA violations", async ({ page, request }) => {
      const email = `${uniqueTag("axe")}@example.com`;
      const sent = await request.post("/api/contact-queries", { data: { name: "Axe Visitor", email, message: "Checking contrast" } });
      expect(sent.status()).toBe(201);
      await smtp.waitFor((m) => m.envelope.to.includes(email), 1, 10_000);
      await failAcknowledgement(email);
      // axe runs as a script, so "off" keeps the browser's JavaScript but never loads the app's.
      if (!javaScriptEnabled) await blockAppScripts(page);
      await signIn(page);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        for (const path of ["/admin/outbox", "/admin/outbox?status=failed", "/admin/outbox?status=waiting", "/admin/dashboard"]) {
          await page.goto(path);
          await expect(page.locator("#admin-main h1")).toBeVisible();
          await expectNoAxeViolations(page, `${path} at ${width} px`, "#admin-main");
        }
      }
    });
  });
}
