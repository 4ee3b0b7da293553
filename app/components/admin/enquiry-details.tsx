import { DELIVERY_MODE_LABELS } from "~/schemas/values";
import { ENQUIRY_STATUSES } from "~/schemas/values";
import type { Enquiry } from "~/models/enquiry.server";
import { formatDate } from "~/util/dates";
import { mailtoUrl, whatsappChatUrl } from "~/util/contact-links";
import { BUTTON_STYLES } from "./buttons";
import { DetailList } from "./detail-list";
import { InboxStatusBadge } from "./inbox-status";
import { StatusButtons } from "./status-buttons";
import { StatusBadge } from "./status-badge";
import { DialogFlash } from "./dialog-flash";
import { EnquiryFollowUp, type FollowUpPanelData } from "./enquiry-follow-up";
import type { TimelineLine } from "~/web/timeline-lines";
import { Timeline } from "./timeline";
import { Link } from "react-router";

export type EnquiryFile = { href: string; label: string };

/** What the details show beyond the spec's fields: where it came from, its batch, duplicates, the 24-hour promise. */
export type EnquiryExtras = {
  sourceLines: { label: string; value: string }[];
  batch: string | null;
  /** "Position 2 for <batch>" or "Offered a seat in <batch>, held until …" while on a batch's waitlist. */
  waitlist?: string | null;
  duplicates: { id: string; fullName: string; createdAt: string }[];
  waiting: string | null;
  late: boolean;
  followUp: FollowUpPanelData;
  timeline: TimelineLine[];
};

/** Everything staff need about one enquiry (spec §2): all fields, files, status buttons, e-mail and WhatsApp; owner, follow-up and timeline. */
export function EnquiryDetails({
  enquiry,
  files,
  extras,
  search,
}: {
  enquiry: Omit<Enquiry, "filePaths">;
  files: EnquiryFile[];
  extras: EnquiryExtras;
  search: string;
}) {
  const whatsapp = enquiry.whatsappNotifications ? whatsappChatUrl(enquiry.phone) : null;
  return (
    <div className="space-y-6">
      <DialogFlash />
      {extras.waiting ? (
        <p className={`rounded-md px-3 py-2 text-sm ${extras.late ? "bg-red-50 font-semibold text-red-800" : "bg-slate-50 text-slate-700"}`}>
          {extras.late ? `No reply for ${extras.waiting}: we promise a call back within 24 hours.` : `New, waiting ${extras.waiting} for a first reply.`}
        </p>
      ) : null}
      {extras.duplicates.length ? (
        <div className="rounded-md border border-purple-200 bg-purple-50 px-3 py-2 text-sm text-purple-900">
          <StatusBadge tone="purple">Possible duplicate</StatusBadge> Possible duplicate of{" "}
          {extras.duplicates.map((d, i) => (
            <span key={d.id}>
              {i ? ", " : ""}
              <Link to={`/admin/enquiries/${d.id}${search}`} className="font-semibold underline">
                {d.fullName} ({formatDate(d.createdAt)})
              </Link>
            </span>
          ))}
          : the same phone number or e-mail within 90 days.
        </div>
      ) : null}
      <DetailList
        items={[
          { label: "Full name", value: enquiry.fullName },
          { label: "Status", value: <InboxStatusBadge status={enquiry.status} /> },
          {
            label: "Email",
            value: (
              <a href={mailtoUrl(enquiry.email)} className="text-brand-700 underline">
                {enquiry.email}
              </a>
            ),
          },
          { label: "Phone", value: enquiry.phone },
          { label: "Preferred course", value: enquiry.preferredCourse },
          { label: "Preferred mode", value: DELIVERY_MODE_LABELS[enquiry.preferredMode] },
          { label: "WhatsApp notifications", value: enquiry.whatsappNotifications ? "Yes" : "No" },
          // Privacy (DPDP Act): what the person agreed to; the history is on the timeline.
          {
            label: "Privacy",
            value: `Marketing: ${enquiry.marketingConsent ? "agreed" : "not agreed"}${
              enquiry.under18
                ? ` · Under 18, guardian ${enquiry.guardianName ?? ""} (${enquiry.guardianEmail ?? ""}) consented ${enquiry.guardianConsentAt ? formatDate(enquiry.guardianConsentAt) : ""}`
                : ""
            }`,
          },
          { label: "Enquiry date", value: formatDate(enquiry.createdAt) },
          { label: "Batch", value: extras.batch ?? <span className="text-slate-600">None chosen</span> },
          ...(extras.waitlist ? [{ label: "Waitlist", value: extras.waitlist }] : []),
          {
            label: "Source",
            value: (
              <ul className="space-y-0.5">
                {extras.sourceLines.map((l) => (
                  <li key={l.label}>
                    <span className="text-slate-600">{l.label}:</span> <span className="break-all">{l.value}</span>
                  </li>
                ))}
              </ul>
            ),
          },
          {
            label: "Message",
            wide: true,
            value: enquiry.message ? <p className="whitespace-pre-line">{enquiry.message}</p> : <span className="text-slate-600">No message</span>,
          },
          {
            label: "Attached files",
            wide: true,
            value: files.length ? (
              <ul className="list-inside list-disc space-y-1">
                {files.map((f) => (
                  <li key={f.href}>
                    {/* A plain link: the file is a download from a staff-only route, not a page. */}
                    <a href={f.href} download={f.label} className="text-brand-700 underline">
                      {f.label}
                    </a>
                  </li>
                ))}
              </ul>
            ) : (
              <span className="text-slate-600">No files attached</span>
            ),
          },
        ]}
      />
      <StatusButtons statuses={ENQUIRY_STATUSES} current={enquiry.status} itemName={`the enquiry from ${enquiry.fullName}`} />
      <EnquiryFollowUp data={extras.followUp} />
      <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-4">
        <a href={mailtoUrl(enquiry.email, `Your enquiry about ${enquiry.preferredCourse}`)} className={BUTTON_STYLES.primary}>
          Email Student
        </a>
        {whatsapp ? (
          <a href={whatsapp} target="_blank" rel="noopener noreferrer" className={`${BUTTON_STYLES.secondary} text-green-800`}>
            WhatsApp
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : null}
        <Link to={`/admin/privacy?email=${encodeURIComponent(enquiry.email)}`} className={BUTTON_STYLES.secondary}>
          Erase on request
        </Link>
      </div>
      <Timeline lines={extras.timeline} />
    </div>
  );
}
