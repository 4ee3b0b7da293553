import { data } from "react-router";
import type { Route } from "./+types/admin.schedules.$id.delete";
import { requireStaff } from "~/web/actor.server";
import { actAndReturn } from "~/web/admin-actions.server";
import { formatDate } from "~/util/dates";
import { listHref } from "~/web/list-query";
import { getSchedule } from "~/models/schedule.server";
import { deleteSchedule } from "~/services/schedules.server";
import { SCHEDULE_DELETE_FAILED } from "~/schemas/schedule";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { useBackTo } from "~/components/admin/dialog-route";

export const meta: Route.MetaFunction = () => [{ title: "Delete Schedule | Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const schedule = await getSchedule(params.id);
  if (!schedule) throw data("Schedule not found", { status: 404 });
  return { schedule };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const back = listHref("/admin/schedules", new URL(request.url).search);
  return actAndReturn(request, back, SCHEDULE_DELETE_FAILED, async () => {
    await deleteSchedule(actor, params.id);
    return "Schedule deleted.";
  });
}

export default function DeleteSchedule({ loaderData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/schedules");
  const { schedule } = loaderData;
  return (
    <ConfirmDeletePage title="Delete Schedule" backTo={backTo}>
      <p>
        Are you sure you want to delete the <strong>{schedule.courseName}</strong> batch from {formatDate(schedule.startDate)} to {formatDate(schedule.endDate)}
        ? This cannot be undone.
      </p>
    </ConfirmDeletePage>
  );
}
