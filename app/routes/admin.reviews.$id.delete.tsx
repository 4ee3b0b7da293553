import { data } from "react-router";
import type { Route } from "./+types/admin.reviews.$id.delete";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref } from "~/lib/list-query";
import { deleteReview, getReview } from "~/models/review.server";
import { REVIEW_DELETE_FAILED } from "~/schemas/review";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { useBackTo } from "~/components/admin/dialog-route";

export const meta: Route.MetaFunction = () => [{ title: "Delete Review | Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const review = await getReview(params.id);
  if (!review) throw data("Review not found", { status: 404 });
  return { review: { name: review.name, course: review.course } };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const back = listHref("/admin/reviews", new URL(request.url).search);
  try {
    if (!(await deleteReview(params.id))) return redirectWithFlash(request, back, { kind: "error", message: REVIEW_DELETE_FAILED });
  } catch (error) {
    console.error("[admin] deleting a review failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: REVIEW_DELETE_FAILED });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: "Review deleted." });
}

export default function DeleteReview({ loaderData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/reviews");
  return (
    <ConfirmDeletePage title="Delete Review" backTo={backTo}>
      <p>
        Are you sure you want to delete the review by <strong>{loaderData.review.name}</strong> ({loaderData.review.course})? This cannot be undone.
      </p>
    </ConfirmDeletePage>
  );
}
