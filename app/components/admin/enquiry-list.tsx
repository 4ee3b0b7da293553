import type { Enquiry } from "~/models/enquiry.server";
import { formatDate } from "~/lib/dates";
import { DataList } from "./data-list";
import { DeleteButton } from "./confirm-delete";
import { EditLink } from "./edit-link";
import { InboxStatusBadge, statusLabel } from "./inbox-status";

export type EnquiryRow = Pick<Enquiry, "id" | "fullName" | "email" | "phone" | "preferredCourse" | "preferredMode" | "whatsappNotifications" | "status" | "createdAt">;

/** Manage Enquiries (spec §2): Student, Contact, Course & Mode, Status, Date, Actions. */
export function EnquiryList({ enquiries, search }: { enquiries: EnquiryRow[]; search: string }) {
  return (
    <DataList
      items={enquiries}
      rowKey={(e) => e.id}
      caption="Enquiries"
      empty="No enquiries found for the selected filter."
      columns={[
        { header: "Student", hideLabelOnCards: true, cell: (e) => <span className="font-semibold text-slate-900">{e.fullName}</span> },
        {
          header: "Contact",
          cell: (e) => (
            <div className="min-w-0">
              <div className="break-all md:break-normal md:whitespace-nowrap">{e.email}</div>
              <div>{e.phone}</div>
              {e.whatsappNotifications ? <div className="text-xs font-medium text-green-800">WhatsApp enabled</div> : null}
            </div>
          ),
        },
        {
          header: "Course & Mode",
          cell: (e) => (
            <>
              <div>{e.preferredCourse}</div>
              <div className="text-slate-600">{statusLabel(e.preferredMode)}</div>
            </>
          ),
        },
        { header: "Status", cell: (e) => <InboxStatusBadge status={e.status} /> },
        { header: "Date", className: "md:whitespace-nowrap", cell: (e) => formatDate(e.createdAt) },
        {
          header: "Actions",
          className: "md:whitespace-nowrap md:text-right",
          cell: (e) => (
            <div className="flex flex-wrap gap-1 md:flex-nowrap md:justify-end">
              <EditLink to={`/admin/enquiries/${e.id}${search}`} itemName={`enquiry from ${e.fullName}`}>
                View
              </EditLink>
              <DeleteButton to={`/admin/enquiries/${e.id}/delete${search}`} itemName={`enquiry from ${e.fullName}`} confirmMessage="Are you sure you want to delete this enquiry?" />
            </div>
          ),
        },
      ]}
    />
  );
}
