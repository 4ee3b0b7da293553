import { countContactQueries } from "~/models/contact-query.server";
import { countEnquiries, countMatching } from "~/models/enquiry.server";
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

/** Enquiries in New (held and erased ones not counted). */
export function newEnquiryCount(scope?: object): Promise<number> {
  return oncePerRequest(scope, "enquiries:new", () => countEnquiries("new"));
}

/** How many enquiries My queue lists (its two parts, by the list's own rule), so the sidebar's figure and the list agree. */
export function myQueueCount(actor: StaffActor, now = new Date()): Promise<number> {
  return countMatching(resolveEnquiryFilter(actor, { view: "queue" }, now));
}

/** The enquiry list's own "mine + overdue" rule, so the count and the list it links to agree. */
export function myOverdueCount(actor: StaffActor, now = new Date(), scope?: object): Promise<number> {
  return oncePerRequest(scope, `enquiries:overdue:${actor.user.id}`, () =>
    countMatching(resolveEnquiryFilter(actor, { assignee: "mine", followUp: "overdue" }, now)),
  );
}
