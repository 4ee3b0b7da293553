import { Outlet, useLocation } from "react-router";
import type { Route } from "./+types/admin.enquiries";
import { requireUser } from "~/lib/session.server";
import { readListQuery } from "~/lib/list-query";
import { loadPage } from "~/lib/list-page.server";
import { ENQUIRY_LOAD_FAILED } from "~/lib/admin-messages";
import { ENQUIRY_STATUSES, listEnquiries } from "~/models/enquiry.server";
import { PageHeader } from "~/components/admin/page-header";
import { ErrorBanner } from "~/components/admin/error-banner";
import { Pagination } from "~/components/admin/pagination";
import { Tabs } from "~/components/admin/tabs";
import { ListSearch } from "~/components/admin/list-search";
import { EnquiryList, type EnquiryRow } from "~/components/admin/enquiry-list";

export const meta: Route.MetaFunction = () => [{ title: "Manage Enquiries | Admin" }];

/** Tab, search and page all go to SQL (listEnquiries), so the screen stays fast with 100,000 rows. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  const { status, q, page } = readListQuery(url, ENQUIRY_STATUSES);
  const { list, error } = await loadPage(url, () => listEnquiries({ status, q, page }), ENQUIRY_LOAD_FAILED, "enquiries");
  // The list shows no message or files; leave them out of the page data.
  const rows: EnquiryRow[] = list.data.map(({ message: _m, filePaths: _f, updatedAt: _u, ...row }) => row);
  return { list: { ...list, data: rows }, error };
}

export default function ManageEnquiries({ loaderData }: Route.ComponentProps) {
  const { list, error } = loaderData;
  const { search } = useLocation();
  return (
    <>
      <PageHeader title="Manage Enquiries" description="Enrolment enquiries from the website." />
      <Tabs
        param="status"
        label="Filter enquiries by status"
        basePath="/admin/enquiries"
        tabs={[
          { value: "", label: "All Enquiries" },
          { value: "new", label: "New" },
          { value: "contacted", label: "Contacted" },
          { value: "enrolled", label: "Enrolled" },
          { value: "closed", label: "Closed" },
        ]}
      />
      <ListSearch basePath="/admin/enquiries" label="Search enquiries" placeholder="Name, e-mail or phone" />
      <ErrorBanner message={error} className="mb-4" />
      <Outlet />
      <EnquiryList enquiries={list.data} search={search} />
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["enquiry", "enquiries"]} />
    </>
  );
}
