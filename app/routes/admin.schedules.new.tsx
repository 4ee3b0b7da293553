import type { Route } from "./+types/admin.schedules.new";
import { requireStaff } from "~/web/actor.server";
import { formFailureData } from "~/web/admin-actions.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { loadCourseOptions } from "~/web/list-page.server";
import { SCHEDULE_SAVE_FAILED } from "~/schemas/schedule";
import { createSchedule } from "~/services/schedules.server";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ScheduleForm } from "~/components/admin/schedule-form";

export const meta: Route.MetaFunction = () => [{ title: "Add Schedule | Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  return { courses: await loadCourseOptions() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const form = await request.formData();
  try {
    await createSchedule(actor, formToObject(form));
  } catch (error) {
    return formFailureData(error, form, SCHEDULE_SAVE_FAILED, { what: "a schedule" });
  }
  return redirectWithFlash(request, listHref("/admin/schedules", new URL(request.url).search), { kind: "notice", message: "Schedule saved." });
}

export default function NewSchedule({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/schedules");
  return (
    <DialogRoute title="Add New Schedule" backTo={backTo}>
      <ScheduleForm courses={loaderData.courses} lastResult={actionData?.result} cancelTo={backTo} />
    </DialogRoute>
  );
}
