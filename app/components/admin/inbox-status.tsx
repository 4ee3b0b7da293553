import { CONTACT_STATUS_LABELS, ENQUIRY_STATUS_LABELS, type ContactStatus, type EnquiryStatus } from "~/schemas/values";
import { StatusBadge, type BadgeTone } from "./status-badge";

/** Status badges of the two inboxes (enquiries and contact queries). */
const TONE: Record<EnquiryStatus | ContactStatus, BadgeTone> = { new: "blue", contacted: "yellow", enrolled: "green", replied: "green", closed: "gray" };
const LABELS: Record<string, string> = { ...ENQUIRY_STATUS_LABELS, ...CONTACT_STATUS_LABELS };

export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}

export function InboxStatusBadge({ status }: { status: string }) {
  return <StatusBadge tone={TONE[status as EnquiryStatus] ?? "gray"}>{statusLabel(status)}</StatusBadge>;
}
