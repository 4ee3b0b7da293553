import { data } from "react-router";
import type { Route } from "./+types/admin.schedules.$id.edit";
import { requireStaff } from "~/web/actor.server";
import { formFailureData } from "~/web/admin-actions.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { loadCourseOptions } from "~/web/list-page.server";
import { getSchedule } from "~/models/schedule.server";
import { SCHEDULE_SAVE_FAILED } from "~/schemas/schedule";
import { isServiceError } from "~/services/service-error";
import { updateSchedule } from "~/services/schedules.server";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ScheduleForm } from "~/components/admin/schedule-form";
import { BatchWaitlist } from "~/components/admin/batch-waitlist";
import { formatDateTime } from "~/util/dates";
import { batchWaitlist } from "~/services/waitlist.server";

export const meta: Route.MetaFunction = () => [{ title: "Edit Schedule | Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const [schedule, courses, waitlist] = await Promise.all([getSchedule(params.id), loadCourseOptions(), batchWaitlist(params.id)]);
  if (!schedule) throw data("Schedule not found", { status: 404 });
  const lines = waitlist.map((l) => ({
    id: l.id,
    enquiryId: l.enquiryId,
    fullName: l.fullName,
    email: l.email,
    joined: formatDateTime(l.joinedAt),
    offeredUntil: l.offerExpiresAt ? formatDateTime(l.offerExpiresAt) : null,
  }));
  return { schedule, courses, waitlist: lines };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const form = await request.formData();
  const back = listHref("/admin/schedules", new URL(request.url).search);
  let offeredTo: string[];
  try {
    ({ offeredTo } = await updateSchedule(actor, params.id, formToObject(form)));
  } catch (error) {
    // Deleted meanwhile (another tab, a colleague): back to the list with the spec's message.
    if (isServiceError(error, "notFound")) return redirectWithFlash(request, back, { kind: "error", message: SCHEDULE_SAVE_FAILED });
    return formFailureData(error, form, SCHEDULE_SAVE_FAILED, { what: "a schedule" });
  }
  // Raised seats go to the waitlist first: say who was offered them, so nobody is surprised by a "full" batch.
  const offered = offeredTo.length ? ` A freed seat was offered from the waitlist to ${offeredTo.join(", ")} (held for them until they answer).` : "";
  return redirectWithFlash(request, back, { kind: "notice", message: `Schedule saved.${offered}` });
}

export default function EditSchedule({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/schedules");
  const { schedule, courses, waitlist } = loaderData;
  return (
    <DialogRoute title="Edit Schedule" backTo={backTo}>
      <ScheduleForm courses={courses} defaultValue={schedule} lastResult={actionData?.result} cancelTo={backTo} />
      <BatchWaitlist lines={waitlist} />
    </DialogRoute>
  );
}
