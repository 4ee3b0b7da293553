import { parseWithSchema } from "~/lib/form-submission";
import type { Route } from "./+types/admin.schedules.new";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref } from "~/lib/list-query";
import { createSchedule, UnknownCourseError } from "~/models/schedule.server";
import { loadCourseOptions } from "~/lib/list-page.server";
import { SCHEDULE_SAVE_FAILED, scheduleSchema } from "~/schemas/schedule";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ScheduleForm } from "~/components/admin/schedule-form";

export const meta: Route.MetaFunction = () => [{ title: "Add Schedule | Admin" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return { courses: await loadCourseOptions() };
}

export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  const submission = parseWithSchema(await request.formData(), scheduleSchema);
  if (submission.status !== "success") return submission.reply();
  try {
    await createSchedule(submission.value);
  } catch (error) {
    if (error instanceof UnknownCourseError) return submission.reply({ fieldErrors: { course: [error.message] } });
    console.error("[admin] creating a schedule failed:", error);
    return submission.reply({ formErrors: [SCHEDULE_SAVE_FAILED] });
  }
  return redirectWithFlash(request, listHref("/admin/schedules", new URL(request.url).search), { kind: "notice", message: "Schedule saved." });
}

export default function NewSchedule({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/schedules");
  return (
    <DialogRoute title="Add New Schedule" backTo={backTo}>
      <ScheduleForm courses={loaderData.courses} lastResult={actionData} cancelTo={backTo} />
    </DialogRoute>
  );
}
