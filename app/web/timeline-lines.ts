import type { TimelineEntry } from "~/models/timeline.server";
import { inboxStatusLabel } from "~/schemas/values";
import { formatDateTime } from "~/util/dates";

/** One line of an enquiry's or contact query's timeline, as the staff screens show it. */
export type TimelineLine = { id: string; at: string; who: string; what: string; note: boolean };

const when = (iso: string | null) => (iso ? `${formatDateTime(iso)} IST` : "none");

/** A timeline entry in words, times in Hyderabad: "Status: New → Contacted", "Owner: Unassigned → Priya". */
export function timelineLines(entries: TimelineEntry[]): TimelineLine[] {
  return entries.map((e) => {
    const what =
      e.kind === "note"
        ? (e.text ?? "")
        : e.kind === "created"
          ? (e.text ?? "Received")
          : e.kind === "status"
            ? `Status: ${inboxStatusLabel(e.fromValue ?? "")} → ${inboxStatusLabel(e.toValue ?? "")}`
            : e.kind === "assignee"
              ? `Owner: ${e.fromValue ?? "Unassigned"} → ${e.toValue ?? "Unassigned"}`
              : e.kind === "follow_up"
                ? `Follow-up: ${when(e.fromValue)} → ${when(e.toValue)}`
                : e.kind === "waitlist"
                  ? `Waitlist: ${e.text ?? e.toValue ?? ""}`
                  : e.kind === "escalated"
                    ? (e.text ?? "Escalated to the admins")
                    : e.kind === "consent" || e.kind === "privacy"
                      ? `Privacy: ${e.text ?? e.toValue ?? ""}`
                      : e.kind === "fee"
                        ? `Fees: ${e.text ?? ""}`
                        : `Batch: ${e.fromValue ?? "none"} → ${e.toValue ?? "none"}`;
    return { id: e.id, at: `${formatDateTime(e.at)} IST`, who: e.userName || (e.kind === "created" ? "Visitor" : ""), what, note: e.kind === "note" };
  });
}
