import { DELIVERY_MODE_LABELS } from "~/schemas/values";
import { enquiryReference } from "~/util/enquiry-reference";
import { ENQUIRY_STATUSES } from "~/schemas/values";
import type { Enquiry } from "~/models/enquiry.server";
import { formatDate } from "~/util/dates";
import { mailtoUrl, telUrl, whatsappChatUrl } from "~/util/contact-links";
import { BUTTON_STYLES } from "./buttons";
import { DetailList } from "./detail-list";
import { InboxStatusBadge } from "./inbox-status";
import { StatusButtons } from "./status-buttons";
import { StatusBadge } from "./status-badge";
import { DialogFlash } from "./dialog-flash";
import { EnquiryFollowUp, type FollowUpPanelData } from "./enquiry-follow-up";
import { EnquiryActivity, type ActivityFormData } from "./enquiry-activity";
import type { FormRefusal } from "./enquiry-refusal";
import type { TimelineLine } from "~/web/timeline-lines";
import { Timeline } from "./timeline";
import { Link } from "react-router";
import { Typed } from "~/components/ui/typed";
import { FeeLedgerPanel, type FeePanelData } from "./fee-ledger";
import { EmailText } from "~/components/ui/email-text";

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
  escalated: boolean;
  followUp: FollowUpPanelData;
  activity: ActivityFormData;
  /** The student's dues, invoices and payments, with the forms to record, reverse and cancel. */
  fees: FeePanelData;
  timeline: TimelineLine[];
  formKey: string;
  /** The next enquiry of the signed-in counsellor's queue (not this one, nor one saved in this run of calls): its URL, if any. */
  nextInQueue: string | null;
};

/**
 * Everything staff need about one enquiry (spec §2): who it is and how to reach them first (name, phone, WhatsApp,
 * e-mail, at the top at 375 px), then Log activity (one save for a call), the fields, files and status buttons, one
 * field at a time, and the timeline. `here` is this page's URL (with the list's search), which forms post to.
 */
export function EnquiryDetails({
  enquiry,
  files,
  extras,
  search,
  here,
  refusal,
}: {
  enquiry: Omit<Enquiry, "filePaths">;
  files: EnquiryFile[];
  extras: EnquiryExtras;
  search: string;
  here: string;
  refusal?: FormRefusal;
}) {
  const whatsapp = enquiry.whatsappNotifications ? whatsappChatUrl(enquiry.phone) : null;
  const tel = telUrl(enquiry.phone);
  return (
    <div className="space-y-6">
      <DialogFlash anchor />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-2">
          <p className="text-lg font-semibold text-slate-900">
            <Typed>{enquiry.fullName}</Typed> <InboxStatusBadge status={enquiry.status} />
          </p>
          <p className="text-sm text-slate-700">
            <span className="whitespace-nowrap">{enquiry.phone}</span> · <EmailText email={enquiry.email} />
          </p>
          {/* How to reach them, first: call, WhatsApp (when they asked for it), e-mail (spec §2's links). */}
          <div className="flex flex-wrap gap-2">
            {tel ? (
              <a href={tel} className={BUTTON_STYLES.secondary}>
                Call {enquiry.phone}
              </a>
            ) : null}
            {whatsapp ? (
              <a href={whatsapp} target="_blank" rel="noopener noreferrer" className={`${BUTTON_STYLES.secondary} text-green-800`}>
                WhatsApp
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : null}
            <a href={mailtoUrl(enquiry.email, `Your enquiry about ${enquiry.preferredCourse}`)} className={BUTTON_STYLES.primary}>
              Email Student
            </a>
          </div>
        </div>
        {extras.nextInQueue ? (
          <Link to={extras.nextInQueue} className={BUTTON_STYLES.secondary}>
            Next in queue
          </Link>
        ) : null}
      </div>
      {extras.waiting ? (
        <p className={`rounded-md px-3 py-2 text-sm ${extras.late ? "bg-red-50 font-semibold text-red-800" : "bg-slate-50 text-slate-700"}`}>
          {extras.late ? `No reply for ${extras.waiting}: we promise a call back within 24 hours.` : `New, waiting ${extras.waiting} for a first reply.`}
          {extras.escalated ? " Escalated to the admins." : ""}
        </p>
      ) : null}
      {extras.duplicates.length ? (
        <div className="rounded-md border border-purple-200 bg-purple-50 px-3 py-2 text-sm text-purple-900">
          <StatusBadge tone="purple">Possible duplicate</StatusBadge> Possible duplicate of{" "}
          {extras.duplicates.map((d, i) => (
            <span key={d.id}>
              {i ? ", " : ""}
              <Link to={`/admin/enquiries/${d.id}${search}`} className="font-semibold underline">
                <Typed>{d.fullName}</Typed> ({formatDate(d.createdAt)})
              </Link>
            </span>
          ))}
          : the same phone number or e-mail within 90 days.
        </div>
      ) : null}
      <EnquiryActivity data={extras.activity} action={here} refusal={refusal?.form === "log" ? refusal : undefined} />
      <DetailList
        items={[
          { label: "Full name", value: <Typed>{enquiry.fullName}</Typed> },
          { label: "Status", value: <InboxStatusBadge status={enquiry.status} /> },
          {
            label: "Email",
            value: (
              <a href={mailtoUrl(enquiry.email)} className="text-brand-700 underline">
                <bdi>
                  <EmailText email={enquiry.email} />
                </bdi>
              </a>
            ),
          },
          {
            label: "Phone",
            value: tel ? (
              <a href={tel} className="text-brand-700 underline">
                {enquiry.phone}
              </a>
            ) : (
              enquiry.phone
            ),
          },
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
          // The reference the visitor was given (confirmation, acknowledgement, offer page): what they quote on the phone.
          { label: "Reference", value: enquiryReference(enquiry.id) },
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
            value: enquiry.message ? (
              <p>
                <Typed lines>{enquiry.message}</Typed>
              </p>
            ) : (
              <span className="text-slate-600">No message</span>
            ),
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
      <FeeLedgerPanel data={extras.fees} action={`${here}#fees`} />
      <StatusButtons
        key={`${enquiry.id}:${enquiry.version}`}
        statuses={ENQUIRY_STATUSES}
        current={enquiry.status}
        itemName={`the enquiry from ${enquiry.fullName}`}
        guard={{ version: enquiry.version, formKey: extras.formKey }}
        refused={refusal?.form === "status" && refusal.typed.status ? { message: refusal.message, status: refusal.typed.status } : undefined}
      />
      <EnquiryFollowUp data={extras.followUp} action={`${here}#follow-up`} refusal={refusal} />
      <p className="border-t border-slate-200 pt-4">
        <Link to={`/admin/privacy?email=${encodeURIComponent(enquiry.email)}`} className={BUTTON_STYLES.secondary}>
          Erase on request
        </Link>
      </p>
      <Timeline lines={extras.timeline} formKey={extras.formKey} action={`${here}#timeline`} />
    </div>
  );
}
