import { afterAll } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { updateSiteSettings } from "~/services/site-settings.server";
import { createUserWithoutActor } from "~/services/users.server";
import { startRazorpaySim, type RazorpaySim } from "./razorpay-sim";

/**
 * What the fees tests share: Razorpay's local stand-in with the app's settings pointing at it, a staff member, the
 * institute's GST settings with the SOC course at ₹47,200 (GST included), and an enrolled student with their first due.
 */

/** Starts the Razorpay stand-in and points the app's Razorpay settings at it (before the database is opened). */
export async function useRazorpaySim(): Promise<RazorpaySim> {
  const sim = await startRazorpaySim();
  Object.assign(process.env, {
    RAZORPAY_KEY_ID: sim.keyId,
    RAZORPAY_KEY_SECRET: sim.keySecret,
    RAZORPAY_WEBHOOK_SECRET: sim.webhookSecret,
    RAZORPAY_API_URL: sim.url,
    PUBLIC_URL: "https://academy.example",
    TRUST_PROXY: "true",
  });
  afterAll(() => sim.close());
  return sim;
}

export async function staffActor(name: string, email: string, role: "admin" | "editor"): Promise<StaffActor> {
  const u = await createUserWithoutActor({ name, email, password: "long-enough-password", role });
  return { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
}

/** GSTIN and an invoice prefix of the test's own (more settings may be given), and the course the students enrol in. */
export async function feesSettingsAndCourse(admin: StaffActor, settings: { invoicePrefix: string } & Record<string, string>): Promise<void> {
  await updateSiteSettings(admin, { gstin: "36AABCU9603R1ZM", ...settings }, { partial: true });
  await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "SOC", fee: 47_200, feeIncludesGst: true });
}

/** A new student of the SOC course, enrolled by `admin`: the enquiry and its first due. */
export async function enrolledStudent(admin: StaffActor, name: string, n: number, phonePrefix: string) {
  const e = await insertEnquiry({
    fullName: `${name} ${n}`,
    email: `${name.toLowerCase()}${n}@example.com`,
    phone: `${phonePrefix}${String(60_000_000 + n)}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
  });
  await logActivity(admin, e.id, { status: "enrolled", followUp: "keep" });
  const [due] = (await ledgerOf(e.id)).dues;
  return { e, due };
}
