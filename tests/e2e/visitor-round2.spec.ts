import type { Locator, Page } from "@playwright/test";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../helpers/smtp-sink";
import { expect, expectNoAxeViolations, test, uniqueTag } from "./fixtures";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * Issue 37, items 4, 8 and 9, as a visitor meets them in Chromium with JavaScript off and on, on a server of its own
 * with a real SMTP server: a minor is told what their enquiry waits for; the confirmation carries a reference that
 * staff's search finds exactly, what was sent and where the copy went; the waitlist join page says waitlist; /me says
 * where the person stands for the batch (offered with the link, declined, enrolled) with a calendar only when
 * enrolled, and turns WhatsApp updates off; Decline asks "Give up your seat?"; the accepted page is a receipt.
 */
const OFFSET = 41;
let server: TestServer;
let smtp: SmtpSink;
let token = "";
let courseTitle = "";
let courseId = "";

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
  const course = (await api("GET", "/api/courses")).body.data[0];
  courseTitle = course.title;
  courseId = course.id;
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

async function ready(form: Locator, js: boolean) {
  if (!js) return;
  await form.locator("input[name=email]").focus();
  await expect(form).toHaveAttribute("data-enhanced", "");
}

async function fillEnquiry(form: Locator, name: string, email: string) {
  await form.getByLabel("Full Name").fill(name);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Phone Number").fill("98450 12345");
  await form.getByLabel("Preferred Course").selectOption(courseTitle);
  await form.getByLabel("Preferred Mode").selectOption("online");
}

/** A batch of one seat, taken by an enrolment: full. */
async function fullBatch(startDate: string): Promise<string> {
  const id = (
    await api("POST", "/api/schedules", {
      course: courseId,
      startDate,
      endDate: "2033-12-30",
      time: "7 PM",
      days: "Sat",
      mode: "online",
      location: "Online",
      totalSeats: 1,
    })
  ).body.data.id;
  const holder = await api("POST", "/api/enquiries", {
    fullName: "Seat Holder",
    email: `holder.${uniqueTag("h")}@example.com`,
    phone: "9811111111",
    preferredCourse: courseTitle,
    preferredMode: "online",
    batchDate: startDate,
  });
  expect((await api("PUT", `/api/enquiries/${holder.body.data.id}/status`, { status: "enrolled" })).status).toBe(200);
  return id;
}

async function joinByApi(name: string, email: string, batchDate: string): Promise<string> {
  const r = await api("POST", "/api/enquiries", {
    fullName: name,
    email,
    phone: "9822222222",
    preferredCourse: courseTitle,
    preferredMode: "online",
    batchDate,
  });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

async function oneMoreSeat(batchId: string) {
  const batch = (await api("GET", `/api/schedules/${batchId}`)).body.data;
  expect((await api("PUT", `/api/schedules/${batchId}`, { ...batch, totalSeats: batch.totalSeats + 1 })).status).toBe(200);
}

const seat = (page: Page) => page.getByTestId("me-seat");

for (const js of [false, true]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 375, height: 740 } });

    test("item 4: a minor is told the guardian was asked and when the enquiry is deleted, not 'Registration Successful!'", async ({ page }) => {
      const tag = uniqueTag(js ? "minjs" : "minnojs");
      await page.goto(`${server.url}/enquiry`);
      const form = page.locator("#enquiry-page-form");
      await ready(form, js);
      await fillEnquiry(form, `Aarav ${tag}`, `${tag}@example.com`);
      await form.getByLabel("I am under 18").check();
      await form.getByLabel("Parent or guardian", { exact: true }).fill(`Meena ${tag}`);
      await form.getByLabel("Parent or guardian's e-mail").fill(`parent.${tag}@example.com`);
      await form.getByRole("button", { name: "Submit Registration" }).click();
      await expect(page.getByRole("heading", { name: "We have asked your parent or guardian" })).toBeVisible();
      await expect(
        page.getByText(
          new RegExp(
            `We have e-mailed Meena ${tag} to ask for consent\\. We cannot contact you until they agree; if they do not by \\w{3} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2} [AP]M \\(Hyderabad time\\), we delete your enquiry\\.`,
          ),
        ),
      ).toBeVisible();
      await expect(page.getByText("Registration Successful!")).toHaveCount(0);
      // The answer promises no call (the page's own introduction, above the form, still describes the usual course).
      const answer = page.getByRole("status").filter({ hasText: "We have asked your parent or guardian" });
      await expect(answer).not.toContainText("within 24 hours");
      await expect(answer).not.toContainText("A copy was sent");
    });

    test("item 9: the confirmation has a reference staff search finds exactly, what was sent, and where the copy went", async ({ page }) => {
      const tag = uniqueTag(js ? "refjs" : "refnojs");
      // A long address: the confirmation once grew the page to 564 px on a 375 px phone (a grid's least width).
      const email = `${tag}.with.a.rather.long.address@example.com`;
      await page.goto(`${server.url}/enquiry`);
      const form = page.locator("#enquiry-page-form");
      await ready(form, js);
      await fillEnquiry(form, `Ref ${tag}`, email);
      await form.getByLabel("Message (optional)").fill("Weekend batches, please");
      await form.getByRole("button", { name: "Submit Registration" }).click();
      await expect(page.getByRole("heading", { name: "Registration Successful!" })).toBeVisible();
      const reference = (await page.getByTestId("enquiry-reference").locator("strong").textContent())!.trim();
      expect(reference).toMatch(/^ENQ-[0-9A-F]{8}$/);
      const summary = page.getByTestId("enquiry-summary");
      await expect(summary).toContainText(`Ref ${tag}`);
      await expect(summary).toContainText(courseTitle);
      await expect(summary).toContainText("Weekend batches, please");
      await expect(page.getByText(`A copy was sent to ${email}`)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      if (js) await expectNoAxeViolations(page, "enquiry confirmation");
      const found = (await api("GET", `/api/enquiries?q=${encodeURIComponent(reference)}`)).body;
      expect(found.total).toBe(1);
      expect(found.data[0].email).toBe(email);
      // The copy carries the same reference.
      expect((await mailTo(email, /received your enquiry/)).parsed.text).toContain(`Your reference: ${reference}`);
    });

    test("item 9: the waitlist join page says waitlist in its heading and button", async ({ page }) => {
      const start = js ? "2033-05-07" : "2033-05-14";
      await fullBatch(start);
      await page.goto(`${server.url}/enquiry?course=${encodeURIComponent(courseTitle)}&date=${start}&mode=online&waitlist=1`);
      await expect(page.getByRole("heading", { level: 1, name: "Join the waitlist" })).toBeVisible();
      await expect(page).toHaveTitle(/^Join the waitlist/);
      await expect(page.getByText("Course Registration")).toHaveCount(0);
      const form = page.locator("#enquiry-page-form");
      await expect(form.getByRole("button", { name: "Join the waitlist" })).toBeVisible();
      await expect(form.getByRole("button", { name: "Submit Registration" })).toHaveCount(0);
      const tag = uniqueTag(js ? "wljs" : "wlnojs");
      await ready(form, js);
      await form.getByLabel("Full Name").fill(`Wait ${tag}`);
      await form.getByLabel("Email").fill(`${tag}@example.com`);
      await form.getByLabel("Phone Number").fill("98450 12345");
      await form.getByRole("button", { name: "Join the waitlist" }).click();
      await expect(page.getByRole("heading", { name: "You are on the waitlist" })).toBeVisible();
      await expect(page.getByTestId("enquiry-reference")).toContainText(/ENQ-[0-9A-F]{8}/);
    });

    test("items 8 and 9: /me words the seat, links the offer, Decline asks first, only the enrolled get a calendar; WhatsApp off", async ({ page }) => {
      const start = js ? "2033-06-04" : "2033-06-11";
      const batchId = await fullBatch(start);
      const tag = uniqueTag(js ? "mejs" : "menojs");
      const first = `first.${tag}@example.com`;
      const second = `second.${tag}@example.com`;
      await joinByApi(`First ${tag}`, first, start);
      await joinByApi(`Second ${tag}`, second, start);
      await oneMoreSeat(batchId);

      // The first one's page: offered until a time, with the link to answer; no calendar for a seat not taken.
      await page.goto(linkIn(await mailTo(first, /waitlist/), "me")!);
      await expect(seat(page)).toContainText(/^Offered: a seat is held for you until .+ \(Hyderabad time\)/);
      await expect(page.getByRole("link", { name: "Add to calendar (.ics)" })).toHaveCount(0);
      await page.getByRole("link", { name: "Accept or decline the seat" }).click();
      await expect(page.getByRole("heading", { name: "A seat is held for you" })).toBeVisible();
      await page.getByRole("button", { name: "Decline" }).click();
      await expect(page.getByRole("heading", { name: "Give up your seat?" })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "Give up your seat?");
      await page.getByRole("link", { name: "No, keep my seat" }).click();
      await expect(page.getByRole("heading", { name: "A seat is held for you" })).toBeVisible();
      await page.getByRole("button", { name: "Decline" }).click();
      await page.getByRole("button", { name: "Yes, give up my seat" }).click();
      await expect(page.getByRole("heading", { name: "Seat declined" })).toBeVisible();
      await page.goto(`${server.url}/me`);
      await expect(seat(page)).toHaveText("Declined: you gave up the seat offered to you");
      await expect(page.getByRole("link", { name: "Add to calendar (.ics)" })).toHaveCount(0);
      if (js) await expectNoAxeViolations(page, "/me with a declined seat");

      // WhatsApp updates off, as easily as marketing.
      await expect(page.getByTestId("me-whatsapp-state")).toContainText("We send batch updates");
      await page.getByRole("button", { name: "Turn off WhatsApp updates" }).click();
      await expect(page.getByText("Done: we will send you no more WhatsApp updates.")).toBeVisible();
      await expect(page.getByTestId("me-whatsapp-state")).toHaveText("You get no WhatsApp updates: we write to you by e-mail and call you.");
      const stored = (await api("GET", `/api/enquiries?q=${encodeURIComponent(first)}`)).body.data[0];
      expect(stored.whatsappNotifications).toBe(false);
      expect(stored.consents.at(-1)).toMatchObject({ purpose: "whatsapp", action: "withdrawn", channel: "me" });

      // The seat went to the second, who accepts from their page: a receipt with fee, batch, calendar and reference.
      await page.context().clearCookies();
      await page.goto(linkIn(await mailTo(second, /waitlist/), "me")!);
      await expect(seat(page)).toContainText("Offered:");
      await page.getByRole("link", { name: "Accept or decline the seat" }).click();
      await page.getByRole("button", { name: "Accept the seat" }).click();
      await expect(page.getByRole("heading", { name: "You are enrolled!" })).toBeVisible();
      await expect(page.getByTestId("offer-fee")).toHaveText(/^Fee/);
      await expect(page.getByTestId("offer-reference")).toHaveText(/^ENQ-[0-9A-F]{8}$/);
      if (js) await expectNoAxeViolations(page, "accepted offer");
      await expect(page.getByText(courseTitle)).toBeVisible();
      const ics = await page.request.get(`${server.url}${await page.getByRole("link", { name: "Add to calendar (.ics)" }).getAttribute("href")}`);
      expect(ics.status()).toBe(200);
      expect(await ics.text()).toContain("BEGIN:VCALENDAR");
      await page.goto(`${server.url}/me`);
      await expect(seat(page)).toHaveText("Enrolled: this seat is yours");
      await expect(page.getByRole("link", { name: "Add to calendar (.ics)" })).toBeVisible();
    });
  });
}
