import { redirect } from "react-router";
import type { Page } from "~/models/paging.server";
import { listCourseTitles } from "~/models/course.server";
import { withParam } from "./list-query";

export type LoadedPage<T> = { list: Page<T>; error: string | null };

/**
 * Runs a back-office list query. A failure is logged and shown as the screen's spec §8 message over an
 * empty list, instead of replacing the whole screen; a page number past the end (say, after deleting the
 * last row of the last page) goes to the last page that exists.
 */
export async function loadPage<T>(url: URL, load: () => Promise<Page<T>>, failedMessage: string, what: string): Promise<LoadedPage<T>> {
  try {
    const list = await load();
    if (list.data.length === 0 && list.page > list.pages) {
      throw redirect(withParam(url.pathname, url.search, "page", list.pages));
    }
    return { list, error: null };
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`[admin] loading ${what} failed:`, error);
    return { list: { data: [], total: 0, page: 1, limit: 20, pages: 1 }, error: failedMessage };
  }
}

/** The schedule form's course dropdown; a failure is only logged (spec §8) and leaves the dropdown empty. */
export async function loadCourseOptions(): Promise<{ id: string; title: string }[]> {
  try {
    return (await listCourseTitles("staff")).map(({ id, title }) => ({ id, title }));
  } catch (error) {
    console.error("[admin] loading the course list for the schedule form failed:", error);
    return [];
  }
}
