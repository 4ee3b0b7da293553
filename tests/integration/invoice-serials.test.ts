import { spawn } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "~db/client.server";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { serialsOf } from "~/models/invoices.server";
import type { StaffActor } from "~/services/actor";
import { setEnquiryStatus } from "~/services/enquiries.server";
import { createFeePlan } from "~/services/fee-plans.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { issueInvoiceNow, takeNumber } from "~/services/invoices.server";
import { updateSiteSettings } from "~/services/site-settings.server";
import { createUserWithoutActor } from "~/services/users.server";
import { financialYear } from "~/util/money";
import { useTestDatabase } from "../helpers/db";

/**
 * Invoice numbers stay consecutive with several app instances issuing at once: two processes, each with its own
 * connection (SQLite's file lock, or a MariaDB pool of 10) issue 100 invoices each, all at the same moment, through
 * the service the screens use. Together they get serials 1 to 200, none twice and none missing; a transaction that
 * rolls back after taking a number leaves no gap.
 */
useTestDatabase();

const ROOT = path.resolve(import.meta.dirname, "../..");
const FY = financialYear();
let admin: StaffActor;
const dueIds: string[] = [];

beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Serial Admin", email: "serial@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  await updateSiteSettings(admin, { gstin: "36AABCU9603R1ZM", invoicePrefix: "SER" }, { partial: true });
  const course = await insertCourse({ title: "Threat Hunting", category: "advanced", description: "Hunt", fee: 20_000, feeIncludesGst: false });
  // Due in a month: not invoiced at enrolment, so the instances below issue every invoice.
  await createFeePlan(admin, {
    name: "In a month",
    courseId: course.id,
    isDefault: true,
    instalments: [{ label: "Fee", percentBp: 10_000, dueFrom: "enrolment", dueDays: 30 }],
  });
  for (let i = 0; i < 201; i++) {
    const e = await insertEnquiry({
      fullName: `Student ${i}`,
      email: `student${i}@example.com`,
      phone: `96${String(50_000_000 + i)}`,
      preferredCourse: "Threat Hunting",
      preferredMode: "online",
    });
    await setEnquiryStatus(admin, e.id, { status: "enrolled" });
    dueIds.push((await ledgerOf(e.id)).dues[0].id);
  }
}, 120_000);

function instance(ids: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "tests/helpers/invoice-issuer.ts"], {
      cwd: ROOT,
      env: { ...process.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`instance exited ${code}: ${err}`))));
    child.stdin.end(JSON.stringify(ids));
  });
}

describe("invoice serials", () => {
  it("two instances issuing 200 invoices at once, the first of the year among them, get serials 1 to 200: no gap, no duplicate", async () => {
    const [a, b] = await Promise.all([instance(dueIds.slice(0, 100)), instance(dueIds.slice(100, 200))]);
    const numbers = [...a, ...b];
    expect(numbers.filter((n) => n.startsWith("error"))).toEqual([]);
    expect(new Set(numbers).size).toBe(200);
    expect(await serialsOf("invoice", FY)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  }, 120_000);
  it("a number taken in a transaction that rolls back is not burnt", async () => {
    await expect(
      inTransaction(async () => {
        await takeNumber("invoice");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const first = await issueInvoiceNow(admin, dueIds[200]);
    expect(first.number).toBe(`SER/${FY}/0201`);
    expect(await serialsOf("invoice", FY)).toEqual(Array.from({ length: 201 }, (_, i) => i + 1));
  });
});
