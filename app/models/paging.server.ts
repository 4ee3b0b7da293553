import { sql, type RawBuilder, type SqlBool } from "kysely";
import { MAX_LIMIT } from "~/schemas/list-params";

export const DEFAULT_LIMIT = 20;

export type PageInput = { page?: number; limit?: number };
/** `totalCapped`: the list has more than `total` rows (a count that stopped there: app/models/enquiry.server.ts). */
export type Page<T> = { data: T[]; total: number; page: number; limit: number; pages: number; totalCapped?: boolean };

export function pageBounds(input: PageInput = {}) {
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.trunc(Number(input.limit) || DEFAULT_LIMIT)));
  const page = Math.max(1, Math.trunc(Number(input.page) || 1));
  return { limit, page, offset: (page - 1) * limit };
}

export function toPage<T>(data: T[], total: number, page: number, limit: number): Page<T> {
  return { data, total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}

export function parseList(value: string | null | undefined): string[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export function listToText(list: readonly string[] | undefined): string {
  return JSON.stringify((list ?? []).map((s) => s.trim()).filter(Boolean));
}

/**
 * `column LIKE %term%` with the wildcards in term escaped, so a search for "50%" means the text.
 * SQLite has no default LIKE escape character and MySQL's is a backslash, so name one both accept.
 */
export function contains(column: string, term: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${likePattern(term)} escape '!'`;
}

/** The column starts with the term (LIKE 'term%': an index on the column answers it). */
export function startsWith(column: string, term: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${`${escapeLike(term)}%`} escape '!'`;
}

function likePattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

function escapeLike(term: string): string {
  return term.replace(/[!%_]/g, (c) => `!${c}`);
}

/** Where a keyset read stopped: rows are read newest first, by (createdAt, id). */
export type Position = { createdAt: string; id: string };

/** Rows after `p` in newest-first order. */
export function olderThan(p: Position): RawBuilder<SqlBool> {
  const createdAt = sql.ref("createdAt");
  return sql<SqlBool>`(${createdAt} < ${p.createdAt} or (${createdAt} = ${p.createdAt} and ${sql.ref("id")} < ${p.id}))`;
}

/**
 * All matching rows, newest first, a page at a time by position rather than offset (for exports): memory
 * stays flat however many rows match, and rows added meanwhile do not shift the pages.
 */
export async function* newestFirstPages<Row extends Position>(readPage: (after: Position | null) => Promise<Row[]>, pageSize: number): AsyncGenerator<Row[]> {
  let after: Position | null = null;
  for (;;) {
    const rows = await readPage(after);
    if (rows.length) yield rows;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1];
    after = { createdAt: last.createdAt, id: last.id };
  }
}
