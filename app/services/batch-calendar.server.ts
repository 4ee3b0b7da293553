import { batchCalendar, withCoursePages, type CalendarFile } from "~/infra/batch-calendar-file.server";
import { buildCalendar } from "~/util/ics.server";
import { publicOrigin } from "~/util/origin.server";
import { SITE } from "~/config/site";
import { listUpcomingSchedules } from "~/models/schedule.server";

/**
 * Public calendar files of batches. Which batches the public may see is the schedules model's public read
 * (listUpcomingSchedules, the one /schedules lists): a batch's file and the feed show exactly those, so a batch
 * the page does not show (ended, or not public) has no public calendar either.
 */

export const FEED_NAME = `${SITE.name} batches`;

/** `/schedules/<id>.ics`: one public batch, or null when the public list would not show it. */
export async function publicBatchCalendar(id: string): Promise<CalendarFile | null> {
  const [batch] = await listUpcomingSchedules({ id });
  if (!batch) return null;
  return batchCalendar(batch);
}

/** `/schedules.ics`: every upcoming public batch, soonest first. */
export async function upcomingBatchesCalendar(): Promise<string> {
  return buildCalendar(await withCoursePages(await listUpcomingSchedules()), publicOrigin(), FEED_NAME);
}
