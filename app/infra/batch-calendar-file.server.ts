import { listCourseTitles } from "~/models/course.server";
import type { Schedule } from "~/models/schedule.server";
import { buildCalendar, calendarFileName, type CalendarBatch } from "~/util/ics.server";
import { publicOrigin } from "~/util/origin.server";

/**
 * Batches as calendar entries with their course page's address (/courses when the course is gone or not
 * public), for the calendar routes and the enrolment e-mail's attachment. Which batches is the caller's rule.
 */
export async function withCoursePages(batches: Schedule[]): Promise<CalendarBatch[]> {
  if (!batches.length) return [];
  const slugs = new Map((await listCourseTitles()).map((c) => [c.id, c.slug]));
  const origin = publicOrigin();
  return batches.map((b) => {
    const slug = slugs.get(b.course);
    return { ...b, url: slug ? `${origin}/courses/${encodeURIComponent(slug)}` : `${origin}/courses` };
  });
}

export type CalendarFile = { text: string; fileName: string };

/** One batch's file as it is now, whatever its state (the enrolment e-mail's attachment: the student is in it), and its course page. */
export async function batchCalendar(batch: Schedule): Promise<CalendarFile & { coursePage: string }> {
  const [entry] = await withCoursePages([batch]);
  return { text: buildCalendar([entry], publicOrigin()), fileName: calendarFileName(batch), coursePage: entry.url };
}
