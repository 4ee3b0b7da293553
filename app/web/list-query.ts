import { cleanText } from "~/schemas/fields";

/**
 * The back-office lists keep their tab, search and page in the URL (DESIGN.md §3), so a filter survives a
 * reload, works without JavaScript, and a modal opened over the list can send the user back to the same view.
 */
export type ListQuery<S extends string> = { status: S | undefined; q: string; page: number };

export const SEARCH_MAX = 100;

export function readListQuery<S extends string>(url: URL, statuses: readonly S[]): ListQuery<S> {
  const raw = url.searchParams.get("status") ?? "";
  const status = (statuses as readonly string[]).includes(raw) ? (raw as S) : undefined;
  // Cleaned like any text: the search is shown again in its field.
  const q = cleanText(url.searchParams.get("q") ?? "", false)
    .trim()
    .slice(0, SEARCH_MAX);
  const page = Math.max(1, Math.min(1_000_000, Number.parseInt(url.searchParams.get("page") ?? "", 10) || 1));
  return { status, q, page };
}

/**
 * The parameters a list keeps in its URL: the tab, the search, the page, the enquiries' filters (owner,
 * follow-up, course, batch, mode, source, form), the audit log's (user, entity type), a date range, the publication state, the order
 * and the enquiries' queue view, so paging,
 * the jump back to the last page and a dialog opened over the list keep the filter that was set.
 */
export const LIST_PARAMS = [
  "status",
  "q",
  "page",
  "assignee",
  "followUp",
  "course",
  "batch",
  "mode",
  "source",
  "form",
  "user",
  "entityType",
  "from",
  "to",
  "state",
  "sort",
  "view",
] as const;
export type ListParam = (typeof LIST_PARAMS)[number];

/** The list URL with the given search string (as found on a child route's URL), minus anything foreign. */
export function listHref(base: string, search: string | URLSearchParams): string {
  const from = typeof search === "string" ? new URLSearchParams(search) : search;
  const kept = new URLSearchParams();
  for (const key of LIST_PARAMS) {
    const v = from.get(key);
    if (v) kept.set(key, v);
  }
  const s = kept.toString();
  return s ? `${base}?${s}` : base;
}

/** The same list with one parameter changed; changing the tab, the search or a filter starts again at page 1. */
export function withParam(base: string, search: string, key: ListParam, value: string | number | undefined): string {
  const params = new URLSearchParams(listHref(base, search).split("?")[1] ?? "");
  if (value === undefined || value === "" || (key === "page" && Number(value) <= 1)) params.delete(key);
  else params.set(key, String(value));
  if (key !== "page") params.delete("page");
  const s = params.toString();
  return s ? `${base}?${s}` : base;
}
