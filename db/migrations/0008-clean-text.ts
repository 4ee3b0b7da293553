import type { Kysely } from "kysely";

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
type Column = { name: string; multiline?: boolean; list?: boolean };
const TABLES: Record<string, Column[]> = {
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
const PAGE = 500;

function cleaned(value: unknown, column: Column): unknown {
  if (typeof value !== "string") return value;
  if (!column.list) return cleanText(value, Boolean(column.multiline));
  try {
    const list: unknown = JSON.parse(value);
    if (!Array.isArray(list)) return value;
    return JSON.stringify(list.map((item) => (typeof item === "string" ? cleanText(item, false).trim() : item)).filter((item) => item !== ""));
  } catch {
    return value;
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const k = db as Kysely<any>;
  for (const [table, columns] of Object.entries(TABLES)) {
    let after = "";
    for (;;) {
      const rows = await k
        .selectFrom(table)
        .select(["id", ...columns.map((c) => c.name)])
        .where("id", ">", after)
        .orderBy("id")
        .limit(PAGE)
        .execute();
      for (const row of rows as Record<string, unknown>[]) {
        const changes: Record<string, unknown> = {};
        for (const column of columns) {
          const next = cleaned(row[column.name], column);
          if (next !== row[column.name]) changes[column.name] = next;
        }
        if (Object.keys(changes).length) await k.updateTable(table).set(changes).where("id", "=", row.id).execute();
      }
      if (rows.length < PAGE) break;
      after = String((rows[rows.length - 1] as { id: string }).id);
    }
  }
}

export async function down(): Promise<void> {
  // Removed characters cannot be put back; nothing to undo.
}
