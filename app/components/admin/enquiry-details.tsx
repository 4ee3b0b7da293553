import type { Enquiry } from "~/models/enquiry.server";
import { ENQUIRY_STATUSES } from "~/schemas/enquiry";
import { formatDate } from "~/lib/dates";
import { mailtoUrl, whatsappUrl } from "~/lib/contact-links";
import { BUTTON_STYLES } from "./buttons";
import { DetailList } from "./detail-list";
import { InboxStatusBadge, statusLabel } from "./inbox-status";
import { StatusButtons } from "./status-buttons";

export type EnquiryFile = { href: string; label: string };

/** Everything staff need about one enquiry (spec §2): all fields, files, status buttons, e-mail and WhatsApp. */
export function EnquiryDetails({ enquiry, files }: { enquiry: Omit<Enquiry, "filePaths">; files: EnquiryFile[] }) {
  const whatsapp = enquiry.whatsappNotifications ? whatsappUrl(enquiry.phone) : null;
  return (
    <div className="space-y-6">
      <DetailList
        items={[
          { label: "Full name", value: enquiry.fullName },
          { label: "Status", value: <InboxStatusBadge status={enquiry.status} /> },
          { label: "Email", value: <a href={mailtoUrl(enquiry.email)} className="text-brand-700 underline">{enquiry.email}</a> },
          { label: "Phone", value: enquiry.phone },
          { label: "Preferred course", value: enquiry.preferredCourse },
          { label: "Preferred mode", value: statusLabel(enquiry.preferredMode) },
          { label: "WhatsApp notifications", value: enquiry.whatsappNotifications ? "Yes" : "No" },
          { label: "Enquiry date", value: formatDate(enquiry.createdAt) },
          { label: "Message", wide: true, value: enquiry.message ? <p className="whitespace-pre-line">{enquiry.message}</p> : <span className="text-slate-600">No message</span> },
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
      </div>
    </div>
  );
}
