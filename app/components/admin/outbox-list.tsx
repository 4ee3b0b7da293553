import { Form, Link } from "react-router";
import { formatDateTime } from "~/util/dates";
import type { OutboxMessage } from "~/models/outbox.server";
import { OUTBOX_KIND_LABELS, OUTBOX_STATUS_LABELS, type OutboxStatus } from "~/schemas/values";
import { BUTTON_STYLES } from "./buttons";
import { DataList } from "./data-list";
import { StatusBadge, type BadgeTone } from "./status-badge";
import { Typed } from "~/components/ui/typed";

const STATUS_TONE: Record<OutboxStatus, BadgeTone> = { pending: "blue", sent: "green", failed: "red", waiting: "yellow" };

export function OutboxStatusBadge({ status }: { status: OutboxStatus }) {
  return <StatusBadge tone={STATUS_TONE[status]}>{OUTBOX_STATUS_LABELS[status]}</StatusBadge>;
}

const RECORD_LINKS: Record<string, { path: string; label: string }> = {
  enquiry: { path: "/admin/enquiries/", label: "View enquiry" },
  contact_query: { path: "/admin/contact-queries/", label: "View contact query" },
};

function Times({ m }: { m: OutboxMessage }) {
  const lines: [string, string][] = [["Queued", m.createdAt]];
  if (m.lastAttemptAt) lines.push(["Last try", m.lastAttemptAt]);
  if (m.status === "sent" && m.sentAt) lines.push(["Sent", m.sentAt]);
  else if (m.status === "pending") lines.push(["Next try", m.nextAttemptAt]);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      {lines.map(([label, at]) => (
        <div key={label} className="contents">
          <dt className="whitespace-nowrap text-slate-600">{label}</dt>
          <dd className="whitespace-nowrap text-slate-800">{formatDateTime(at)}</dd>
        </div>
      ))}
    </dl>
  );
}

function ResendForm({ m, action }: { m: OutboxMessage; action: string }) {
  return (
    <Form method="post" action={action} className="mt-2">
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="id" value={m.id} />
      <button type="submit" className={`${BUTTON_STYLES.secondary} px-3 py-1`}>
        Resend
        <span className="sr-only">
          {" "}
          {m.subject} to {m.recipient}
        </span>
      </button>
    </Form>
  );
}

/** The Outbox screen's list: one row per e-mail or webhook, with Resend on failed ones (a plain POST form). */
export function OutboxList({ messages, action }: { messages: OutboxMessage[]; action: string }) {
  return (
    <DataList
      items={messages}
      rowKey={(m) => m.id}
      caption="Outbox messages"
      empty="No messages found for the selected filter."
      columns={[
        {
          header: "Message",
          hideLabelOnCards: true,
          className: "md:min-w-44",
          cell: (m) => {
            const link = m.entityType && m.entityId ? RECORD_LINKS[m.entityType] : undefined;
            return (
              <>
                <StatusBadge tone={m.kind === "email" ? "brand" : "purple"}>{OUTBOX_KIND_LABELS[m.kind]}</StatusBadge>
                <p className="mt-1 font-semibold break-words text-slate-900">
                  <Typed>{m.subject}</Typed>
                </p>
                {link ? (
                  <Link to={`${link.path}${m.entityId}`} className="text-xs font-semibold text-brand-700 hover:underline">
                    {link.label}
                  </Link>
                ) : null}
              </>
            );
          },
        },
        {
          header: "To",
          // One address per line; on a narrow card a long URL still wraps.
          cell: (m) => (
            <ul className="break-words">
              {m.recipient.split(", ").map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          ),
        },
        {
          header: "Status",
          cell: (m) => (
            <>
              <OutboxStatusBadge status={m.status} />
              <p className="mt-1 text-xs text-slate-600">{m.attempts === 1 ? "1 attempt" : `${m.attempts} attempts`}</p>
              {/* Beside the status it acts on, so the table needs no Actions column of its own. */}
              {m.status === "failed" ? <ResendForm m={m} action={action} /> : null}
            </>
          ),
        },
        {
          header: "Last error",
          className: "md:min-w-40",
          cell: (m) =>
            m.lastError ? <span className="text-xs [overflow-wrap:anywhere] text-red-800">{m.lastError}</span> : <span className="text-slate-600">None</span>,
        },
        { header: "Times", className: "md:whitespace-nowrap", cell: (m) => <Times m={m} /> },
      ]}
    />
  );
}
