import { parseWithSchema } from "~/lib/form-submission";
import { data } from "react-router";
import type { Route } from "./+types/admin.schedules.$id.edit";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref } from "~/lib/list-query";
import { loadCourseOptions } from "~/lib/list-page.server";
import { getSchedule, updateSchedule, UnknownCourseError } from "~/models/schedule.server";
import { SCHEDULE_SAVE_FAILED, scheduleSchema } from "~/schemas/schedule";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ScheduleForm } from "~/components/admin/schedule-form";

export const meta: Route.MetaFunction = () => [{ title: "Edit Schedule | Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const [schedule, courses] = await Promise.all([getSchedule(params.id), loadCourseOptions()]);
  if (!schedule) throw data("Schedule not found", { status: 404 });
  return { schedule, courses };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const submission = parseWithSchema(await request.formData(), scheduleSchema);
  if (submission.status !== "success") return submission.reply();
  const back = listHref("/admin/schedules", new URL(request.url).search);
  try {
    const saved = await updateSchedule(params.id, submission.value);
    if (!saved) return redirectWithFlash(request, back, { kind: "error", message: SCHEDULE_SAVE_FAILED });
  } catch (error) {
    if (error instanceof UnknownCourseError) return submission.reply({ fieldErrors: { course: [error.message] } });
    console.error("[admin] updating a schedule failed:", error);
    return submission.reply({ formErrors: [SCHEDULE_SAVE_FAILED] });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: "Schedule saved." });
}

export default function EditSchedule({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/schedules");
  const { schedule, courses } = loaderData;
  return (
    <DialogRoute title="Edit Schedule" backTo={backTo}>
      <ScheduleForm courses={courses} defaultValue={schedule} lastResult={actionData} cancelTo={backTo} />
    </DialogRoute>
  );
}
