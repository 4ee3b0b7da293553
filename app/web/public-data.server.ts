import { formatDate } from "~/util/dates";
import type { CourseSummary, ScheduleSummary, SyllabusView } from "./public-views";
import { googleCalendarUrl } from "~/util/google-calendar";
import type { Course } from "~/models/course.server";
import type { Schedule } from "~/models/schedule.server";
import { data } from "react-router";
import { renderMarkdown } from "~/util/markdown.server";

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
    fee: c.fee,
    feeIncludesGst: c.feeIncludesGst,
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
    fee: s.fee,
    feeLabel: s.feeLabel,
    courseFee: s.courseFee,
    feeIncludesGst: s.feeIncludesGst,
    googleCalendarUrl: googleCalendarUrl(s),
    startLabel: formatDate(s.startDate),
    endLabel: formatDate(s.endDate),
  };
}

/**
 * The syllabus sits under the page's own h2, so its headings move down two levels (h1 becomes h3, at most h6).
 * HTML allows a heading at most one level below the heading before it, and an author may skip levels (a
 * syllabus that starts at "##" would put an h4 right after the page's h2). So each heading goes one level
 * below the nearest heading before it that was written at a higher level (skipped levels close up), and a
 * class keeps the size of the level it was written at (app.css): the page looks the same.
 */
export function demoteHeadings(html: string, by = 2): string {
  const parents: { written: number; level: number }[] = [];
  let open = 0;
  return html.replace(/<(\/?)h([1-6])(?=[\s>])/g, (_m, slash: string, digit: string) => {
    // Headings never nest, so a closing tag belongs to the last opening one.
    if (slash) return `</h${open}`;
    const written = Number(digit);
    while (parents.length && parents[parents.length - 1].written >= written) parents.pop();
    const shown = Math.min(6, written + by);
    open = Math.min(6, (parents[parents.length - 1]?.level ?? by) + 1);
    parents.push({ written, level: open });
    return open < shown ? `<h${open} class="syllabus-h${shown}"` : `<h${open}`;
  });
}

export function syllabusView(c: Course): SyllabusView {
  return { slug: c.slug, title: c.title, html: demoteHeadings(renderMarkdown(c.syllabus)), file: c.syllabusFile, fileName: c.syllabusFileName };
}
