import { ICS_CONTENT_TYPE } from "~/util/ics.server";
import { publicBatchCalendar } from "~/services/batch-calendar.server";
import type { Route } from "./+types/schedules.$id[.]ics";

/** One upcoming public batch as a calendar file ("Add to calendar" on /schedules); the page cache keeps it. */
export async function loader({ params }: Route.LoaderArgs) {
  const file = await publicBatchCalendar(params.id);
  if (!file) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(file.text, {
    headers: { "Content-Type": ICS_CONTENT_TYPE, "Content-Disposition": `attachment; filename="${file.fileName}"` },
  });
}
