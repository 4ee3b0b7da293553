import { Outlet, useLocation } from "react-router";
import { requireStaff } from "~/web/actor.server";
import type { Route } from "./+types/admin.schedules";
import { listSchedulesForStaff } from "~/services/schedules.server";
import { SCHEDULE_LOAD_FAILED } from "~/schemas/schedule";
import { readStateFilter } from "~/schemas/publication";
import { PublicationTabs } from "~/components/admin/publication-fields";
import { readListQuery } from "~/web/list-query";
import { loadPage } from "~/web/list-page.server";
import { PageHeader } from "~/components/admin/page-header";
import { LinkButton } from "~/components/admin/buttons";
import { ErrorBanner } from "~/components/admin/error-banner";
import { Pagination } from "~/components/admin/pagination";
import { ScheduleList } from "~/components/admin/schedule-list";

export const meta: Route.MetaFunction = () => [{ title: "Manage Schedules | Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const url = new URL(request.url);
  const { page } = readListQuery(url, []);
  return loadPage(url, () => listSchedulesForStaff({ page, state: readStateFilter(url) }), SCHEDULE_LOAD_FAILED, "schedules");
}

export default function ManageSchedules({ loaderData }: Route.ComponentProps) {
  const { list, error } = loaderData;
  const { search } = useLocation();
  return (
    <>
      <PageHeader
        title="Manage Schedules"
        description="Batches shown on the public schedules page."
        actions={
          <LinkButton to={`/admin/schedules/new${search}`} preventScrollReset>
            Add Schedule
          </LinkButton>
        }
      />
      <ErrorBanner message={error} className="mb-4" />
      {/* Child routes (add, edit, delete) render here: a dialog with JavaScript, the top of the page without. */}
      <Outlet />
      <PublicationTabs basePath="/admin/schedules" />
      <ScheduleList schedules={list.data} search={search} />
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["schedule", "schedules"]} />
    </>
  );
}
