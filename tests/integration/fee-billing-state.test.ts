import { beforeAll, describe, expect, it } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { action as detailsAction } from "~/routes/admin.enquiries.$id";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { createFeePlan } from "~/services/fee-plans.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { issueInvoiceNow } from "~/services/invoices.server";
import { updateSiteSettings } from "~/services/site-settings.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * The student's state (the place of supply) corrected on the enquiry's Fees section: invoices issued after it carry
 * IGST for another state; those already issued stay as they were (an invoice is never edited).
 */
useTestDatabase();

let admin: StaffActor;
beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "State Admin", email: "state@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  await updateSiteSettings(admin, { gstin: "36AABCU9603R1ZM", invoicePrefix: "ST" }, { partial: true });
  const course = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "SOC", fee: 47_200, feeIncludesGst: true });
  await createFeePlan(admin, {
    name: "Half now, half later",
    courseId: course.id,
    isDefault: true,
    instalments: [
      { label: "Now", percentBp: 5000, dueFrom: "enrolment", dueDays: 0 },
      { label: "Later", percentBp: 5000, dueFrom: "enrolment", dueDays: 30 },
    ],
  });
});

describe("the student's state for invoices", () => {
  it("is corrected with a plain form; later invoices follow it, issued ones do not change", async () => {
    const e = await insertEnquiry({
      fullName: "Farhan Ali",
      email: "farhan@example.com",
      phone: "9876500013",
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "online",
    });
    await logActivity(admin, e.id, { status: "enrolled", followUp: "keep" });
    const editor = await staffCookie("editor");
    const out = await run(
      detailsAction,
      makeRequest(`/admin/enquiries/${e.id}`, { cookie: editor, form: { intent: "billing-state", billingState: "Karnataka" } }),
      { id: e.id },
    );
    expect((await flashOf(out))?.message).toBe("The student's state for invoices is now Karnataka (invoices already issued keep theirs).");
    const bad = await run(
      detailsAction,
      makeRequest(`/admin/enquiries/${e.id}`, { cookie: editor, form: { intent: "billing-state", billingState: "Atlantis" } }),
      { id: e.id },
    );
    expect(await flashOf(bad)).toMatchObject({ kind: "error", message: "Choose the student's state" });
    const ledger = await ledgerOf(e.id);
    expect(ledger.account?.billingState).toBe("Karnataka");
    const [first] = ledger.invoices;
    expect(first).toMatchObject({ buyerState: "Telangana", igstPaise: 0 });
    const later = await issueInvoiceNow(admin, ledger.dues[1].id);
    expect(later).toMatchObject({ buyerState: "Karnataka", cgstPaise: 0, sgstPaise: 0, igstPaise: 360_000, totalPaise: 2_360_000 });
    expect(later.taxablePaise + later.igstPaise).toBe(later.totalPaise);
  });
});
