import { ICS_CONTENT_TYPE } from "~/util/ics.server";
import { upcomingBatchesCalendar } from "~/services/batch-calendar.server";

/** Every upcoming public batch in one calendar: to download, or to subscribe to from a calendar app. */
export async function loader() {
  return new Response(await upcomingBatchesCalendar(), {
    headers: { "Content-Type": ICS_CONTENT_TYPE, "Content-Disposition": 'attachment; filename="cybersoc-academy-batches.ics"' },
  });
}
