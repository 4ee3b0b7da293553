import type { CourseSummary } from "~/components/site/course-card";
import type { ScheduleSummary } from "~/components/site/schedule-card";
import type { SyllabusView } from "~/components/site/syllabus-dialog";
import type { Course } from "~/models/course.server";
import type { Schedule } from "~/models/schedule.server";
import { data } from "react-router";
import { renderMarkdown } from "./markdown.server";

/**
 * A public page whose data could not be read still renders its failure text and Try Again control, but answers
 * 503 with Retry-After, so search engines and caches do not keep the failure as the page.
 */
export function unavailable<T>(payload: T) {
  return data(payload, { status: 503, headers: { "Retry-After": "5" } });
}

/** Only what the public cards show, so a page's data does not carry every course's whole syllabus. */
export function courseSummary(c: Course): CourseSummary {
  return {
    id: c.id,
    slug: c.slug,
    title: c.title,
    category: c.category,
    duration: c.duration,
    description: c.description,
    image: c.image,
    highlights: c.highlights,
    featured: c.featured,
  };
}

export function scheduleSummary(s: Schedule): ScheduleSummary {
  return {
    id: s.id,
    courseName: s.courseName,
    startDate: s.startDate,
    endDate: s.endDate,
    time: s.time,
    days: s.days,
    mode: s.mode,
    location: s.location,
    seats: s.seats,
    totalSeats: s.totalSeats,
  };
}

/** The syllabus sits under the page's own h2, so its headings move down two levels (h1 becomes h3, at most h6). */
export function demoteHeadings(html: string, by = 2): string {
  return html.replace(/<(\/?)h([1-6])(?=[\s>])/g, (_m, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + by)}`);
}

export function syllabusView(c: Course): SyllabusView {
  return { slug: c.slug, title: c.title, html: demoteHeadings(renderMarkdown(c.syllabus)), file: c.syllabusFile, fileName: c.syllabusFileName };
}
