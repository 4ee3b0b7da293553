import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import jsQR from "jsqr";
import sharp from "sharp";
import { db } from "~db/client.server";
import { runOutboxPass } from "~/infra/outbox-worker.server";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { feesOfMyEnquiries } from "~/services/fee-me.server";
import { createFeePlan } from "~/services/fee-plans.server";
import { runFeeReminderJob } from "~/services/fee-reminders.server";
import { recordPayment } from "~/services/payments.server";
import { updateSiteSettings } from "~/services/site-settings.server";
import { createUserWithoutActor } from "~/services/users.server";
import { siteToday } from "~/util/dates";
import { addDays } from "~/util/fee-schedule";
import { useTestDatabase } from "../helpers/db";
import { startSmtpSink } from "../helpers/smtp-sink";
import { startWebhookSink, type WebhookSink } from "../helpers/webhook-sink";

/**
 * Fee reminders at a real SMTP server on the right days around a due date (3 days before, on the day, 3 and 7 days
 * after), each once however often the job runs, none after the due is paid (even one queued before the payment);
 * the receipt e-mail of a payment carries its invoice number; the WhatsApp gateway gets a signed fee.reminder and
 * payment.received. And the UPI link of a due, and its QR code decoded back from the SVG the page shows.
 */
const smtp = await startSmtpSink();
const SECRET = "whsec_" + Buffer.from("fee-webhook-secret-0123456789abcdef").toString("base64");
const hooks: WebhookSink = await startWebhookSink(SECRET);
Object.assign(process.env, {
  SMTP_URL: smtp.url,
  MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>",
  PUBLIC_URL: "https://academy.example",
  TRUST_PROXY: "true",
  WEBHOOK_URL: hooks.url,
  WEBHOOK_SECRET: SECRET,
});
useTestDatabase();
afterAll(async () => {
  await smtp.stop();
  await hooks.close();
});

const today = siteToday();
const day = (offset: number) => new Date(Date.parse(`${addDays(today, offset)}T06:00:00Z`));
let admin: StaffActor;
let planId = "";

async function drain() {
  for (let i = 0; i < 20 && (await runOutboxPass(() => {})) > 0; i++);
}

beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Remind Admin", email: "remind@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  await updateSiteSettings(
    admin,
    { gstin: "36AABCU9603R1ZM", invoicePrefix: "CSA", upiId: "cybersoc@okhdfcbank", upiPayeeName: "CyberSOC Academy" },
    { partial: true },
  );
  const course = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "SOC", fee: 47_200, feeIncludesGst: true });
  planId = (
    await createFeePlan(admin, {
      name: "Deposit now, rest in 10 days",
      courseId: course.id,
      depositPaise: 500_000,
      instalments: [{ label: "Balance", percentBp: 10_000, dueFrom: "enrolment", dueDays: 10 }],
    })
  ).id;
});

beforeEach(async () => {
  smtp.received.length = 0;
  hooks.received.length = 0;
  await db().deleteFrom("outbox").execute();
});

let n = 0;
async function enrolled() {
  n++;
  const e = await insertEnquiry({
    fullName: `Divya ${n}`,
    email: `divya${n}@example.com`,
    phone: `94${String(70_000_000 + n)}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    whatsappNotifications: true,
  });
  await logActivity(admin, e.id, { status: "enrolled", feePlanId: planId, followUp: "keep" });
  return e;
}

describe("fee reminders", () => {
  it("come 3 days before, on the day, 3 and 7 days after the due date, once each, with the WhatsApp webhook", async () => {
    const e = await enrolled();
    await recordPayment(admin, e.id, { method: "cash", amountPaise: 500_000 }); // the deposit, due today
    await drain();
    smtp.received.length = 0;
    hooks.received.length = 0;
    const sentOn: number[] = [];
    for (let offset = 0; offset <= 20; offset++) {
      const before = smtp.received.filter((m) => m.envelope.to.includes(e.email)).length;
      await runFeeReminderJob(day(offset));
      await runFeeReminderJob(day(offset)); // a second instance, or the next run the same day
      await drain();
      if (smtp.received.filter((m) => m.envelope.to.includes(e.email)).length > before) sentOn.push(offset);
    }
    // The balance is due on day 10: -3, 0, +3, +7 → days 7, 10, 13, 17.
    expect(sentOn).toEqual([7, 10, 13, 17]);
    const mails = smtp.received.filter((m) => m.envelope.to.includes(e.email));
    expect(mails.map((m) => m.parsed.subject)).toEqual([
      expect.stringMatching(/^Fee reminder: Balance due on /),
      "Fee reminder: Balance due today | CyberSOC Academy",
      expect.stringMatching(/^Fee reminder: Balance overdue since /),
      expect.stringMatching(/^Fee reminder: Balance overdue since /),
    ]);
    expect(mails[1].parsed.text).toContain("(₹42,200.00, invoice CSA/");
    const reminders = hooks.received.filter((h) => (h.payload as { type: string }).type === "fee.reminder");
    expect(reminders).toHaveLength(4);
    expect(reminders.every((h) => h.verified)).toBe(true);
    expect((reminders[0].payload as { data: { phone: string; amountLeftPaise: number } }).data).toMatchObject({ phone: e.phone, amountLeftPaise: 4_220_000 });
    expect(hooks.received.filter((h) => (h.payload as { type: string }).type === "invoice.overdue")).toHaveLength(1);
  });

  it("none after payment, not even one queued before the payment went in", async () => {
    const e = await enrolled();
    await recordPayment(admin, e.id, { method: "cash", amountPaise: 500_000 });
    await runFeeReminderJob(day(7)); // queued…
    await recordPayment(admin, e.id, { method: "upi", amountPaise: 4_220_000, reference: "612345678901" }); // …then paid
    await drain();
    for (let offset = 8; offset <= 20; offset++) await runFeeReminderJob(day(offset));
    await drain();
    const mails = smtp.received.filter((m) => m.envelope.to.includes(e.email));
    expect(mails.filter((m) => m.parsed.subject?.startsWith("Fee reminder"))).toEqual([]);
    // The receipts came, each with its number and the invoice it paid.
    const receipts = mails.filter((m) => m.parsed.subject?.startsWith("Payment received"));
    expect(receipts).toHaveLength(2);
    // The outbox delivers in any order: the second payment's receipt is the one for ₹42,200.
    const last = receipts.find((m) => m.parsed.text?.includes("We received ₹42,200.00"))!;
    expect(last.parsed.text).toMatch(/Receipt: CSA\/\d{4}-\d{2}\/R\d{4}/);
    expect(last.parsed.text).toMatch(/Invoice: CSA\/\d{4}-\d{2}\/\d{4}/);
    expect(last.parsed.text).toContain("Nothing is left to pay on your fees so far.");
    const received = hooks.received.filter((h) => (h.payload as { type: string }).type === "payment.received");
    expect(received.map((h) => (h.payload as { data: { amountPaise: number } }).data.amountPaise).sort()).toEqual([4_220_000, 500_000]);
  });

  it("a due shows its UPI link (UPI ID, payee, amount, INR, invoice number) and a QR code that decodes to it", async () => {
    const e = await enrolled();
    const fees = (await feesOfMyEnquiries([e.id]))!;
    const deposit = fees.dues.find((d) => d.label === "Seat deposit")!;
    const link = new URL(deposit.upi!.link);
    expect(link.protocol).toBe("upi:");
    expect(Object.fromEntries(link.searchParams)).toEqual({
      pa: "cybersoc@okhdfcbank",
      pn: "CyberSOC Academy",
      am: "5000.00",
      cu: "INR",
      tn: deposit.invoiceNumber,
    });
    expect(deposit.invoiceNumber).toMatch(/^CSA\/\d{4}-\d{2}\/\d{4}$/);
    const { data, info } = await sharp(Buffer.from(deposit.upi!.qrSvg))
      .resize(480)
      .flatten({ background: "#ffffff" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
    expect(code?.data).toBe(deposit.upi!.link);
  });
});
