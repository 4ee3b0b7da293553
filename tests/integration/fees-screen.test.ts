import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { insertSchedule } from "~/models/schedule.server";
import { loader as feesLoader } from "~/routes/admin.fees";
import { loader as csvLoader } from "~/routes/admin.fees_.export[.]csv";
import { loader as dashboardLoader } from "~/routes/admin.dashboard";
import { action as detailsAction } from "~/routes/admin.enquiries.$id";
import { action as plansAction, loader as plansLoader } from "~/routes/admin.fees_.plans";
import { renderDigestMail } from "~/infra/digest-mail.server";
import { digestFor } from "~/services/digest.server";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { createFeePlan } from "~/services/fee-plans.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { createUserWithoutActor } from "~/services/users.server";
import { siteToday } from "~/util/dates";
import { addDays } from "~/util/fee-schedule";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * The Fees screen as staff use it each morning: overdue first (with days), due today, upcoming, by batch and course,
 * filters in the URL; the CSV of the view; collected this month, outstanding and overdue on it and the dashboard;
 * and the enquiry's Record payment form, posted as a browser without JavaScript posts it.
 */
useTestDatabase();

const today = siteToday();
let editor = "";
let admin: StaffActor;
let batchId = "";
let enquiryId = "";

beforeAll(async () => {
  editor = await staffCookie("editor");
  const u = await createUserWithoutActor({ name: "Screen Admin", email: "screen@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  const course = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "SOC", fee: 40_000, feeIncludesGst: true });
  const batch = await insertSchedule({
    course: course.id,
    startDate: addDays(today, -20),
    endDate: addDays(today, 60),
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    seats: 10,
    totalSeats: 10,
  });
  batchId = batch.id;
  // Dues 20 days ago (the batch start), today and in 10 days.
  const plan = await createFeePlan(admin, {
    name: "Three parts",
    scheduleId: batch.id,
    isDefault: true,
    instalments: [
      { label: "First", percentBp: 4000, dueFrom: "batch_start", dueDays: 0 },
      { label: "Second", percentBp: 3000, dueFrom: "batch_start", dueDays: 20 },
      { label: "Third", percentBp: 3000, dueFrom: "batch_start", dueDays: 30 },
    ],
  });
  const e = await insertEnquiry({
    fullName: "Ravi Teja",
    email: "ravi.teja@example.com",
    phone: "9876500011",
    preferredCourse: course.title,
    preferredMode: "online",
    scheduleId: batch.id,
  });
  enquiryId = e.id;
  await logActivity(admin, e.id, { status: "enrolled", feePlanId: plan.id, followUp: "keep" });
});

const screen = async (query: string) =>
  (await run(feesLoader, makeRequest(`/admin/fees${query}`, { cookie: editor }))).body as {
    rows: { label: string; daysOverdue: number; leftPaise: number; billingName: string }[];
    total: number;
    figures: { collectedThisMonthPaise: number; outstandingPaise: number; overduePaise: number };
  };

describe("the Fees screen", () => {
  it("lists overdue dues first with their days, then today's and upcoming ones, filtered by batch or course", async () => {
    // Enrolled late: the first due's date (the batch start, 20 days ago) is before the enrolment, so it falls due on
    // the day, like the second (20 days after the start); the third is in 10 days.
    expect((await screen("?view=today")).rows.map((r) => [r.label, r.leftPaise])).toEqual([
      ["First", 1_600_000],
      ["Second", 1_200_000],
    ]);
    expect((await screen("?view=upcoming")).rows.map((r) => r.label)).toEqual(["Third"]);
    expect((await screen("?view=overdue")).rows).toEqual([]);
    expect((await screen(`?view=all&batch=${batchId}`)).total).toBe(3);
    expect((await screen("?view=all&course=Another%20course")).total).toBe(0);
    const figures = (await screen("")).figures;
    expect(figures).toEqual({ collectedThisMonthPaise: 0, outstandingPaise: 4_000_000, overduePaise: 0 });
    const dash = (await run(dashboardLoader, makeRequest("/admin/dashboard", { cookie: editor }))).body as { fees: typeof figures };
    expect(dash.fees).toEqual(figures);
  });

  it("exports the view as CSV with rupees and Hyderabad dates", async () => {
    const res = await csvLoader({
      request: makeRequest("/admin/fees/export.csv?view=all", { cookie: editor }),
      params: {},
      context: { cspNonce: "", clientIp: "127.0.0.1" },
    } as never);
    const rows = parse((await (res as Response).text()).replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.Student, r.Due, r["Due date (IST)"], r["Left to pay (INR)"], r.Status])).toEqual([
      ["Ravi Teja", "First", today, "16000.00", "Due today"],
      ["Ravi Teja", "Second", today, "12000.00", "Due today"],
      ["Ravi Teja", "Third", addDays(today, 10), "12000.00", "Upcoming"],
    ]);
  });

  it("Record payment on the enquiry's details works as a plain form post, and the figures follow", async () => {
    const out = await run(
      detailsAction,
      makeRequest(`/admin/enquiries/${enquiryId}`, {
        cookie: editor,
        form: { intent: "payment", method: "cash", amountPaise: "16,000", receivedOn: today, formKey: "k1.payment" },
      }),
      { id: enquiryId },
    );
    expect(out.status).toBe(302);
    expect(out.location).toBe(`/admin/enquiries/${enquiryId}#fees`);
    expect((await flashOf(out))?.message).toMatch(/^Payment of ₹16,000\.00 recorded: receipt /);
    // The same form posted twice records nothing more.
    const again = await run(
      detailsAction,
      makeRequest(`/admin/enquiries/${enquiryId}`, {
        cookie: editor,
        form: { intent: "payment", method: "cash", amountPaise: "16,000", receivedOn: today, formKey: "k1.payment" },
      }),
      { id: enquiryId },
    );
    expect((await flashOf(again))?.kind).toBe("error");
    expect((await ledgerOf(enquiryId)).payments).toHaveLength(1);
    expect((await screen("?view=today")).rows.map((r) => r.label)).toEqual(["Second"]);
    expect((await screen("")).figures).toMatchObject({ collectedThisMonthPaise: 1_600_000, outstandingPaise: 2_400_000 });
  });

  it("staff define a plan on the Fee plans screen with a plain form: percentages, days after the batch starts, a deposit", async () => {
    const form = {
      name: "40-30-30",
      courseId: "",
      scheduleId: batchId,
      deposit: "5,000",
      label0: "On enrolment",
      share0: "40%",
      days0: "0",
      from0: "enrolment",
      label1: "Week 4",
      share1: "30%",
      days1: "21",
      from1: "batch_start",
      label2: "Week 8",
      share2: "30%",
      days2: "49",
      from2: "batch_start",
    };
    const out = await run(plansAction, makeRequest("/admin/fees/plans", { cookie: editor, form }));
    expect(out.status).toBe(302);
    const { plans } = (await run(plansLoader, makeRequest("/admin/fees/plans", { cookie: editor }))).body as { plans: { name: string; terms: unknown }[] };
    expect(plans.find((p) => p.name === "40-30-30")?.terms).toEqual({
      depositPaise: 500_000,
      earlyBird: null,
      instalments: [
        { label: "On enrolment", percentBp: 4000, amountPaise: null, dueFrom: "enrolment", dueDays: 0 },
        { label: "Week 4", percentBp: 3000, amountPaise: null, dueFrom: "batch_start", dueDays: 21 },
        { label: "Week 8", percentBp: 3000, amountPaise: null, dueFrom: "batch_start", dueDays: 49 },
      ],
    });
    const bad = await run(plansAction, makeRequest("/admin/fees/plans", { cookie: editor, form: { ...form, share2: "20%" } }));
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string; typed: Record<string, string> }).message).toBe("The instalments' percentages must add up to 100 %");
    expect((bad.body as { typed: Record<string, string> }).typed.share2).toBe("20%");
  });

  it("a concession asked for on the details (with a reason) waits for an admin; an editor cannot approve it", async () => {
    const ask = await run(
      detailsAction,
      makeRequest(`/admin/enquiries/${enquiryId}`, {
        cookie: editor,
        form: { intent: "concession", kind: "scholarship", amountPaise: "2,000", reason: "Sibling discount" },
      }),
      { id: enquiryId },
    );
    expect((await flashOf(ask))?.message).toBe("Scholarship of ₹2,000.00 asked for: an admin approves it.");
    const [pending] = (await ledgerOf(enquiryId)).concessions;
    const byEditor = await run(
      detailsAction,
      makeRequest(`/admin/enquiries/${enquiryId}`, { cookie: editor, form: { intent: "approve-concession", concessionId: pending.id } }),
      {
        id: enquiryId,
      },
    );
    expect(byEditor.status).toBe(403);
    const adminCookie = await staffCookie("admin");
    const ok = await run(
      detailsAction,
      makeRequest(`/admin/enquiries/${enquiryId}`, { cookie: adminCookie, form: { intent: "approve-concession", concessionId: pending.id } }),
      {
        id: enquiryId,
      },
    );
    expect((await flashOf(ok))?.message).toBe("Scholarship of ₹2,000.00 approved.");
    expect((await ledgerOf(enquiryId)).totals.billedPaise).toBe(3_800_000);
  });

  it("the daily digest carries collected this month, outstanding and overdue, linking to the Fees screen", async () => {
    const digest = await digestFor({ id: admin.user.id, name: admin.user.name, email: admin.user.email, role: "admin" }, new Date());
    expect(digest.fees).toMatchObject({ collectedThisMonthPaise: 1_600_000, outstandingPaise: 2_200_000, link: expect.stringMatching(/\/admin\/fees$/) });
    const mail = renderDigestMail(digest);
    expect(mail.text).toContain("Fees: ₹16,000.00 collected this month, ₹22,000.00 outstanding, ₹0.00 overdue.");
  });
});
