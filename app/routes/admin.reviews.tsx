import { Outlet, useLocation } from "react-router";
import type { Route } from "./+types/admin.reviews";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref, readListQuery } from "~/lib/list-query";
import { loadPage } from "~/lib/list-page.server";
import { approveReview, listReviews } from "~/models/review.server";
import { REVIEW_APPROVE_FAILED, REVIEW_LOAD_FAILED } from "~/schemas/review";
import { PageHeader } from "~/components/admin/page-header";
import { LinkButton } from "~/components/admin/buttons";
import { ErrorBanner } from "~/components/admin/error-banner";
import { Pagination } from "~/components/admin/pagination";
import { Tabs } from "~/components/admin/tabs";
import { ReviewList } from "~/components/admin/review-list";

export const meta: Route.MetaFunction = () => [{ title: "Manage Reviews | Admin" }];

const STATUSES = ["approved", "pending"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  const { status, page } = readListQuery(url, STATUSES);
  return loadPage(url, () => listReviews({ status, page }), REVIEW_LOAD_FAILED, "reviews");
}

/** Approve (spec §4): pending becomes approved. Going back to pending is done by editing. */
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const back = listHref("/admin/reviews", new URL(request.url).search);
  const id = String(form.get("id") ?? "");
  if (form.get("intent") !== "approve" || !id) return redirectWithFlash(request, back, { kind: "error", message: REVIEW_APPROVE_FAILED });
  try {
    if (!(await approveReview(id))) return redirectWithFlash(request, back, { kind: "error", message: REVIEW_APPROVE_FAILED });
  } catch (error) {
    console.error("[admin] approving a review failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: REVIEW_APPROVE_FAILED });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: "Review approved." });
}

export default function ManageReviews({ loaderData }: Route.ComponentProps) {
  const { list, error } = loaderData;
  const { search } = useLocation();
  return (
    <>
      <PageHeader
        title="Manage Reviews"
        description="Student reviews; only approved ones appear on the public site."
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
        tabs={[
          { value: "", label: "All Reviews" },
          { value: "approved", label: "Approved" },
          { value: "pending", label: "Pending" },
        ]}
      />
      <ErrorBanner message={error} className="mb-4" />
      <Outlet />
      <ReviewList reviews={list.data} search={search} />
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["review", "reviews"]} />
    </>
  );
}
