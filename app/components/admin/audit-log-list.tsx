import { Typed } from "~/components/ui/typed";
import { AUDIT_ACTION_LABELS, AUDIT_ENTITY_LABELS, type AuditEntityType } from "~/schemas/values";
import { Link } from "react-router";
import { formatDateTime } from "~/util/dates";
import type { AuditEntry } from "~/models/audit-log.server";
import { AUDIT_LOG_EMPTY } from "~/schemas/audit-log";
import { DataList } from "./data-list";

/** Where an entity is managed; sessions have no screen. A deleted record's link lands on the admin "Not found" page. */
const ENTITY_PATHS: Partial<Record<AuditEntityType, (id: string) => string>> = {
  course: (id) => `/admin/courses/${id}/edit`,
  schedule: (id) => `/admin/schedules/${id}/edit`,
  review: (id) => `/admin/reviews/${id}/edit`,
  enquiry: (id) => `/admin/enquiries/${id}`,
  contact_query: (id) => `/admin/contact-queries/${id}`,
  user: (id) => `/admin/users/${id}/edit`,
};

/** What was changed, by its kind, linked to its screen; the summary beside it names it (never a bare id). */
function Entity({ entry }: { entry: AuditEntry }) {
  const label = AUDIT_ENTITY_LABELS[entry.entityType] ?? entry.entityType;
  const path = entry.entityId ? ENTITY_PATHS[entry.entityType]?.(encodeURIComponent(entry.entityId)) : undefined;
  if (!path) return <span>{label}</span>;
  return (
    <Link to={path} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
      {label}
      <span className="sr-only"> (open it)</span>
    </Link>
  );
}

/** "Mar 5, 2027, 3:04 PM" on wide screens as two lines (the day, then the time), to leave room for the other columns. */
function When({ at }: { at: string }) {
  const text = formatDateTime(at);
  const cut = text.lastIndexOf(", ");
  return (
    <time dateTime={at} className="md:whitespace-nowrap">
      {cut > 0 ? (
        <>
          {text.slice(0, cut)}
          <span className="md:hidden">, </span>
          <span className="md:block md:text-xs md:text-slate-600">{text.slice(cut + 2)}</span>
        </>
      ) : (
        text
      )}
    </time>
  );
}

/** The audit log (admins only): newest first; times in Hyderabad. */
export function AuditLogList({ entries }: { entries: AuditEntry[] }) {
  return (
    <DataList
      items={entries}
      rowKey={(e) => e.id}
      caption="Audit log entries"
      empty={AUDIT_LOG_EMPTY}
      columns={[
        { header: "When", cell: (e) => <When at={e.at} /> },
        { header: "Who", cell: (e) => <span className="font-semibold text-slate-900">{e.userName || "—"}</span> },
        { header: "Action", className: "md:whitespace-nowrap", cell: (e) => AUDIT_ACTION_LABELS[e.action] ?? e.action },
        { header: "Entity", cell: (e) => <Entity entry={e} /> },
        { header: "Summary", className: "md:min-w-48", cell: (e) => (e.summary ? <Typed className="break-words">{e.summary}</Typed> : "—") },
        // Seven columns share about 740 px beside the sidebar at 1280 px: the long, rarely read values wrap.
        { header: "IP", cell: (e) => <span className="block font-mono text-xs break-all md:min-w-20 md:max-w-28">{e.ip || "—"}</span> },
        { header: "Request id", cell: (e) => <span className="block font-mono text-xs break-all text-slate-600 md:max-w-20">{e.requestId || "—"}</span> },
      ]}
    />
  );
}
