import { sql, type RawBuilder, type SqlBool } from "kysely";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export type PageInput = { page?: number; limit?: number };
export type Page<T> = { data: T[]; total: number; page: number; limit: number; pages: number };

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

function likePattern(term: string): string {
  return `%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** What a phone column's `phoneDigits` companion stores: the phone without spaces, dashes, dots, brackets or +. */
export function phoneDigits(phone: string | null | undefined): string {
  return (phone ?? "").replace(/\D/g, "");
}

/**
 * The digits to look for when a search term is typed like a phone number ("98765 43210", "+91-98765"), or "" for
 * any other term. Beyond ten digits only the last ten count, so "+91 98765 43210" and "098765 43210" find a phone
 * stored as "98765 43210" (and one stored with its country code).
 */
export function phoneSearchDigits(term: string): string {
  const digits = /^[\d\s().+-]+$/.test(term) ? phoneDigits(term) : "";
  if (digits.length < 3) return "";
  return digits.length > 10 ? digits.slice(-10) : digits;
}
