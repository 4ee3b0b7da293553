import { data } from "react-router";
import type { Route } from "./+types/admin.audit-log";
import { AuditLogFilters } from "~/components/admin/audit-log-filters";
import { AuditLogList } from "~/components/admin/audit-log-list";
import { ErrorBanner } from "~/components/admin/error-banner";
import { PageHeader } from "~/components/admin/page-header";
import { Pagination } from "~/components/admin/pagination";
import { readAuditLogQuery } from "~/web/audit-log-query";
import { loadPage } from "~/web/list-page.server";
import { requireStaff } from "~/web/actor.server";
import type { AuditEntry } from "~/models/audit-log.server";
import { auditLogUsers, listAuditLog } from "~/services/audit.server";
import { AUDIT_LOG_LOAD_FAILED } from "~/schemas/audit-log";

export const meta: Route.MetaFunction = () => [{ title: "Audit Log · Admin" }];

const LABELS = { user: "User", entityType: "Entity type", from: "From", to: "To" } as const;

// Admins only (DESIGN.md §4.2): an editor gets 403, shown inside the admin frame; the service checks again.
// The filter is checked with the service's own schema first (readAuditLogQuery), so the service has nothing left to refuse.
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const url = new URL(request.url);
  const query = readAuditLogQuery(url);
  const users = await auditLogUsers(actor).catch((error: unknown) => {
    console.error("[admin] loading the audit log's users failed:", error);
    return [];
  });
  if (!query.ok) {
    const message = `The filter was not applied. ${Object.entries(query.errors)
      .map(([key, text]) => `${LABELS[key as keyof typeof LABELS]}: ${text}.`)
      .join(" ")}`;
    const list = { data: [] as AuditEntry[], total: 0, page: 1, limit: 20, pages: 1 };
    return data({ list, error: message, filterErrors: query.errors, values: query.raw, users }, { status: 400 });
  }
  const { list, error } = await loadPage(url, () => listAuditLog(actor, { ...query.filter, page: query.page }), AUDIT_LOG_LOAD_FAILED, "audit log");
  return { list, error, filterErrors: {}, values: query.raw, users };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { list, error, filterErrors, values, users } = loaderData;
  return (
    <>
      <PageHeader title="Audit Log" description="Who changed what in the back office and the API, newest first. Times are Hyderabad time (IST)." />
      <AuditLogFilters values={values} errors={filterErrors} users={users} />
      <ErrorBanner message={error} className="mb-4" />
      {Object.keys(filterErrors).length ? null : <AuditLogList entries={list.data} />}
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["entry", "entries"]} />
    </>
  );
}
