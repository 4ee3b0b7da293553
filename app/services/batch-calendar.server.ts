import { buildCalendar, calendarFileName, type CalendarBatch } from "~/lib/ics.server";
import { publicOrigin } from "~/lib/origin.server";
import { SITE } from "~/config/site";
import { listCourseTitles } from "~/models/course.server";
import { listUpcomingSchedules, type Schedule } from "~/models/schedule.server";

/**
 * Calendar files of batches. Which batches the public may see is the schedules model's public read
 * (listUpcomingSchedules, the one /schedules lists): a batch's file and the feed show exactly those, so a batch
 * the page does not show (ended, or not public) has no public calendar either.
 */

export type CalendarFile = { text: string; fileName: string };

export const FEED_NAME = `${SITE.name} batches`;

/** Each batch with its course page's address (/courses when the course is gone). */
async function withCoursePages(batches: Schedule[]): Promise<CalendarBatch[]> {
  if (!batches.length) return [];
  const slugs = new Map((await listCourseTitles()).map((c) => [c.id, c.slug]));
  const origin = publicOrigin();
  return batches.map((b) => {
    const slug = slugs.get(b.course);
    return { ...b, url: slug ? `${origin}/courses/${encodeURIComponent(slug)}` : `${origin}/courses` };
  });
}

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

/** One batch's file as it is now, whatever its state (the enrolment e-mail's attachment: the student is in it), and its course page. */
export async function batchCalendar(batch: Schedule): Promise<CalendarFile & { coursePage: string }> {
  const [entry] = await withCoursePages([batch]);
  return { text: buildCalendar([entry], publicOrigin()), fileName: calendarFileName(batch), coursePage: entry.url };
}
