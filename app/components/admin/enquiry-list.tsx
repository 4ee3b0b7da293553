import { DELIVERY_MODE_LABELS } from "~/schemas/values";
import type { Enquiry } from "~/models/enquiry.server";
import { formatDate } from "~/util/dates";
import { DataList } from "./data-list";
import { DeleteButton } from "./confirm-delete";
import { EditLink } from "./edit-link";
import { InboxStatusBadge } from "./inbox-status";
import { StatusBadge } from "./status-badge";
import { BULK_FORM_ID } from "./enquiry-bulk-bar";
import { Typed } from "~/components/ui/typed";

export type EnquiryRow = Pick<
  Enquiry,
  "id" | "fullName" | "email" | "phone" | "preferredCourse" | "preferredMode" | "whatsappNotifications" | "status" | "createdAt" | "sourceLabel"
> & {
  possibleDuplicate: boolean;
  assigneeName: string | null;
  /** The next follow-up, already in Hyderabad time ("Nov 24, 2026, 10:30 AM"), and whether it is past. */
  followUp: string | null;
  overdue: boolean;
  /** A New enquiry nobody has answered: how long it has waited, and whether that is past the 24-hour promise. */
  waiting: string | null;
  late: boolean;
};

/** Manage Enquiries (spec §2): Student, Contact, Course & Mode, Status, Date, Actions; plus owner, follow-up and flags. */
export function EnquiryList({ enquiries, search }: { enquiries: EnquiryRow[]; search: string }) {
  return (
    <DataList
      items={enquiries}
      rowKey={(e) => e.id}
      caption="Enquiries"
      empty="No enquiries found for the selected filter."
      columns={[
        {
          header: "Student",
          hideLabelOnCards: true,
          cell: (e) => (
            <div className="flex gap-3">
              {/* Belongs to the bulk form above the list (its form attribute), so ticking works without JavaScript. */}
              <input
                type="checkbox"
                name="ids"
                value={e.id}
                form={BULK_FORM_ID}
                aria-label={`Select the enquiry from ${e.fullName}`}
                className="mt-1 size-4 shrink-0 accent-brand-700"
              />
              <div className="min-w-0">
                <span className="font-semibold wrap-anywhere text-slate-900">
                  <Typed>{e.fullName}</Typed>
                </span>
                <div className="mt-1 flex flex-wrap gap-1">
                  {e.late ? <StatusBadge tone="red">No reply in 24 h</StatusBadge> : null}
                  {e.overdue ? <StatusBadge tone="red">Follow-up overdue</StatusBadge> : null}
                  {e.possibleDuplicate ? <StatusBadge tone="purple">Possible duplicate</StatusBadge> : null}
                </div>
              </div>
            </div>
          ),
        },
        {
          header: "Contact",
          cell: (e) => (
            <div className="min-w-0">
              <div className="break-all md:break-normal md:whitespace-nowrap">
                <Typed>{e.email}</Typed>
              </div>
              <div>
                <Typed>{e.phone}</Typed>
              </div>
              {e.whatsappNotifications ? <div className="text-xs font-medium text-green-800">WhatsApp enabled</div> : null}
            </div>
          ),
        },
        {
          header: "Course & Mode",
          cell: (e) => (
            <>
              <div>
                <Typed>{e.preferredCourse}</Typed>
              </div>
              <div className="text-slate-600">{DELIVERY_MODE_LABELS[e.preferredMode]}</div>
              <div className="text-xs text-slate-600">Source: {e.sourceLabel}</div>
            </>
          ),
        },
        {
          header: "Owner & Follow-up",
          cell: (e) => (
            <>
              <div>{e.assigneeName ?? <span className="text-slate-600">Unassigned</span>}</div>
              {e.followUp ? <div className={`text-xs ${e.overdue ? "font-semibold text-red-700" : "text-slate-600"}`}>Follow up {e.followUp}</div> : null}
            </>
          ),
        },
        {
          header: "Status",
          cell: (e) => (
            <>
              <InboxStatusBadge status={e.status} />
              {e.waiting ? <div className={`mt-1 text-xs ${e.late ? "font-semibold text-red-700" : "text-slate-600"}`}>Waiting {e.waiting}</div> : null}
            </>
          ),
        },
        { header: "Date", className: "md:whitespace-nowrap", cell: (e) => formatDate(e.createdAt) },
        {
          header: "Actions",
          className: "md:whitespace-nowrap md:text-right",
          cell: (e) => (
            <div className="flex flex-wrap gap-1 md:flex-nowrap md:justify-end">
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
