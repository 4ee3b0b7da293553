import type { Route } from "./+types/admin.fees_.plans";
import { FeePlanForm, FeePlanList } from "~/components/admin/fee-plans";
import { PageHeader } from "~/components/admin/page-header";
import { requireStaff } from "~/web/actor.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { planFormToInput } from "~/web/fee-plan-form";
import { listAllCourses } from "~/models/course.server";
import { listAllSchedules } from "~/models/schedule.server";
import { archivePlan, createFeePlan, listPlans } from "~/services/fee-plans.server";
import { isServiceError } from "~/services/service-error";
import { data } from "react-router";

export const meta: Route.MetaFunction = () => [{ title: "Fee plans · Admin" }];

/** How courses' and batches' fees are paid: the plans staff define, and a form for a new one (no JavaScript needed). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const [plans, courses, batches] = await Promise.all([listPlans(), listAllCourses(), listAllSchedules()]);
  return {
    plans,
    courses: courses.map((c) => ({ id: c.id, title: c.title })),
    batches: batches.map((b) => ({ id: b.id, label: `${b.courseName}, ${b.startDate}` })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const input = formToObject(await request.formData());
  try {
    if (input.intent === "archive") {
      await archivePlan(actor, String(input.id ?? ""));
      return redirectWithFlash(request, "/admin/fees/plans", { kind: "notice", message: "Plan archived: enrolments made on it keep their dues." });
    }
    const plan = await createFeePlan(actor, planFormToInput(input));
    return redirectWithFlash(request, "/admin/fees/plans", { kind: "notice", message: `Plan "${plan.name}" saved.` });
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return data(
      {
        message: error.message,
        fields: error.fields,
        typed: Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === "string")) as Record<string, string>,
      },
      { status: error.status },
    );
  }
}

export default function FeePlans({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        title="Fee plans"
        description="How a course's or a batch's fee is paid. The batch's default plan is used when a student enrols, else the course's, else full payment. Changing or archiving a plan never changes the dues of students already enrolled."
      />
      <FeePlanList plans={loaderData.plans} courses={loaderData.courses} batches={loaderData.batches} />
      <FeePlanForm courses={loaderData.courses} batches={loaderData.batches} refusal={actionData ?? undefined} />
    </>
  );
}
