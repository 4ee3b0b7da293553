import type { Kysely } from "kysely";
import { rewriteTextColumns, type TextColumn } from "./rewrite-text-columns";

/*
 * The rule as it stood when this migration was written, frozen here (a migration applies the rule of its day):
 * one-line text loses direction controls (U+202A–202E, U+2066–2069) and turns U+2028/U+2029 into a space; multi-line
 * text keeps its direction controls and turns U+2028/U+2029 into \n (app/schemas/fields.ts cleanText).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const SEPARATORS = /[\u2028\u2029]/g;

function cleanText(value: string, multiline: boolean): string {
  if (multiline) return value.replace(SEPARATORS, "\n");
  return value.replace(BIDI_CONTROLS, "").replace(SEPARATORS, " ");
}

/**
 * Direction controls in a name reversed how it showed in the staff lists, the CSV export and e-mail subjects
 * ("Ravi\u202Efdp.exe"). New text loses them in its one-line fields; rows stored before are cleaned the same way.
 * The columns of 0008-clean-text (what people and staff type), read a page of rows at a time by id, and only the
 * rows that change are written.
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
  reviews: [{ name: "name" }, { name: "position" }, { name: "course" }, { name: "review", multiline: true }],
  enquiries: [{ name: "fullName" }, { name: "phone" }, { name: "preferredCourse" }, { name: "message", multiline: true }],
  contact_queries: [{ name: "name" }, { name: "phone" }, { name: "subject" }, { name: "message", multiline: true }],
  users: [{ name: "name" }],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await rewriteTextColumns(db, TABLES, cleanText);
}

export async function down(): Promise<void> {
  // Removed characters cannot be put back; nothing to undo.
}
