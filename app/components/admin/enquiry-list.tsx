import { DELIVERY_MODE_LABELS } from "~/schemas/values";
import type { Enquiry } from "~/models/enquiry.server";
import { mailtoUrl, telUrl, whatsappChatUrl } from "~/util/contact-links";
import { DataList } from "./data-list";
import { DeleteButton } from "./confirm-delete";
import { EditLink } from "./edit-link";
import { InboxStatusBadge } from "./inbox-status";
import { StatusBadge } from "./status-badge";
import { BULK_FORM_ID, SelectPageBox } from "./enquiry-bulk-bar";
import { Typed } from "~/components/ui/typed";

export type EnquiryRow = Pick<
  Enquiry,
  "id" | "fullName" | "email" | "phone" | "preferredCourse" | "preferredMode" | "whatsappNotifications" | "status" | "createdAt" | "sourceLabel" | "version"
> & {
  possibleDuplicate: boolean;
  assigneeName: string | null;
  /** The next follow-up, already in Hyderabad time ("Nov 24, 2026, 10:30 AM"), and whether it is past. */
  followUp: string | null;
  overdue: boolean;
  /** A New enquiry nobody has answered: how long it has waited, and whether that is past the 24-hour promise. */
  waiting: string | null;
  late: boolean;
  /** Untouched past the promise and escalated to the admins. */
  escalated: boolean;
  /** When it came in: "Nov 27, 2026" (spec §9). */
  date: string;
};

/**
 * Manage Enquiries (spec §2): Student, Contact, Course & Mode, Status, Date, Actions; plus owner, follow-up and
 * flags. At 1280 px beside the sidebar each cell keeps to two lines (a row of about 64 px): names whole, long
 * e-mails and course titles cut with the whole text in their title, the actions on one line.
 */
export function EnquiryList({ enquiries, search }: { enquiries: EnquiryRow[]; search: string }) {
  return (
    <DataList
      items={enquiries}
      rowKey={(e) => `${e.id}:${e.version}`}
      caption="Enquiries"
      empty="No enquiries found for the selected filter."
      dense
      columns={[
        {
          header: "Student",
          hideLabelOnCards: true,
          headerExtra: <SelectPageBox />,
          cell: (e) => (
            <div className="flex gap-3">
              {/* Belongs to the bulk form above the list (its form attribute), so ticking works without JavaScript.
                  Its value carries the version the row shows: a bulk change over a newer change is refused. */}
              <input
                type="checkbox"
                name="ids"
                value={`${e.id}@${e.version}`}
                form={BULK_FORM_ID}
                aria-label={`Select the enquiry from ${e.fullName}`}
                className="mt-1 size-4 shrink-0 accent-brand-700"
              />
              <div className="min-w-0">
                <span className="font-semibold break-normal text-slate-900 md:inline-block md:min-w-32">
                  <Typed>{e.fullName}</Typed>
                </span>
                <div className="flex flex-wrap gap-1">
                  {e.escalated ? <StatusBadge tone="red">Escalated</StatusBadge> : e.late ? <StatusBadge tone="red">No reply in 24 h</StatusBadge> : null}
                  {e.overdue ? <StatusBadge tone="red">Follow-up overdue</StatusBadge> : null}
                  {e.possibleDuplicate ? <StatusBadge tone="purple">Possible duplicate</StatusBadge> : null}
                </div>
              </div>
            </div>
          ),
        },
        {
          header: "Contact",
          cell: (e) => <ContactCell row={e} />,
        },
        {
          header: "Course & Mode",
          cell: (e) => (
            <>
              <div className="md:max-w-32 md:truncate" title={e.preferredCourse}>
                {e.preferredCourse}
              </div>
              <div className="text-xs text-slate-600 md:max-w-32 md:truncate" title={`Source: ${e.sourceLabel}`}>
                {DELIVERY_MODE_LABELS[e.preferredMode]} · <span className="sr-only">Source: </span>
                {e.sourceLabel}
              </div>
            </>
          ),
        },
        {
          header: "Owner & Follow-up",
          cell: (e) => (
            <>
              <div className="md:max-w-32 md:truncate" title={e.assigneeName ?? undefined}>
                {e.assigneeName ?? <span className="text-slate-600">Unassigned</span>}
              </div>
              {e.followUp ? (
                <div className={`text-xs md:whitespace-nowrap ${e.overdue ? "font-semibold text-red-700" : "text-slate-600"}`}>
                  <span className="md:sr-only">Follow up </span>
                  {e.followUp}
                </div>
              ) : null}
            </>
          ),
        },
        { header: "Status", cell: (e) => <InboxStatusBadge status={e.status} /> },
        {
          header: "Date",
          className: "md:whitespace-nowrap",
          cell: (e) => (
            <>
              <time dateTime={e.createdAt}>{e.date}</time>
              {/* How long a New one has waited for its first reply: red past the 24-hour promise. */}
              {e.waiting ? <div className={`text-xs ${e.late ? "font-semibold text-red-700" : "text-slate-600"}`}>Waiting {e.waiting}</div> : null}
            </>
          ),
        },
        {
          header: "Actions",
          className: "md:whitespace-nowrap md:text-right",
          cell: (e) => (
            <div className="flex flex-wrap gap-0.5 md:flex-nowrap md:justify-end md:[&_a]:px-1.5">
              <EditLink to={`/admin/enquiries/${e.id}${search}`} itemName={`enquiry from ${e.fullName}`}>
                View
              </EditLink>
              <DeleteButton
                to={`/admin/enquiries/${e.id}/delete${search}`}
                itemName={`enquiry from ${e.fullName}`}
                confirmMessage="Are you sure you want to delete this enquiry?"
              />
            </div>
          ),
        },
      ]}
    />
  );
}

/** Phone (a tel: link) and WhatsApp on the first line, the e-mail (cut when long) on the second. */
function ContactCell({ row: e }: { row: EnquiryRow }) {
  const tel = telUrl(e.phone);
  const whatsapp = whatsappChatUrl(e.phone);
  return (
    <div className="min-w-0">
      <div className="flex flex-wrap items-center gap-x-1.5 md:flex-nowrap md:whitespace-nowrap">
        {tel ? (
          <a href={tel} className="text-brand-700 underline-offset-2 hover:underline">
            {e.phone}
          </a>
        ) : (
          e.phone
        )}
        {/* The spec's "WhatsApp enabled" note, as the link to that chat; nothing when the student turned it off. */}
        {whatsapp && e.whatsappNotifications ? (
          <a href={whatsapp} target="_blank" rel="noopener noreferrer" className="text-xs font-medium text-green-800 underline-offset-2 hover:underline">
            WhatsApp enabled
            <span className="sr-only">: chat with {e.fullName} (opens in a new tab)</span>
          </a>
        ) : null}
      </div>
      <a
        href={mailtoUrl(e.email)}
        className="block break-all text-slate-700 underline-offset-2 hover:underline md:max-w-40 md:truncate md:break-normal"
        title={e.email}
      >
        {e.email}
      </a>
    </div>
  );
}
