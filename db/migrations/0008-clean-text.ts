import type { Kysely } from "kysely";
import { rewriteTextColumns, type TextColumn } from "./rewrite-text-columns";

/*
 * The rule as it stood when this migration was written, frozen here: a migration applies the rule of its day, so it
 * gives the same result whenever it runs, whatever the live cleanText in app/schemas/fields.ts has become since.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function cleanText(value: string, multiline: boolean): string {
  const text = value.replace(CONTROL, "").replace(LONE_SURROGATE, "").replace(/\r\n?/g, "\n");
  return multiline ? text : text.replace(/\n+/g, " ");
}

/**
 * Text fields now refuse control characters (app/schemas/fields.ts cleanText): C0/C1 controls are removed, and
 * line breaks are kept only in multi-line fields. Rows stored before that rule are cleaned the same way, so
 * no page prints a U+0001 again. Read a page of rows at a time by id; write only the rows that change.
 */
const TABLES: Record<string, TextColumn[]> = {
  courses: [
    { name: "title" },
    { name: "duration" },
    { name: "description", multiline: true },
    { name: "syllabus", multiline: true },
    { name: "syllabusFileName" },
    { name: "highlights", list: true },
    { name: "modes", list: true },
    { name: "schedules", list: true },
  ],
  schedules: [{ name: "courseName" }, { name: "time" }, { name: "days" }, { name: "location" }],
  reviews: [
    { name: "name" },
    { name: "position" },
    { name: "course" },
    { name: "review", multiline: true },
    { name: "image" },
    { name: "linkedin" },
    { name: "videoThumbnail" },
  ],
  enquiries: [{ name: "fullName" }, { name: "email" }, { name: "phone" }, { name: "preferredCourse" }, { name: "message", multiline: true }],
  contact_queries: [{ name: "name" }, { name: "email" }, { name: "phone" }, { name: "subject" }, { name: "message", multiline: true }],
  users: [{ name: "name" }],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await rewriteTextColumns(db, TABLES, cleanText);
}

export async function down(): Promise<void> {
  // Removed characters cannot be put back; nothing to undo.
}
