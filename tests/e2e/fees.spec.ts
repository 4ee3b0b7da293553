import fs from "node:fs";
import { PDFParse } from "pdf-parse";
import { startRazorpaySim, type RazorpaySim } from "../helpers/razorpay-sim";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { expect, test } from "./fixtures";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * Fees from enrolment to receipt, in Chromium with JavaScript on and off, on a built server of its own with a real
 * SMTP server and Razorpay's API answered by a local server (its real SDK in the app): staff record a payment on the
 * student's details and reverse it; the student opens their page from the e-mail's link, sees the due with its UPI
 * link and QR code, reports a UPI payment with its UTR, pays the rest through a Razorpay Payment Link (its page on the
 * local server), comes back to a confirmation with the invoice number, and downloads the receipt as a PDF.
 */
const OFFSET = 47;
let server: TestServer;
let smtp: SmtpSink;
let sim: RazorpaySim;
let token = "";
let courseTitle = "";
let n = 0;

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
  sim = await startRazorpaySim();
  server = await startServer(OFFSET, {
    SMTP_URL: smtp.url,
    MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>",
    NOTIFY_EMAIL: "desk@cybersoc.test",
    RAZORPAY_KEY_ID: sim.keyId,
    RAZORPAY_KEY_SECRET: sim.keySecret,
    RAZORPAY_WEBHOOK_SECRET: sim.webhookSecret,
    RAZORPAY_API_URL: sim.url,
  });
  token = (
    await (await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) })).json()
  ).token;
  expect(
    (await api("PUT", "/api/settings", { gstin: "36AABCU9603R1ZM", invoicePrefix: "CSA", upiId: "cybersoc@okhdfcbank", upiPayeeName: "CyberSOC Academy" }))
      .status,
  ).toBe(200);
  courseTitle = `Fees Course ${Date.now().toString(36)}`;
  const created = await api("POST", "/api/courses", {
    title: courseTitle,
    category: "beginner",
    description: "Fees end to end",
    fee: 47200,
    feeIncludesGst: true,
  });
  expect(created.status).toBe(201);
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await sim?.close();
});

/** An enrolled student (through the API), and the link to their own page from their enrolment e-mail. */
async function enrolledStudent(): Promise<{ id: string; name: string; email: string; meLink: string }> {
  const name = `Lakshmi ${++n} ${Date.now().toString(36)}`;
  const email = `fees.${n}.${Date.now()}@example.com`;
  const created = await api("POST", "/api/enquiries", { fullName: name, email, phone: "9876501234", preferredCourse: courseTitle, preferredMode: "online" });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  expect((await api("PUT", `/api/enquiries/${id}/status`, { status: "enrolled" })).status).toBe(200);
  const [mail] = await smtp.waitFor((m) => m.envelope.to.includes(email) && (m.parsed.subject ?? "").startsWith("Enrolment confirmed"), 1, 20_000);
  const meLink = /https?:\/\/\S+\/me\?token=[\w-]+/.exec(mail.parsed.text ?? "")?.[0];
  expect(meLink).toBeTruthy();
  return { id, name, email, meLink: meLink! };
}

async function pdfText(path: string): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(fs.readFileSync(path)) });
  try {
    return (await parser.getText()).text.replace(/\s+/g, " ");
  } finally {
    await parser.destroy();
  }
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`fees, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("staff record a payment on the student's details and reverse it", async ({ page }) => {
      const student = await enrolledStudent();
      await page.goto(`${server.url}/admin/login`);
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page).toHaveURL(/\/admin\/courses$/);
      await page.goto(`${server.url}/admin/enquiries/${student.id}#fees`);
      const fees = page.locator("#fees");
      await expect(fees.getByTestId("fees-billed")).toHaveText("₹47,200.00");
      const record = fees.getByRole("form", { name: "Record payment" });
      await record.getByLabel("Method").selectOption("bank_transfer");
      await record.getByLabel("Amount (₹)").fill("20,000");
      await record.getByLabel(/^Reference/).fill("NEFT-HDFC-0042");
      await record.getByRole("button", { name: "Record payment" }).click();
      await expect(fees.getByText(/Payment of ₹20,000\.00 recorded: receipt CSA\/\d{4}-\d{2}\/R\d{4}\./)).toBeVisible();
      await expect(fees.getByTestId("fees-received")).toHaveText("₹20,000.00");
      await expect(fees.getByTestId("fees-outstanding")).toHaveText("₹27,200.00");
      await expect(fees.getByTestId("fee-due")).toContainText("Part paid");

      await fees.getByText("Reverse this payment").click();
      await fees.getByTestId("fee-payment").getByLabel("Reason", { exact: true }).fill("Entered on the wrong student");
      await fees.getByRole("button", { name: "Reverse payment" }).click();
      await expect(fees.getByText(/Payment CSA\/\d{4}-\d{2}\/R\d{4} reversed\./)).toBeVisible();
      await expect(fees.getByTestId("fees-received")).toHaveText("₹0.00");
      await expect(fees.getByTestId("fee-payment")).toContainText("Reversed (Entered on the wrong student)");

      await fees.getByText("Change the state for invoices").click();
      await fees.getByLabel("State", { exact: true }).selectOption("Karnataka");
      await fees.getByRole("button", { name: "Save state" }).click();
      await expect(fees.getByText("The student's state for invoices is now Karnataka (invoices already issued keep theirs).")).toBeVisible();
      await expect(fees.getByText(`billed to ${student.name}, Karnataka`)).toBeVisible();
    });

    test("staff change a fee plan on the Fee plans screen; a save from a stale form is refused with what the plan holds now", async ({ page }) => {
      const name = `Plan ${javaScriptEnabled ? "on" : "off"} ${Date.now().toString(36)}`;
      const created = await api("POST", "/api/fee-plans", {
        name,
        instalments: [
          { label: "Now", percentBp: 5000, dueFrom: "enrolment", dueDays: 0 },
          { label: "Later", percentBp: 5000, dueFrom: "enrolment", dueDays: 30 },
        ],
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      await page.goto(`${server.url}/admin/login`);
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page).toHaveURL(/\/admin\/courses$/);
      await page.goto(`${server.url}/admin/fees/plans`);
      await page.getByRole("link", { name: `Edit ${name}` }).click();
      const form = page.locator("#plan-form");
      await expect(form.getByRole("heading", { name: `Edit fee plan: ${name}` })).toBeVisible();
      await expect(form.getByLabel("Instalment 1 share")).toHaveValue("50%");
      await form.getByLabel("Instalment 1 share").fill("40%");
      await form.getByLabel("Instalment 2 share").fill("60%");
      await form.getByRole("button", { name: "Save plan" }).click();
      await expect(page.getByText(`Plan "${name}" saved: students already enrolled keep their dues.`)).toBeVisible();
      expect((await api("GET", `/api/fee-plans/${id}`)).body.data.terms.instalments.map((i: { percentBp: number }) => i.percentBp)).toEqual([4000, 6000]);

      // Opened here, then changed elsewhere (the API, another tab): this form's save is refused and shows the plan as it is.
      await page.goto(`${server.url}/admin/fees/plans?edit=${id}`);
      const now = (await api("GET", `/api/fee-plans/${id}`)).body.data;
      const elsewhere = await api("PUT", `/api/fee-plans/${id}`, {
        name,
        version: now.version,
        instalments: [
          { label: "Now", percentBp: 3000, dueFrom: "enrolment", dueDays: 0 },
          { label: "Later", percentBp: 7000, dueFrom: "enrolment", dueDays: 30 },
        ],
      });
      expect(elsewhere.status).toBe(200);
      await form.getByLabel("Instalment 1 share").fill("20%");
      await form.getByLabel("Instalment 2 share").fill("80%");
      await form.getByRole("button", { name: "Save plan" }).click();
      await expect(form.getByText(/This fee plan was changed by .+ IST\. Here is what it holds now\./)).toBeVisible();
      await expect(form.getByLabel("Instalment 1 share")).toHaveValue("30%");
      expect((await api("GET", `/api/fee-plans/${id}`)).body.data.terms.instalments.map((i: { percentBp: number }) => i.percentBp)).toEqual([3000, 7000]);
    });

    test("the student reports a UPI payment, pays the rest through a Razorpay Payment Link and downloads the receipt", async ({ page }) => {
      const student = await enrolledStudent();
      // Half by cash at the desk first, so the page has a receipt and a balance.
      expect((await api("POST", `/api/enquiries/${student.id}/payments`, { method: "cash", amountPaise: 2_000_000 })).status).toBe(201);
      await page.goto(student.meLink);
      const fees = page.locator("#fees");
      await expect(fees.getByRole("heading", { name: "Your fees" })).toBeVisible();
      const due = fees.getByTestId("my-due").first();
      await expect(due).toContainText("₹47,200.00");
      await expect(due).toContainText("Part paid");
      const upi = await due.getByTestId("upi-link").getAttribute("href");
      const params = new URL(upi!).searchParams;
      expect([params.get("pa"), params.get("pn"), params.get("am"), params.get("cu")]).toEqual(["cybersoc@okhdfcbank", "CyberSOC Academy", "27200.00", "INR"]);
      expect(params.get("tn")).toMatch(/^CSA\/\d{4}-\d{2}\/\d{4}$/);
      await expect(due.getByTestId("upi-qr").locator("svg")).toBeVisible();

      await due.getByLabel(/12-digit UTR/).fill(`4${String(Date.now()).slice(-11)}`);
      await due.getByRole("button", { name: "I have paid" }).click();
      await expect(page.getByText("Thank you: we will check the payment with our bank")).toBeVisible();
      await page.getByRole("link", { name: "Back to your page" }).click();
      await expect(page.locator("#fees").getByText("You told us you paid: we are checking it with our bank.")).toBeVisible();

      // Razorpay: without JavaScript straight to the Payment Link; with it, Checkout's page offers the link too (no CDN here).
      await page
        .locator("#fees")
        .getByRole("button", { name: /Pay online/ })
        .click();
      if (javaScriptEnabled) await page.getByRole("button", { name: "Or pay on Razorpay's page" }).click();
      await expect(page).toHaveURL(new RegExp(`^${sim.url}/pl/plink_`));
      await page.getByRole("button", { name: "Pay now" }).click();
      await expect(page.getByRole("heading", { name: "Payment received: thank you" })).toBeVisible();
      await expect(page.getByText(/We received ₹27,200\.00\. Invoice CSA\/\d{4}-\d{2}\/\d{4}, receipt CSA\/\d{4}-\d{2}\/R\d{4}\./)).toBeVisible();

      await page.goto(student.meLink);
      await expect(page.locator("#fees").getByText(/Left to pay ₹0\.00/)).toBeVisible();
      const receipts = page.locator("#fees").getByRole("link", { name: /^Receipt CSA\/.* \(PDF\)$/ });
      await expect(receipts).toHaveCount(2);
      const [download] = await Promise.all([page.waitForEvent("download"), receipts.last().click()]);
      const text = await pdfText((await download.path())!);
      expect(text).toContain("Payment Receipt");
      expect(text).toMatch(/Amount received ₹27,200\.00/);
      expect(text).toContain(student.name);
      expect(text).toContain("Razorpay (online)");
    });
  });
}
