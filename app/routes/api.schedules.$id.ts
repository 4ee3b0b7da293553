import { getSchedule } from "~/models/schedule.server";
import { apiActor, endpoint, noContent, oneVersioned, requireApiStaff, shownTo, withIfMatch } from "~/web/api.server";
import { audienceOf } from "~/services/publication.server";
import { readApiBody } from "~/web/api-body.server";
import { deleteSchedule, updateSchedule } from "~/services/schedules.server";
import { notFound } from "~/services/service-error";
import type { Route } from "./+types/api.schedules.$id";

const handle = endpoint({
  async GET(args) {
    const actor = await apiActor(args);
    const schedule = await getSchedule(args.params.id!, audienceOf(actor));
    if (!schedule) throw notFound("Schedule");
    return oneVersioned(shownTo(actor, schedule));
  },
  async PUT(args) {
    const actor = await requireApiStaff(args);
    // The record as documented: who a raised total's seats were offered to is the screen's message, not the schedule's data.
    const { offeredTo: _offeredTo, ...saved } = await updateSchedule(actor, args.params.id!, withIfMatch(args.request, await readApiBody(args.request)));
    return oneVersioned(saved);
  },
  async DELETE(args) {
    await deleteSchedule(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
