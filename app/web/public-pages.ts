import type { ContentKey } from "~/models/content-version.server";

/**
 * The public site's pages, defined once: the sitemap lists them (with one page per published course), and the page
 * cache keeps them, each course's page and their React Router data requests (server/page-cache.ts builds its
 * pattern from these lists). A new public page is added here, and both follow.
 */
export const PUBLIC_PAGES = ["/", "/about", "/courses", "/schedules", "/reviews", "/enquiry", "/contact", "/privacy"] as const;

/** The public page of each course: `/courses/<slug>`. */
export const COURSE_PAGE_PREFIX = "/courses/";

/** Public reads that are not pages and are the same for every visitor: the sitemap, robots, the batch calendars, the API's public lists. */
export const PUBLIC_READS = [/^\/sitemap\.xml$/, /^\/robots\.txt$/, /^\/schedules(?:\/[^/]+)?\.ics$/, /^\/api\/(?:courses|schedules|reviews)(?:\/[^/]+)?$/];

/**
 * The addresses that are a record's own (paths, without a query): a course's page and its React Router data
 * request, a batch's calendar file. A change to the record makes the page cache drop them at once.
 */
export function ownAddresses(key: ContentKey): string[] {
  if ("course" in key) return [`${COURSE_PAGE_PREFIX}${key.course}`, `${COURSE_PAGE_PREFIX}${key.course}.data`];
  return [`/schedules/${key.batch}.ics`];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** True for a path the page cache may keep for anonymous visitors (before its other checks: status, cookies, headers). */
export function isCacheablePublicPath(path: string): boolean {
  return CACHEABLE.test(path) || PUBLIC_READS.some((re) => re.test(path));
}

const names = PUBLIC_PAGES.map((p) => escape(p.slice(1)));
const course = `${escape(COURSE_PAGE_PREFIX.slice(1))}[^/]+`;
// "/" is "" here; its React Router data request is /_root.data.
const CACHEABLE = new RegExp(`^/(?:(?:${[...names, course].join("|")})|(?:${[...names.map((n) => n || "_root"), course].join("|")})\\.data)$`);
