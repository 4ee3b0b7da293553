import { scheduleSchema } from "~/schemas/schedule";
import { deleteSchedule, getSchedule, updateSchedule } from "~/models/schedule.server";
import { endpoint, noContent, notFound, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import { saveSchedule } from "~/lib/api-schedules.server";
import type { Route } from "./+types/api.schedules.$id";

const handle = endpoint({
  async GET({ params }) {
    const schedule = await getSchedule(params.id!);
    if (!schedule) throw notFound("Schedule");
    return one(schedule);
  },
  async PUT({ request, params }) {
    await requireStaff(request);
    if (!(await getSchedule(params.id!))) throw notFound("Schedule");
    const values = validate(scheduleSchema, await readBody(request));
    const saved = await saveSchedule(() => updateSchedule(params.id!, values));
    if (!saved) throw notFound("Schedule");
    return one(saved);
  },
  async DELETE({ request, params }) {
    await requireStaff(request);
    if (!(await deleteSchedule(params.id!))) throw notFound("Schedule");
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
