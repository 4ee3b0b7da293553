import { data } from "react-router";
import type { Route } from "./+types/admin.reviews.$id.delete";
import { requireStaff } from "~/web/actor.server";
import { actAndReturn } from "~/web/admin-actions.server";
import { listHref } from "~/web/list-query";
import { getReview } from "~/models/review.server";
import { deleteReview } from "~/services/reviews.server";
import { REVIEW_DELETE_FAILED } from "~/schemas/review";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { useBackTo } from "~/components/admin/dialog-route";

export const meta: Route.MetaFunction = () => [{ title: "Delete Review | Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const review = await getReview(params.id);
  if (!review) throw data("Review not found", { status: 404 });
  return { review: { name: review.name, course: review.course } };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const back = listHref("/admin/reviews", new URL(request.url).search);
  return actAndReturn(request, back, REVIEW_DELETE_FAILED, async () => {
    await deleteReview(actor, params.id);
    return "Review deleted.";
  });
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
