import { CONTACT_STATUS_LABELS, CONTACT_STATUSES } from "~/schemas/values";
import { Outlet, useLocation } from "react-router";
import { requireStaff } from "~/web/actor.server";
import type { Route } from "./+types/admin.contact-queries";
import { listHref, readListQuery } from "~/web/list-query";
import { BUTTON_STYLES } from "~/components/admin/buttons";
import { loadPage } from "~/web/list-page.server";
import { CONTACT_QUERY_LOAD_FAILED } from "~/web/admin-messages";
import { listContactQueries } from "~/models/contact-query.server";
import { PageHeader } from "~/components/admin/page-header";
import { ErrorBanner } from "~/components/admin/error-banner";
import { Pagination } from "~/components/admin/pagination";
import { Tabs } from "~/components/admin/tabs";
import { ListSearch } from "~/components/admin/list-search";
import { ContactQueryList, type ContactQueryRow } from "~/components/admin/contact-query-list";

export const meta: Route.MetaFunction = () => [{ title: "Contact Queries | Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const url = new URL(request.url);
  const { status, q, page } = readListQuery(url, CONTACT_STATUSES);
  const { list, error } = await loadPage(url, () => listContactQueries({ status, q, page }), CONTACT_QUERY_LOAD_FAILED, "contact queries");
  // The list shows the message's first line only: the whole message stays on the server until a query is opened.
  const rows: ContactQueryRow[] = list.data.map(({ message, updatedAt: _u, version: _v, updatedBy: _b, ...row }) => ({
    ...row,
    firstLine: firstLineOf(message),
  }));
  return { list: { ...list, data: rows }, error };
}

export default function ContactQueries({ loaderData }: Route.ComponentProps) {
  const { list, error } = loaderData;
  const { search } = useLocation();
  return (
    <>
      <PageHeader
        title="Contact Queries"
        description="Messages sent through the contact form."
        actions={
          // A download, not a page: a plain link, so the browser saves the file.
          <a href={`/admin/contact-queries/export.csv${listHref("", search)}`} download className={BUTTON_STYLES.secondary}>
            Export CSV
          </a>
        }
      />
      <Tabs
        param="status"
        label="Filter contact queries by status"
        basePath="/admin/contact-queries"
        tabs={[{ value: "", label: "All Queries" }, ...CONTACT_STATUSES.map((s) => ({ value: s, label: CONTACT_STATUS_LABELS[s] }))]}
      />
      <ListSearch basePath="/admin/contact-queries" label="Search contact queries" placeholder="Name, e-mail or phone" />
      <ErrorBanner message={error} className="mb-4" />
      <Outlet />
      <ContactQueryList queries={list.data} search={search} />
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["query", "queries"]} />
    </>
  );
}

function firstLineOf(message: string): string {
  const line = message.split(/\r?\n/).find((l) => l.trim()) ?? "";
  return line.length > 120 ? `${line.slice(0, 117).trimEnd()}...` : line.trim();
}
