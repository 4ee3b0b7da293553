import { inboxStatusLabel, type ContactStatus, type EnquiryStatus } from "~/schemas/values";
import { StatusBadge, type BadgeTone } from "./status-badge";

/** Status badges of the two inboxes (enquiries and contact queries). */
const TONE: Record<EnquiryStatus | ContactStatus, BadgeTone> = { new: "blue", contacted: "yellow", enrolled: "green", replied: "green", closed: "gray" };
export function InboxStatusBadge({ status }: { status: string }) {
  return <StatusBadge tone={TONE[status as EnquiryStatus] ?? "gray"}>{inboxStatusLabel(status)}</StatusBadge>;
}
