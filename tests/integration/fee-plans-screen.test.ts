import { beforeAll, describe, expect, it } from "vitest";
import { insertCourse, type Course } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { action as plansAction, loader as plansLoader } from "~/routes/admin.fees_.plans";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { createFeePlan, getPlan } from "~/services/fee-plans.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";
import { makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * Staff change a fee plan on the Fee plans screen (not only through the API), with a plain form: the form is filled
 * with the plan as it is, carries the version it was drawn from, and a save from an older version (another tab,
 * another person) is refused with a 409 that shows what the plan holds now. Students already enrolled keep their dues.
 */
useTestDatabase();

let editor = "";
let admin: StaffActor;
let course: Course;

beforeAll(async () => {
  editor = await staffCookie("editor");
  const u = await createUserWithoutActor({ name: "Plan Admin", email: "plan@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  course = await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "SOC", fee: 40_000, feeIncludesGst: true });
});

type Loaded = { editing: { id: string; version: number; form: Record<string, string> } | null };

describe("editing a fee plan on the screen", () => {
  it("opens filled, saves with its version, refuses a stale save with 409, and leaves enrolled students' dues alone", async () => {
    const plan = await createFeePlan(admin, {
      name: "Two parts",
      courseId: course.id,
      isDefault: true,
      depositPaise: 500_000,
      instalments: [
        { label: "On enrolment", percentBp: 5000, dueFrom: "enrolment", dueDays: 0 },
        { label: "Week 4", percentBp: 5000, dueFrom: "batch_start", dueDays: 21 },
      ],
    });
    const e = await insertEnquiry({
      fullName: "Sita Devi",
      email: "sita@example.com",
      phone: "9876500012",
      preferredCourse: course.title,
      preferredMode: "online",
    });
    await logActivity(admin, e.id, { status: "enrolled", followUp: "keep" });
    const duesBefore = (await ledgerOf(e.id)).dues.map((d) => [d.label, d.amountPaise]);

    const opened = (await run(plansLoader, makeRequest(`/admin/fees/plans?edit=${plan.id}`, { cookie: editor }))).body as Loaded;
    expect(opened.editing).toMatchObject({ id: plan.id, version: plan.version });
    expect(opened.editing!.form).toMatchObject({
      name: "Two parts",
      courseId: course.id,
      deposit: "5000.00",
      isDefault: "on",
      label0: "On enrolment",
      share0: "50%",
      days0: "0",
      from0: "enrolment",
      label1: "Week 4",
      share1: "50%",
      days1: "21",
      from1: "batch_start",
    });

    const form = { ...opened.editing!.form, intent: "update", id: plan.id, version: String(plan.version), share0: "40%", share1: "60%" };
    const saved = await run(plansAction, makeRequest("/admin/fees/plans", { cookie: editor, form }));
    expect(saved.status).toBe(302);
    const now = await getPlan(plan.id);
    expect(now.terms.instalments.map((i) => i.percentBp)).toEqual([4000, 6000]);
    expect(now.version).toBe(plan.version + 1);

    // The same form sent again (another tab still showing the old version): refused, nothing changes.
    const stale = await run(plansAction, makeRequest("/admin/fees/plans", { cookie: editor, form: { ...form, share0: "10%", share1: "90%" } }));
    expect(stale.status).toBe(409);
    const body = stale.body as { message: string; editing: Loaded["editing"] };
    expect(body.message).toMatch(/^This fee plan was changed by Test editor at .+ IST\. Here is what it holds now\.$/);
    expect(body.editing).toMatchObject({ id: plan.id, version: now.version, form: { share0: "40%", share1: "60%" } });
    expect((await getPlan(plan.id)).terms.instalments.map((i) => i.percentBp)).toEqual([4000, 6000]);

    expect((await ledgerOf(e.id)).dues.map((d) => [d.label, d.amountPaise])).toEqual(duesBefore);
  });
});
