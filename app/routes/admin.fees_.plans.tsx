import type { Route } from "./+types/admin.fees_.plans";
import { FeePlanForm, FeePlanList } from "~/components/admin/fee-plans";
import { PageHeader } from "~/components/admin/page-header";
import { requireStaff } from "~/web/actor.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { planFormToInput, planToForm } from "~/web/fee-plan-form";
import { listAllCourses } from "~/models/course.server";
import { listAllSchedules } from "~/models/schedule.server";
import { archivePlan, createFeePlan, getPlan, listPlans, updateFeePlan } from "~/services/fee-plans.server";
import { isServiceError } from "~/services/service-error";
import { EDIT_CONFLICT_CODE } from "~/schemas/write-guard";
import { data } from "react-router";

export const meta: Route.MetaFunction = () => [{ title: "Fee plans · Admin" }];

/** A plan being edited: its form's fields as it is now, and the version they were drawn from. */
export type EditingPlan = { id: string; version: number; form: Record<string, string> };

async function editingOf(id: string): Promise<EditingPlan | null> {
  try {
    const plan = await getPlan(id);
    return plan.archived ? null : { id: plan.id, version: plan.version, form: planToForm(plan) };
  } catch (error) {
    if (isServiceError(error, "notFound")) return null;
    throw error;
  }
}

/**
 * How courses' and batches' fees are paid: the plans staff define, a form for a new one, and (?edit=<id>) the same
 * form filled with a plan to change it (no JavaScript needed).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const edit = new URL(request.url).searchParams.get("edit");
  const [plans, courses, batches, editing] = await Promise.all([listPlans(), listAllCourses(), listAllSchedules(), edit ? editingOf(edit) : null]);
  return {
    plans,
    courses: courses.map((c) => ({ id: c.id, title: c.title })),
    batches: batches.map((b) => ({ id: b.id, label: `${b.courseName}, ${b.startDate}` })),
    editing,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const input = formToObject(await request.formData());
  const typed = Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === "string")) as Record<string, string>;
  const id = String(input.id ?? "");
  try {
    if (input.intent === "archive") {
      await archivePlan(actor, id);
      return redirectWithFlash(request, "/admin/fees/plans", { kind: "notice", message: "Plan archived: enrolments made on it keep their dues." });
    }
    if (input.intent === "update") {
      const plan = await updateFeePlan(actor, id, { ...planFormToInput(input), version: input.version });
      return redirectWithFlash(request, "/admin/fees/plans", {
        kind: "notice",
        message: `Plan "${plan.name}" saved: students already enrolled keep their dues.`,
      });
    }
    const plan = await createFeePlan(actor, planFormToInput(input));
    return redirectWithFlash(request, "/admin/fees/plans", { kind: "notice", message: `Plan "${plan.name}" saved.` });
  } catch (error) {
    if (!isServiceError(error)) throw error;
    const updating = input.intent === "update";
    // A save from an older version: the form shows what the plan holds now (and its version), to change again.
    const current = updating && error.code === EDIT_CONFLICT_CODE ? await editingOf(id) : null;
    return data(
      {
        message: error.message,
        fields: error.fields,
        typed: current ? current.form : typed,
        editing: current ?? (updating ? { id, version: Number(input.version) || 0, form: typed } : null),
      },
      { status: error.status },
    );
  }
}

export default function FeePlans({ loaderData, actionData }: Route.ComponentProps) {
  const editing = actionData ? actionData.editing : loaderData.editing;
  return (
    <>
      <PageHeader
        title="Fee plans"
        description="How a course's or a batch's fee is paid. The batch's default plan is used when a student enrols, else the course's, else full payment. Changing or archiving a plan never changes the dues of students already enrolled."
      />
      <FeePlanList plans={loaderData.plans} courses={loaderData.courses} batches={loaderData.batches} />
      <FeePlanForm
        key={editing ? `${editing.id}:${editing.version}` : "new"}
        courses={loaderData.courses}
        batches={loaderData.batches}
        editing={editing ?? undefined}
        refusal={actionData ?? undefined}
      />
    </>
  );
}
