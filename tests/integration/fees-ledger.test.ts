import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { insertCourse, type Course } from "~/models/course.server";
import { insertEnquiry, type EnquiryInput } from "~/models/enquiry.server";
import { insertSchedule, type Schedule } from "~/models/schedule.server";
import { listTimeline } from "~/models/timeline.server";
import type { StaffActor } from "~/services/actor";
import { bulkUpdateEnquiries, logActivity, setEnquiryStatus } from "~/services/enquiries.server";
import { decideConcessionRequest, ledgerOf, requestConcession } from "~/services/fee-ledger.server";
import { createFeePlan, updateFeePlan } from "~/services/fee-plans.server";
import { cancelInvoice, issueInvoiceNow, runInvoicingJob } from "~/services/invoices.server";
import { confirmUpiReport, recordPayment, rejectUpiReport, reportUpiPayment, reversePayment } from "~/services/payments.server";
import { updateSiteSettings } from "~/services/site-settings.server";
import { createUserWithoutActor } from "~/services/users.server";
import { financialYear } from "~/util/money";
import { siteToday } from "~/util/dates";
import { addDays } from "~/util/fee-schedule";
import { useTestDatabase } from "../helpers/db";

/**
 * Fees from enrolment to receipt, on a real database (SQLite, or MariaDB under npm run test:mysql): an enrolment
 * opens the student's dues from the plan, payments settle them oldest first with credit kept, invoices are numbered
 * without gaps, a credit note cancels one, a reversal undoes a payment, and the sums hold over random plans and
 * payments.
 */
useTestDatabase();

let admin: StaffActor;
let course: Course;
let batch: Schedule;
const FY = financialYear();
const today = siteToday();

beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Anita Admin", email: "anita.fees@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  await updateSiteSettings(admin, { gstin: "36AABCU9603R1ZM", invoicePrefix: "CSA" }, { partial: true });
  course = await insertCourse({
    title: "SOC Analyst Training Program",
    category: "beginner",
    description: "Job-ready SOC skills",
    fee: 47_200,
    feeIncludesGst: true,
  });
  batch = await insertSchedule({
    course: course.id,
    startDate: addDays(today, 14),
    endDate: addDays(today, 90),
    time: "7:00 PM - 9:00 PM",
    days: "Mon, Wed, Fri",
    mode: "online",
    location: "Online",
    seats: 100,
    totalSeats: 100,
  });
});

let n = 0;
const enquiry = (over: Partial<EnquiryInput> = {}) =>
  insertEnquiry({
    fullName: `Keerthi Rao ${++n}`,
    email: `keerthi${n}@example.com`,
    phone: `97${String(40_000_000 + n)}`,
    preferredCourse: course.title,
    preferredMode: "online",
    scheduleId: batch.id,
    ...over,
  });

describe("fees from enrolment to receipt", () => {
  it("an enrolment copies the course's default plan into dues; a later plan change rewrites nothing", async () => {
    const plan = await createFeePlan(admin, {
      name: "40-30-30 with deposit",
      courseId: course.id,
      isDefault: true,
      depositPaise: 500_000,
      instalments: [
        { label: "On enrolment", percentBp: 4000, dueFrom: "enrolment", dueDays: 0 },
        { label: "Week 4", percentBp: 3000, dueFrom: "batch_start", dueDays: 21 },
        { label: "Week 8", percentBp: 3000, dueFrom: "batch_start", dueDays: 49 },
      ],
    });
    const e = await enquiry();
    await setEnquiryStatus(admin, e.id, { status: "enrolled" });
    const ledger = await ledgerOf(e.id);
    expect(ledger.account).toMatchObject({ planName: "40-30-30 with deposit", listPricePaise: 4_720_000, billingState: "Telangana", status: "active" });
    expect(ledger.dues.map((d) => [d.label, d.dueDate, d.amountPaise, d.state])).toEqual([
      ["Seat deposit", today, 500_000, "due"],
      ["On enrolment", today, 1_688_000, "due"],
      ["Week 4", addDays(today, 35), 1_266_000, "upcoming"],
      ["Week 8", addDays(today, 63), 1_266_000, "upcoming"],
    ]);
    expect(ledger.totals).toMatchObject({ billedPaise: 4_720_000, receivedPaise: 0, outstandingPaise: 4_720_000, creditPaise: 0 });

    await updateFeePlan(admin, plan.id, {
      name: "Full payment now",
      courseId: course.id,
      isDefault: true,
      instalments: [{ label: "All", percentBp: 10_000, dueFrom: "enrolment", dueDays: 0 }],
    });
    expect((await ledgerOf(e.id)).dues.map((d) => d.amountPaise)).toEqual([500_000, 1_688_000, 1_266_000, 1_266_000]);
    // The invoicing job issues a due's invoice on its date: Week 4's, 35 days on.
    expect(await runInvoicingJob(new Date(Date.now() + 35 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect((await ledgerOf(e.id)).dues.map((d) => d.invoiceNumber !== null)).toEqual([true, true, true, false]);
    // The next enrolment takes the plan as it is now.
    const next = await enquiry();
    await setEnquiryStatus(admin, next.id, { status: "enrolled" });
    expect((await ledgerOf(next.id)).dues.map((d) => [d.label, d.amountPaise])).toEqual([["All", 4_720_000]]);
  });

  it("payments settle the oldest dues first, issue their tax invoices and numbered receipts, keep over-payment as credit", async () => {
    const e = await enquiry();
    await logActivity(admin, e.id, { status: "enrolled", billingState: "Karnataka", followUp: "keep" });
    const { payment, settlement } = await recordPayment(admin, e.id, { method: "upi", amountPaise: "10,000", reference: "412345678901" });
    expect(payment).toMatchObject({ amountPaise: 1_000_000, method: "upi", status: "recorded" });
    expect(payment.number).toMatch(new RegExp(`^CSA/${FY}/R\\d{4}$`));
    // Due on the day of enrolment: invoiced when the account opened, before any money came.
    expect(settlement.invoiced).toHaveLength(0);
    const [invoice] = (await ledgerOf(e.id)).invoices;
    // Karnataka is another state: IGST, summing exactly to the total.
    expect(invoice).toMatchObject({ kind: "tax_invoice", sellerGstin: "36AABCU9603R1ZM", buyerState: "Karnataka", sac: "999293", totalPaise: 4_720_000 });
    expect(invoice.taxablePaise + invoice.igstPaise).toBe(invoice.totalPaise);
    expect([invoice.cgstPaise, invoice.sgstPaise, invoice.igstPaise]).toEqual([0, 0, 720_000]);
    expect(invoice.amountWords).toBe("Rupees Forty-Seven Thousand Two Hundred only");

    const more = await recordPayment(admin, e.id, { method: "cash", amountPaise: 3_820_000 });
    expect(more.settlement.creditPaise).toBe(100_000);
    const ledger = await ledgerOf(e.id);
    expect(ledger.dues.map((d) => d.state)).toEqual(["paid"]);
    expect(ledger.totals).toMatchObject({ billedPaise: 4_720_000, receivedPaise: 4_820_000, outstandingPaise: 0, creditPaise: 100_000 });
    const lines = (await listTimeline("enquiry", e.id)).filter((l) => l.kind === "fee").map((l) => l.text);
    expect(lines.some((t) => t?.startsWith(`Payment ₹38,200.00 received (Cash), receipt CSA/${FY}/R`) && t.includes("₹1,000.00 kept as credit"))).toBe(true);

    // A reversal undoes the money (never the invoice): the due is open again for what is missing.
    const reversed = await reversePayment(admin, more.payment.id, { reason: "Cash counted twice" });
    expect(reversed).toMatchObject({ status: "reversed", reversalReason: "Cash counted twice" });
    const after = await ledgerOf(e.id);
    expect(after.dues.map((d) => [d.state, d.paidPaise])).toEqual([["part-paid", 1_000_000]]);
    expect(after.invoices.map((i) => i.status)).toEqual(["issued"]);
    await expect(reversePayment(admin, more.payment.id, { reason: "again" })).rejects.toMatchObject({ code: "already_reversed" });
  });

  it("a credit note cancels an invoice with a reason; the due is invoiced afresh with the next number, no gap", async () => {
    const e = await enquiry();
    await logActivity(admin, e.id, { status: "enrolled", followUp: "keep" });
    expect(await runInvoicingJob()).toBe(0); // invoiced at enrolment already
    const [due] = (await ledgerOf(e.id)).dues;
    const first = (await ledgerOf(e.id)).invoices[0];
    expect(first).toMatchObject({ kind: "tax_invoice", buyerState: "Telangana", igstPaise: 0 });
    expect(first.cgstPaise + first.sgstPaise + first.taxablePaise).toBe(first.totalPaise);
    const { creditNote } = await cancelInvoice(admin, first.id, { reason: "Wrong student name" });
    expect(creditNote).toMatchObject({ kind: "credit_note", refInvoiceId: first.id, reason: "Wrong student name", totalPaise: first.totalPaise });
    expect(creditNote.number).toMatch(new RegExp(`^CSA/${FY}/CN\\d{4}$`));
    const again = await issueInvoiceNow(admin, due.id);
    expect(again.serial).toBeGreaterThan(first.serial);
    await expect(cancelInvoice(admin, first.id, { reason: "twice" })).rejects.toMatchObject({ code: "invoice_cancelled" });
    const serials = (await db().selectFrom("invoices").select("serial").where("series", "=", "invoice").orderBy("serial").execute()).map((r) =>
      Number(r.serial),
    );
    expect(serials).toEqual(serials.map((_, i) => i + 1));
  });

  it("a scholarship waits for an admin; approved, it lowers the unbilled dues", async () => {
    const later = await createFeePlan(admin, {
      name: "In a month",
      courseId: course.id,
      instalments: [{ label: "Fee", percentBp: 10_000, dueFrom: "enrolment", dueDays: 30 }],
    });
    const e = await enquiry();
    await setEnquiryStatus(admin, e.id, { status: "enrolled", feePlanId: later.id });
    const c = await requestConcession(admin, e.id, { kind: "scholarship", amountPaise: 720_000, reason: "Merit scholarship" });
    expect((await ledgerOf(e.id)).totals.billedPaise).toBe(4_720_000);
    await decideConcessionRequest(admin, c.id, true);
    expect((await ledgerOf(e.id)).totals.billedPaise).toBe(4_000_000);
    await expect(decideConcessionRequest(admin, c.id, false)).rejects.toMatchObject({ code: "already_decided" });
  });

  it("every enrolment path opens the account: bulk and the API's status; leaving Enrolled cancels unbilled dues", async () => {
    await createFeePlan(admin, {
      name: "Half now, half in a month",
      courseId: course.id,
      isDefault: true,
      instalments: [
        { label: "Now", percentBp: 5000, dueFrom: "enrolment", dueDays: 0 },
        { label: "Later", percentBp: 5000, dueFrom: "enrolment", dueDays: 30 },
      ],
    });
    const a = await enquiry();
    const b = await enquiry();
    await bulkUpdateEnquiries(admin, { ids: [a.id, b.id], status: "enrolled" });
    expect((await ledgerOf(a.id)).dues).toHaveLength(2);
    expect((await ledgerOf(b.id)).dues).toHaveLength(2);
    await setEnquiryStatus(admin, a.id, { status: "closed" });
    const ledger = await ledgerOf(a.id);
    expect(ledger.account?.status).toBe("ended");
    // The invoiced one stays until staff cancel its invoice with a credit note.
    expect(ledger.dues.map((d) => d.state)).toEqual(["due", "cancelled"]);
  });

  it("a student's UPI report settles nothing until staff confirm it; confirmed once, it is a UPI payment", async () => {
    const e = await enquiry();
    await setEnquiryStatus(admin, e.id, { status: "enrolled" });
    const [due] = (await ledgerOf(e.id)).dues;
    await expect(reportUpiPayment(["someone-else"], due.id, { utr: "412345678901" })).rejects.toMatchObject({ kind: "notFound" });
    await expect(reportUpiPayment([e.id], due.id, { utr: "12345" })).rejects.toMatchObject({ fields: { utr: "Enter the 12-digit UTR from your UPI app" } });
    const report = await reportUpiPayment([e.id], due.id, { utr: "4123 4567 8901" });
    expect(report).toMatchObject({ utr: "412345678901", status: "pending", amountPaise: due.amountPaise });
    expect((await ledgerOf(e.id)).totals.receivedPaise).toBe(0);
    await expect(reportUpiPayment([e.id], due.id, { utr: "412345678901" })).rejects.toMatchObject({
      fields: { utr: expect.stringContaining("already reported") },
    });
    const { payment } = await confirmUpiReport(admin, report.id);
    expect(payment).toMatchObject({ method: "upi", reference: "412345678901", amountPaise: due.amountPaise });
    await expect(confirmUpiReport(admin, report.id)).rejects.toMatchObject({ code: "already_decided" });
    // The course's default plan is half now, half in a month (set above): the report paid the first half.
    expect((await ledgerOf(e.id)).dues.map((d) => d.state)).toEqual(["paid", "upcoming"]);
    const other = await reportUpiPayment([e.id], due.id, { utr: "512345678901" }).catch((error: unknown) => error);
    expect(other).toMatchObject({ kind: "notFound" }); // a paid due takes no report
    const e2 = await enquiry();
    await setEnquiryStatus(admin, e2.id, { status: "enrolled" });
    const r2 = await reportUpiPayment([e2.id], (await ledgerOf(e2.id)).dues[0].id, { utr: "612345678901" });
    await rejectUpiReport(admin, r2.id);
    expect((await ledgerOf(e2.id)).upiReports.map((r) => r.status)).toEqual(["rejected"]);
  });

  it("over random plans and payments, the ledger's sums are exact", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 3 }).map((k) => k * 100_000),
        fc.array(fc.integer({ min: 1, max: 3_000_000 }), { maxLength: 5 }),
        fc.boolean(),
        async (weights, deposit, amounts, reverseFirst) => {
          const total = weights.reduce((s, w) => s + w, 0);
          let left = 10_000;
          const instalments = weights.map((w, i) => {
            const bp = i === weights.length - 1 ? left : Math.floor((w * 10_000) / total);
            left -= bp;
            return { label: `Part ${i + 1}`, percentBp: bp, dueFrom: "batch_start", dueDays: i * 7 };
          });
          const plan = await createFeePlan(admin, { name: "Random", courseId: course.id, depositPaise: deposit, instalments });
          const e = await enquiry();
          await logActivity(admin, e.id, { status: "enrolled", feePlanId: plan.id, followUp: "keep" });
          const payments = [];
          for (const amountPaise of amounts) payments.push((await recordPayment(admin, e.id, { method: "cash", amountPaise })).payment);
          if (reverseFirst && payments.length) await reversePayment(admin, payments[0].id, { reason: "test" });
          const ledger = await ledgerOf(e.id);
          const received = amounts.reduce((s, a) => s + a, 0) - (reverseFirst && payments.length ? amounts[0] : 0);
          const paidToDues = ledger.dues.reduce((s, d) => s + d.paidPaise, 0);
          expect(ledger.totals.billedPaise).toBe(4_720_000);
          expect(ledger.totals.receivedPaise).toBe(received);
          expect(paidToDues + ledger.totals.creditPaise).toBe(received);
          expect(ledger.totals.outstandingPaise).toBe(Math.max(0, 4_720_000 - received));
          expect(ledger.totals.creditPaise).toBe(Math.max(0, received - 4_720_000));
          // Every due money reached has its invoice, and each invoice's parts add up to its total.
          for (const d of ledger.dues) if (d.paidPaise > 0) expect(d.invoiceNumber).not.toBeNull();
          for (const i of ledger.invoices) expect(i.taxablePaise + i.cgstPaise + i.sgstPaise + i.igstPaise).toBe(i.totalPaise);
        },
      ),
      { numRuns: 15, seed: 20260512 },
    );
  });
});
