import type { ContactQuery } from "~/models/contact-query.server";
import { formatDateTime } from "~/util/dates";
import { DataList } from "./data-list";
import { DeleteButton } from "./confirm-delete";
import { EditLink } from "./edit-link";
import { InboxStatusBadge } from "./inbox-status";
import { Typed } from "~/components/ui/typed";

export type ContactQueryRow = Pick<ContactQuery, "id" | "name" | "email" | "phone" | "subject" | "status" | "createdAt">;

/** Contact Queries (spec §2): Name, Contact, Subject, Status, Date with time, Actions. */
export function ContactQueryList({ queries, search }: { queries: ContactQueryRow[]; search: string }) {
  return (
    <DataList
      items={queries}
      rowKey={(q) => q.id}
      caption="Contact queries"
      empty="No contact queries found for the selected filter."
      columns={[
        {
          header: "Name",
          hideLabelOnCards: true,
          cell: (q) => (
            <span className="font-semibold text-slate-900">
              <Typed>{q.name}</Typed>
            </span>
          ),
        },
        {
          header: "Contact",
          cell: (q) => (
            <>
              <div className="break-all md:break-normal md:whitespace-nowrap">
                <Typed>{q.email}</Typed>
              </div>
              {q.phone ? (
                <div>
                  <Typed>{q.phone}</Typed>
                </div>
              ) : null}
            </>
          ),
        },
        { header: "Subject", cell: (q) => (q.subject ? <Typed>{q.subject}</Typed> : <span className="text-slate-600 italic">No subject</span>) },
        { header: "Status", cell: (q) => <InboxStatusBadge status={q.status} /> },
        { header: "Date", className: "md:whitespace-nowrap", cell: (q) => formatDateTime(q.createdAt) },
        {
          header: "Actions",
          className: "md:whitespace-nowrap md:text-right",
          cell: (q) => (
            <div className="flex flex-wrap gap-1 md:flex-nowrap md:justify-end">
              <EditLink to={`/admin/contact-queries/${q.id}${search}`} itemName={`query from ${q.name}`}>
                View
              </EditLink>
              <DeleteButton
                to={`/admin/contact-queries/${q.id}/delete${search}`}
                itemName={`query from ${q.name}`}
                confirmMessage="Are you sure you want to delete this contact query?"
              />
            </div>
          ),
        },
      ]}
    />
  );
}
