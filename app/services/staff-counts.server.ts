import { countContactQueries } from "~/models/contact-query.server";
import { db } from "~db/client.server";
import { countEnquiriesWithStatus } from "~/models/enquiry-day-figures.server";
import { countMatching, enquiryWrites } from "~/models/enquiry.server";
import { countReviews } from "~/models/review.server";
import type { StaffActor } from "./actor";
import { resolveEnquiryFilter } from "./enquiry-lists.server";
import { oncePerRequest } from "./per-request";

/** What waits for staff, shown beside the sidebar's links on every screen: each figure one indexed count. */
export type SidebarCounts = { newEnquiries: number; myQueue: number; pendingReviews: number; newContactQueries: number };

/** `scope`: the request's load context, so a figure the dashboard shows too is counted once per request. */
export async function sidebarCounts(actor: StaffActor, now = new Date(), scope?: object): Promise<SidebarCounts> {
  const [newEnquiries, myQueue, pendingReviews, newContactQueries] = await Promise.all([
    newEnquiryCount(scope),
    myQueueCount(actor, now),
    countReviews({ approved: false }),
    countContactQueries("new"),
  ]);
  return { newEnquiries, myQueue, pendingReviews, newContactQueries };
}

/**
 * How long the sidebar's count of My queue is kept (issue 39): a count of thousands of index entries at 100,000
 * enquiries, and the sidebar is on every staff screen. It is read again after this, at once after any enquiry
 * written by this process (enquiryWrites), and for a `now` further than this from the one it was counted at; another
 * instance's writes show within this time. The lists themselves always count afresh; the New count is never kept.
 */
export const SIDEBAR_COUNT_MS = 5000;

type Kept = { at: number; writes: number; value: Promise<number> };
/** By database (a process may hold two: scripts/bench-enquiries.ts), then by figure. */
const kept = new WeakMap<object, Map<string, Kept>>();

function keptFor(key: string, now: Date, count: () => Promise<number>): Promise<number> {
  const database = db();
  let figures = kept.get(database);
  if (!figures) kept.set(database, (figures = new Map()));
  const found = figures.get(key);
  const at = now.getTime();
  if (found && found.writes === enquiryWrites() && Math.abs(at - found.at) < SIDEBAR_COUNT_MS) return found.value;
  const value = count();
  const entry = { at, writes: enquiryWrites(), value };
  figures.set(key, entry);
  value.catch(() => figures.get(key) === entry && figures.delete(key));
  return value;
}

/** Enquiries in New (held ones not counted), from the running totals: exact after any write, whichever instance made it. */
export function newEnquiryCount(scope?: object): Promise<number> {
  return oncePerRequest(scope, "enquiries:new", () => countEnquiriesWithStatus("new"));
}

/** How many enquiries My queue lists (its two parts, by the list's own rule), so the sidebar's figure and the list agree. */
export function myQueueCount(actor: StaffActor, now = new Date()): Promise<number> {
  return keptFor(`queue:${actor.user.id}`, now, () => countMatching(resolveEnquiryFilter(actor, { view: "queue" }, now)));
}

/** The enquiry list's own "mine + overdue" rule, so the count and the list it links to agree. */
export function myOverdueCount(actor: StaffActor, now = new Date(), scope?: object): Promise<number> {
  return oncePerRequest(scope, `enquiries:overdue:${actor.user.id}`, () =>
    countMatching(resolveEnquiryFilter(actor, { assignee: "mine", followUp: "overdue" }, now)),
  );
}
