import { scheduleSchema } from "~/schemas/schedule";
import { createSchedule, listSchedules, SCHEDULE_MODES, todayIso } from "~/models/schedule.server";
import { endpoint, listQuery, listResponse, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import { saveSchedule } from "~/lib/api-schedules.server";
import type { Route } from "./+types/api.schedules";

// GET is public; ?mode=online|offline also lists hybrid batches (DESIGN.md §4.4); ?upcoming=true hides ended ones.
const handle = endpoint({
  async GET({ request }) {
    const q = listQuery(request, { mode: SCHEDULE_MODES, course: "text", upcoming: ["true", "false"] });
    return listResponse(await listSchedules({ ...q, endingFrom: q.upcoming === "true" ? todayIso() : undefined }));
  },
  async POST({ request }) {
    await requireStaff(request);
    const values = validate(scheduleSchema, await readBody(request));
    return one(await saveSchedule(() => createSchedule(values)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
