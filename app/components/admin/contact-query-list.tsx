import type { ContactQuery } from "~/models/contact-query.server";
import { formatDateTime } from "~/util/dates";
import { mailtoUrl, telUrl, whatsappChatUrl } from "~/util/contact-links";
import { DataList } from "./data-list";
import { DeleteButton } from "./confirm-delete";
import { EditLink } from "./edit-link";
import { InboxStatusBadge } from "./inbox-status";
import { Typed } from "~/components/ui/typed";

export type ContactQueryRow = Pick<ContactQuery, "id" | "name" | "email" | "phone" | "subject" | "status" | "createdAt"> & {
  /** The message's first line (cut at about 120 characters), so a list shows what each is about. */
  firstLine: string;
};

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
          cell: (q) => {
            const tel = telUrl(q.phone);
            const whatsapp = q.phone ? whatsappChatUrl(q.phone) : null;
            return (
              <>
                <a href={mailtoUrl(q.email)} className="block break-all text-slate-700 underline-offset-2 hover:underline md:break-normal md:whitespace-nowrap">
                  {q.email}
                </a>
                {tel ? (
                  <div className="flex flex-wrap gap-x-2">
                    <a href={tel} className="text-brand-700 underline-offset-2 hover:underline">
                      {q.phone}
                    </a>
                    {whatsapp ? (
                      <a
                        href={whatsapp}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="text-xs font-medium text-green-800 underline-offset-2 hover:underline"
                      >
                        WhatsApp<span className="sr-only">: chat with {q.name} (opens in a new tab)</span>
                      </a>
                    ) : null}
                  </div>
                ) : null}
              </>
            );
          },
        },
        {
          header: "Subject",
          cell: (q) => (
            <>
              <div>{q.subject ? <Typed>{q.subject}</Typed> : <span className="text-slate-600 italic">No subject</span>}</div>
              <div className="line-clamp-1 text-xs text-slate-600 md:max-w-xs" title={q.firstLine}>
                <Typed>{q.firstLine}</Typed>
              </div>
            </>
          ),
        },
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
