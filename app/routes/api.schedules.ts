import { scheduleListParams } from "~/schemas/list-params";
import { listSchedules, todayIso } from "~/models/schedule.server";
import { apiActor, endpoint, listQuery, listResponse, oneVersioned, requireApiStaff, shownTo } from "~/web/api.server";
import { audienceOf } from "~/services/publication.server";
import { readApiBody } from "~/web/api-body.server";
import { createSchedule } from "~/services/schedules.server";
import type { Route } from "./+types/api.schedules";

// GET is public (published batches of published courses; staff see every state); ?mode=online|offline also lists hybrid batches (DESIGN.md §4.4); ?upcoming=true hides ended ones.
const handle = endpoint({
  async GET(args) {
    const q = listQuery(args.request, scheduleListParams);
    const actor = await apiActor(args);
    const page = await listSchedules({ ...q, audience: audienceOf(actor), endingFrom: q.upcoming === "true" ? todayIso() : undefined });
    return listResponse({ ...page, data: page.data.map((s) => shownTo(actor, s)) });
  },
  async POST(args) {
    const actor = await requireApiStaff(args);
    return oneVersioned(await createSchedule(actor, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
