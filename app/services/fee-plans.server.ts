import { inTransaction } from "~db/client.server";
import { getCourse, getCourseByTitle } from "~/models/course.server";
import {
  archiveFeePlan,
  clearDefaultPlans,
  defaultPlanFor,
  getFeePlan,
  insertFeePlan,
  listFeePlans,
  updateFeePlanRow,
  type FeePlan,
  type FeePlanRow,
} from "~/models/fees.server";
import { getSchedule } from "~/models/schedule.server";
import { feePlanSchema, type FeePlanInput } from "~/schemas/fees";
import { EDIT_CONFLICT_CODE, writeGuardSchema } from "~/schemas/write-guard";
import { formatDateTime } from "~/util/dates";
import type { PlanTerms } from "~/util/fee-schedule";
import type { StaffActor } from "./actor";
import { record } from "./audit.server";
import { conflict, invalid, notFound } from "./service-error";
import { parseInput } from "./validation";

/**
 * Fee plans (issue 38): how a course's or a batch's fee is paid. Staff define them; one plan per course and one per
 * batch may be the default (a batch's wins over its course's; with none, full payment on enrolment). Enrolments copy
 * a plan's dues when they happen (app/services/fee-ledger.server.ts), so editing or archiving a plan changes no
 * student's schedule already made.
 */

function toRow(values: FeePlanInput): FeePlanRow {
  const terms: PlanTerms = {
    instalments: values.instalments.map((i) => ({
      label: i.label,
      percentBp: i.percentBp ?? null,
      amountPaise: i.amountPaise ?? null,
      dueFrom: i.dueFrom,
      dueDays: i.dueDays,
    })),
    depositPaise: values.depositPaise,
    earlyBird: values.earlyBirdUntil
      ? { until: values.earlyBirdUntil, discountPaise: values.earlyBirdDiscountPaise ?? null, discountBp: values.earlyBirdDiscountBp ?? null }
      : null,
  };
  return { name: values.name, courseId: values.courseId ?? null, scheduleId: values.scheduleId ?? null, isDefault: values.isDefault, terms };
}

async function checkTargets(row: FeePlanRow): Promise<FeePlanRow> {
  if (row.scheduleId) {
    const batch = await getSchedule(row.scheduleId);
    if (!batch) throw invalid({ scheduleId: "Choose a batch" });
    // A batch's plan is also its course's: the enrolment checks both.
    return { ...row, courseId: batch.course };
  }
  if (row.courseId && !(await getCourse(row.courseId))) throw invalid({ courseId: "Choose a course" });
  return row;
}

export function planConflict(now: FeePlan) {
  return conflict(
    `This fee plan was changed by ${now.updatedBy ?? "someone"} at ${formatDateTime(now.updatedAt)} IST. Here is what it holds now.`,
    {},
    EDIT_CONFLICT_CODE,
  );
}

export async function createFeePlan(actor: StaffActor, input: unknown): Promise<FeePlan> {
  const row = await checkTargets(toRow(parseInput(feePlanSchema, input)));
  return inTransaction(async () => {
    const plan = await insertFeePlan(row, actor.user.name);
    if (plan.isDefault) await clearDefaultPlans(plan, plan.id);
    await record(actor, "create", "fee_plan", plan.id, `${plan.name}${plan.isDefault ? " (default)" : ""}`);
    return plan;
  });
}

/** Replaces a plan's terms (with the version it was read at: a stale write is a 409). Enrolments already made keep theirs. */
export async function updateFeePlan(actor: StaffActor, id: string, input: unknown): Promise<FeePlan> {
  const row = await checkTargets(toRow(parseInput(feePlanSchema, input)));
  const { version } = parseInput(writeGuardSchema, input);
  return inTransaction(async () => {
    const before = await getFeePlan(id);
    if (!before || before.archived) throw notFound("Fee plan");
    if (version !== undefined && version !== before.version) throw planConflict(before);
    const saved = await updateFeePlanRow(id, before.version, row, actor.user.name);
    if (!saved) throw planConflict((await getFeePlan(id))!);
    if (saved.isDefault) await clearDefaultPlans(saved, saved.id);
    await record(actor, "update", "fee_plan", id, `${saved.name}: terms changed (enrolments already made keep their dues)`);
    return saved;
  });
}

/** Archived plans are offered no more; the enrolments made on them keep their dues. */
export async function archivePlan(actor: StaffActor, id: string): Promise<void> {
  await inTransaction(async () => {
    const plan = await getFeePlan(id);
    if (!plan || !(await archiveFeePlan(id, actor.user.name))) throw notFound("Fee plan");
    await record(actor, "delete", "fee_plan", id, `${plan.name} archived`);
  });
}

export async function getPlan(id: string): Promise<FeePlan> {
  const plan = await getFeePlan(id);
  if (!plan) throw notFound("Fee plan");
  return plan;
}

export const listPlans = () => listFeePlans();

/** The plans staff may choose for an enrolment in this batch (or course): its own, its course's and the general ones. */
export async function plansFor(scheduleId: string | null, courseId: string | null): Promise<FeePlan[]> {
  return (await listFeePlans()).filter((p) => (!p.scheduleId || p.scheduleId === scheduleId) && (!p.courseId || p.courseId === courseId));
}

/** For the desk's enrolment: the plans that fit the enquiry's batch (or course), and what applies when none is chosen. */
export async function enrolmentPlanChoices(enquiry: {
  scheduleId: string | null;
  preferredCourse: string;
}): Promise<{ plans: FeePlan[]; defaultName: string }> {
  const batch = enquiry.scheduleId ? await getSchedule(enquiry.scheduleId) : null;
  const courseId = batch?.course ?? (await getCourseByTitle(enquiry.preferredCourse))?.id ?? null;
  const plans = await plansFor(batch?.id ?? null, courseId);
  const chosen = await defaultPlanFor(batch?.id ?? null, courseId);
  return { plans, defaultName: chosen?.name ?? "full payment on enrolment" };
}
