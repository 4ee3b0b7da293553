import { StatusBadge, type BadgeTone } from "./status-badge";

/** Status badges of the two inboxes (enquiries and contact queries). */
const TONE: Record<string, BadgeTone> = { new: "blue", contacted: "yellow", enrolled: "green", replied: "green", closed: "gray" };

export function statusLabel(status: string): string {
  return status ? status[0].toUpperCase() + status.slice(1) : status;
}

export function InboxStatusBadge({ status }: { status: string }) {
  return <StatusBadge tone={TONE[status] ?? "gray"}>{statusLabel(status)}</StatusBadge>;
}
