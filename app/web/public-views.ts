import type { Course } from "~/models/course.server";
import type { Schedule } from "~/models/schedule.server";

/**
 * What the public pages show of a course, a batch and a syllabus: built on the server (public-data.server.ts),
 * drawn by the site's components. Defined here, a layer below both, so neither imports the other for a type.
 */
export type CourseSummary = Pick<
  Course,
  "id" | "slug" | "title" | "category" | "duration" | "description" | "image" | "highlights" | "featured" | "fee" | "feeIncludesGst"
>;

export type ScheduleSummary = Pick<
  Schedule,
  | "id"
  | "courseName"
  | "startDate"
  | "endDate"
  | "time"
  | "days"
  | "mode"
  | "location"
  | "seats"
  | "totalSeats"
  | "fee"
  | "feeLabel"
  | "courseFee"
  | "feeIncludesGst"
> & {
  /** "Add to Google Calendar" for the batch, made on the server: the public pages' script need not carry the rules. */
  googleCalendarUrl: string;
  /** "Jan 5, 2027": the start and end days as the card shows them, formatted on the server for the same reason. */
  startLabel: string;
  endLabel: string;
};

export type SyllabusView = {
  slug: string;
  title: string;
  /** Sanitised HTML rendered on the server from the course's Markdown; empty when there is none. */
  html: string;
  file: string | null;
  fileName: string;
};
