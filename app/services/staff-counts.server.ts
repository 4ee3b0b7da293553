import { countContactQueries } from "~/models/contact-query.server";
import { countEnquiries, countMatching } from "~/models/enquiry.server";
import { countReviews } from "~/models/review.server";
import type { StaffActor } from "./actor";
import { resolveEnquiryFilter } from "./enquiry-lists.server";

/** What waits for staff, shown beside the sidebar's links on every screen: each figure one indexed count. */
export type SidebarCounts = { newEnquiries: number; myOverdue: number; pendingReviews: number; newContactQueries: number };

export async function sidebarCounts(actor: StaffActor, now = new Date()): Promise<SidebarCounts> {
  const [newEnquiries, myOverdue, pendingReviews, newContactQueries] = await Promise.all([
    countEnquiries("new"),
    // The enquiry list's own "mine + overdue" rule, so the count and the list it links to agree.
    countMatching(resolveEnquiryFilter(actor, { assignee: "mine", followUp: "overdue" }, now)),
    countReviews({ approved: false }),
    countContactQueries("new"),
  ]);
  return { newEnquiries, myOverdue, pendingReviews, newContactQueries };
}
