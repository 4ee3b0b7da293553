import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { ERASED_NAME, feeRecordsKeptUntil, lastExpiredFinancialYear, runInvoiceRetention } from "~/services/fee-privacy.server";
import { recordPayment } from "~/services/payments.server";
import { erasePerson } from "~/services/privacy-erasure.server";
import { updateSiteSettings } from "~/services/site-settings.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";

/**
 * An erased student's invoices and payments keep what tax law asks an invoice and a receipt to show (name, state,
 * amounts, numbers) for 72 months after their year's annual return; the rest of their fee data goes at once, and the
 * names go when the retention period ends.
 */
useTestDatabase();

let admin: StaffActor;
beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Privacy Admin", email: "privacy.fees@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  await updateSiteSettings(admin, { gstin: "36AABCU9603R1ZM" }, { partial: true });
  await insertCourse({ title: "Network Security Specialist", category: "intermediate", description: "Net", fee: 30_000, feeIncludesGst: true });
});

describe("fees and privacy", () => {
  it("keeps invoices and payments for 72 months after the year's annual return (31 December after the year)", () => {
    expect(feeRecordsKeptUntil("2026-27")).toBe("2033-12-31");
    expect(feeRecordsKeptUntil("2025-26", 12)).toBe("2027-12-31");
    expect(lastExpiredFinancialYear(new Date("2034-01-01T00:00:00Z"))).toBe("2026-27");
    expect(lastExpiredFinancialYear(new Date("2033-12-31T00:00:00Z"))).toBe("2025-26");
  });

  it("an erasure keeps the invoice's and the receipt's name, state, amounts and numbers, and ends the billing", async () => {
    const e = await insertEnquiry({
      fullName: "Sana Qureshi",
      email: "sana@example.com",
      phone: "9876512345",
      preferredCourse: "Network Security Specialist",
      preferredMode: "online",
    });
    await logActivity(admin, e.id, { status: "enrolled", billingState: "Maharashtra", followUp: "keep" });
    await recordPayment(admin, e.id, { method: "upi", amountPaise: 1_000_000, reference: "512345678901", note: "Paid from her father's account" });
    const before = await ledgerOf(e.id);
    await erasePerson(admin, { email: "sana@example.com" });
    const after = await ledgerOf(e.id);
    expect(after.invoices.map((i) => [i.number, i.buyerName, i.buyerState, i.totalPaise, i.igstPaise])).toEqual(
      before.invoices.map((i) => [i.number, "Sana Qureshi", "Maharashtra", i.totalPaise, i.igstPaise]),
    );
    expect(after.payments.map((p) => [p.number, p.payerName, p.amountPaise, p.reference, p.note])).toEqual([
      [before.payments[0].number, "Sana Qureshi", 1_000_000, "512345678901", ""],
    ]);
    expect(after.account?.status).toBe("ended");

    // Past the retention period, the names go too.
    expect(await runInvoiceRetention(new Date("2099-01-01T00:00:00Z"))).toBeGreaterThanOrEqual(2);
    const names = await db().selectFrom("invoices").select("buyerName").where("enquiryId", "=", e.id).execute();
    expect(names.map((r) => r.buyerName)).toEqual([ERASED_NAME]);
  });
});
