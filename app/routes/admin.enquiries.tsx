import { randomUUID } from "node:crypto";
import { ENQUIRY_SORT_LABELS, ENQUIRY_SORTS, ENQUIRY_STATUS_LABELS, ENQUIRY_STATUSES } from "~/schemas/values";
import { Link, Outlet, useLocation } from "react-router";
import type { Route } from "./+types/admin.enquiries";
import { requireStaff } from "~/web/actor.server";
import { formToObject } from "~/web/api-body.server";
import { readEnquiryListQuery } from "~/web/enquiry-list-query";
import { redirectWithFlash } from "~/web/flash.server";
import { formatDate, formatShortDateTime } from "~/util/dates";
import { ageText } from "~/util/format";
import { listHref, withParam } from "~/web/list-query";
import { loadPage } from "~/web/list-page.server";
import { ENQUIRY_LOAD_FAILED, ENQUIRY_STATUS_FAILED } from "~/web/admin-messages";
import { listCourseTitles } from "~/models/course.server";
import { listSourceLabels } from "~/models/enquiry.server";
import { listAllSchedules } from "~/models/schedule.server";
import { batchTitle } from "~/services/waitlist.server";
import { listStaffNames } from "~/models/user.server";
import { bulkUpdateEnquiries } from "~/services/enquiries.server";
import { followUpOverdue, listEnquiries, pastResponsePromise, waitingMs } from "~/services/enquiry-lists.server";
import { isServiceError } from "~/services/service-error";
import { PageHeader } from "~/components/admin/page-header";
import { ErrorBanner } from "~/components/admin/error-banner";
import { Pagination } from "~/components/admin/pagination";
import { Tabs } from "~/components/admin/tabs";
import { ListSearch } from "~/components/admin/list-search";
import { EnquiryFilters } from "~/components/admin/enquiry-filters";
import { EnquiryBulkBar } from "~/components/admin/enquiry-bulk-bar";
import { EnquiryList, type EnquiryRow } from "~/components/admin/enquiry-list";
import { BUTTON_STYLES } from "~/components/admin/buttons";

export const meta: Route.MetaFunction = () => [{ title: "Manage Enquiries | Admin" }];

/** Tab, search, filters and page all go to SQL (listEnquiries), so the screen stays fast with 100,000 rows. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const url = new URL(request.url);
  const { query, values } = readEnquiryListQuery(url);
  const [{ list, error }, staff, courses, sources, batches] = await Promise.all([
    loadPage(url, () => listEnquiries(actor, query), ENQUIRY_LOAD_FAILED, "enquiries"),
    listStaffNames(),
    listCourseTitles("staff").then((rows) => rows.map((r) => r.title)),
    listSourceLabels(),
    listAllSchedules().then((rows) =>
      rows.sort((a, b) => a.startDate.localeCompare(b.startDate) || a.courseName.localeCompare(b.courseName)).map((s) => ({ id: s.id, label: batchTitle(s) })),
    ),
  ]);
  const names = new Map(staff.map((u) => [u.id, u.name]));
  const now = Date.now();
  // The list shows no message or files; the flags are worked out here, on the server, once.
  const rows: EnquiryRow[] = list.data.map((e) => {
    const waiting = waitingMs(e, now);
    return {
      id: e.id,
      fullName: e.fullName,
      email: e.email,
      phone: e.phone,
      preferredCourse: e.preferredCourse,
      preferredMode: e.preferredMode,
      whatsappNotifications: e.whatsappNotifications,
      status: e.status,
      version: e.version,
      createdAt: e.createdAt,
      sourceLabel: e.sourceLabel,
      escalated: e.escalatedAt !== null && e.status === "new" && e.touchedAt === null,
      possibleDuplicate: e.duplicateOf.length > 0,
      assigneeName: e.assigneeId ? (names.get(e.assigneeId) ?? "(deleted user)") : null,
      followUp: e.followUpAt ? formatShortDateTime(e.followUpAt, new Date(now)) : null,
      date: formatDate(e.createdAt),
      overdue: followUpOverdue(e, now),
      waiting: waiting === null ? null : ageText(waiting),
      late: pastResponsePromise(waiting),
    };
  });
  // A fresh key per drawing: the bulk form's post is applied once, and the list and its ticks start afresh after it.
  return { list: { ...list, data: rows }, error, values, options: { staff, courses, sources, batches }, queue: query.view === "queue", formKey: randomUUID() };
}

/** The bulk change of the ticked enquiries (status and/or owner), all or nothing, then back to the same list. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const back = listHref("/admin/enquiries", new URL(request.url).search);
  const form = await request.formData();
  try {
    const n = await bulkUpdateEnquiries(actor, formToObject(form));
    return redirectWithFlash(request, back, { kind: "notice", message: `${n} ${n === 1 ? "enquiry" : "enquiries"} updated.` });
  } catch (error) {
    if (!isServiceError(error)) console.error("[admin] a bulk change of enquiries failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: isServiceError(error) ? error.message : ENQUIRY_STATUS_FAILED });
  }
}

export default function ManageEnquiries({ loaderData }: Route.ComponentProps) {
  const { list, error, values, options, queue, formKey } = loaderData;
  const { search } = useLocation();
  // The list as it is on screen: its view, tab, search, filters and order (not its page: the file holds every row).
  const exportHref = withParam("/admin/enquiries/export.csv", search, "page", undefined);
  return (
    <>
      <PageHeader
        title={queue ? "My queue" : "Manage Enquiries"}
        description={
          queue ? "Your overdue follow-ups first, then New enquiries that are yours or nobody's, oldest first." : "Enrolment enquiries from the website."
        }
        actions={
          <>
            {queue ? (
              <Link to="/admin/enquiries" className={BUTTON_STYLES.secondary}>
                All enquiries
              </Link>
            ) : (
              <Link to="/admin/enquiries?view=queue" className={BUTTON_STYLES.primary}>
                My queue
              </Link>
            )}
            {/* A download, not a page: a plain link, so the browser saves the file. */}
            <a href={exportHref} download className={BUTTON_STYLES.secondary}>
              Export CSV
            </a>
          </>
        }
      />
      <Tabs
        param="status"
        label="Filter enquiries by status"
        basePath="/admin/enquiries"
        tabs={[{ value: "", label: "All Enquiries" }, ...ENQUIRY_STATUSES.map((s) => ({ value: s, label: ENQUIRY_STATUS_LABELS[s] }))]}
      />
      <ListSearch basePath="/admin/enquiries" label="Search enquiries" placeholder="Name, e-mail or phone" />
      <EnquiryFilters values={values} options={options} />
      {queue ? null : (
        <Tabs
          param="sort"
          label="Order of the list"
          basePath="/admin/enquiries"
          tabs={ENQUIRY_SORTS.map((s) => ({ value: s === "newest" ? "" : s, label: ENQUIRY_SORT_LABELS[s] }))}
        />
      )}
      <ErrorBanner message={error} className="mb-4" />
      <Outlet />
      <div key={formKey}>
        {list.data.length ? <EnquiryBulkBar staff={options.staff} action={`/admin/enquiries${listHref("", search)}`} formKey={formKey} /> : null}
        <EnquiryList enquiries={list.data} search={search} />
      </div>
      <Pagination page={list.page} pages={list.pages} total={list.total} capped={list.totalCapped} noun={["enquiry", "enquiries"]} />
    </>
  );
}
