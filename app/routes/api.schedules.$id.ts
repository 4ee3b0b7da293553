import { getSchedule } from "~/models/schedule.server";
import { apiActor, endpoint, noContent, one, requireApiStaff } from "~/web/api.server";
import { audienceOf } from "~/services/publication.server";
import { readApiBody } from "~/web/api-body.server";
import { deleteSchedule, updateSchedule } from "~/services/schedules.server";
import { notFound } from "~/services/service-error";
import type { Route } from "./+types/api.schedules.$id";

const handle = endpoint({
  async GET(args) {
    const schedule = await getSchedule(args.params.id!, audienceOf(await apiActor(args)));
    if (!schedule) throw notFound("Schedule");
    return one(schedule);
  },
  async PUT(args) {
    const actor = await requireApiStaff(args);
    // The record as documented: who a raised seat was offered to is the screen's message, not the schedule's data.
    const { offeredTo: _offeredTo, ...saved } = await updateSchedule(actor, args.params.id!, await readApiBody(args.request));
    return one(saved);
  },
  async DELETE(args) {
    await deleteSchedule(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
