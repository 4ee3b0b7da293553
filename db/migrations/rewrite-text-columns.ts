import type { Kysely } from "kysely";

/**
 * What the text-cleaning migrations (0008, 0020) share: walk the listed columns of each table a page of rows at a
 * time by id, clean each value with the migration's own frozen rule, and write only the rows that change. A list
 * column (a JSON array of strings) is cleaned item by item as one-line text, and emptied items are dropped. Not a
 * migration itself: db/client.server.ts lists the migrations by name.
 */
export type TextColumn = { name: string; multiline?: boolean; list?: boolean };
export type CleanRule = (value: string, multiline: boolean) => string;

const PAGE = 500;

function cleaned(value: unknown, column: TextColumn, clean: CleanRule): unknown {
  if (typeof value !== "string") return value;
  if (!column.list) return clean(value, Boolean(column.multiline));
  try {
    const list: unknown = JSON.parse(value);
    if (!Array.isArray(list)) return value;
    return JSON.stringify(list.map((item) => (typeof item === "string" ? clean(item, false).trim() : item)).filter((item) => item !== ""));
  } catch {
    return value;
  }
}

export async function rewriteTextColumns(db: Kysely<unknown>, tables: Record<string, TextColumn[]>, clean: CleanRule): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const k = db as Kysely<any>;
  for (const [table, columns] of Object.entries(tables)) {
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
          const next = cleaned(row[column.name], column, clean);
          if (next !== row[column.name]) changes[column.name] = next;
        }
        if (Object.keys(changes).length) await k.updateTable(table).set(changes).where("id", "=", row.id).execute();
      }
      if (rows.length < PAGE) break;
      after = String((rows[rows.length - 1] as { id: string }).id);
    }
  }
}
