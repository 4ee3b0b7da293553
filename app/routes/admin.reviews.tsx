import { REVIEW_STATUS_LABELS, REVIEW_STATUSES } from "~/schemas/values";
import { Outlet, useLocation } from "react-router";
import type { Route } from "./+types/admin.reviews";
import { requireStaff } from "~/web/actor.server";
import { actAndReturn } from "~/web/admin-actions.server";
import { listHref, readListQuery } from "~/web/list-query";
import { loadPage } from "~/web/list-page.server";
import { REVIEW_APPROVE_FAILED, REVIEW_LOAD_FAILED } from "~/schemas/review";
import { approveReview, listReviews } from "~/services/reviews.server";
import { invalid } from "~/services/service-error";
import { PageHeader } from "~/components/admin/page-header";
import { LinkButton } from "~/components/admin/buttons";
import { ErrorBanner } from "~/components/admin/error-banner";
import { Pagination } from "~/components/admin/pagination";
import { Tabs } from "~/components/admin/tabs";
import { PublicationTabs } from "~/components/admin/publication-fields";
import { readStateFilter } from "~/schemas/publication";
import { ReviewList } from "~/components/admin/review-list";

export const meta: Route.MetaFunction = () => [{ title: "Manage Reviews | Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const url = new URL(request.url);
  const { status, page } = readListQuery(url, REVIEW_STATUSES);
  return loadPage(url, () => listReviews(actor, { status, page, state: readStateFilter(url) }), REVIEW_LOAD_FAILED, "reviews");
}

/** Approve (spec §4): pending becomes approved. Going back to pending is done by editing. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const form = await request.formData();
  const back = listHref("/admin/reviews", new URL(request.url).search);
  const id = String(form.get("id") ?? "");
  return actAndReturn(request, back, REVIEW_APPROVE_FAILED, async () => {
    if (form.get("intent") !== "approve" || !id) throw invalid({ intent: "Unknown action" });
    await approveReview(actor, id);
    return "Review approved.";
  });
}

export default function ManageReviews({ loaderData }: Route.ComponentProps) {
  const { list, error } = loaderData;
  const { search } = useLocation();
  return (
    <>
      <PageHeader
        title="Manage Reviews"
        description="Student reviews; only approved and published ones appear on the public site."
        actions={
          <LinkButton to={`/admin/reviews/new${search}`} preventScrollReset>
            Add Review
          </LinkButton>
        }
      />
      <Tabs
        param="status"
        label="Filter reviews"
        basePath="/admin/reviews"
        tabs={[{ value: "", label: "All Reviews" }, ...REVIEW_STATUSES.map((s) => ({ value: s, label: REVIEW_STATUS_LABELS[s] }))]}
      />
      <PublicationTabs basePath="/admin/reviews" />
      <ErrorBanner message={error} className="mb-4" />
      <Outlet />
      <ReviewList reviews={list.data} search={search} />
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["review", "reviews"]} />
    </>
  );
}
