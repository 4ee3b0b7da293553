import type { TimelineLine } from "~/components/admin/timeline";
import type { TimelineEntry } from "~/models/timeline.server";
import { statusLabel } from "~/components/admin/inbox-status";
import { formatDateTime } from "./dates";

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "none");

/** A timeline entry in words, times in Hyderabad: "Status: New → Contacted", "Owner: Unassigned → Priya". */
export function timelineLines(entries: TimelineEntry[]): TimelineLine[] {
  return entries.map((e) => {
    const what =
      e.kind === "note"
        ? (e.text ?? "")
        : e.kind === "created"
          ? (e.text ?? "Received")
          : e.kind === "status"
            ? `Status: ${statusLabel(e.fromValue ?? "")} → ${statusLabel(e.toValue ?? "")}`
            : e.kind === "assignee"
              ? `Owner: ${e.fromValue ?? "Unassigned"} → ${e.toValue ?? "Unassigned"}`
              : e.kind === "follow_up"
                ? `Follow-up: ${when(e.fromValue)} → ${when(e.toValue)}`
                : e.kind === "waitlist"
                  ? `Waitlist: ${e.text ?? e.toValue ?? ""}`
                  : `Batch: ${e.fromValue ?? "none"} → ${e.toValue ?? "none"}`;
    return { id: e.id, at: formatDateTime(e.at), who: e.userName || (e.kind === "created" ? "Visitor" : ""), what, note: e.kind === "note" };
  });
}
