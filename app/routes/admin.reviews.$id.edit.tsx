import { data } from "react-router";
import type { Route } from "./+types/admin.reviews.$id.edit";
import { requireStaff } from "~/web/actor.server";
import { formFailureData } from "~/web/admin-actions.server";
import { receiveReviewForm } from "~/web/review-upload.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { loadCourseOptions } from "~/web/list-page.server";
import { getReview } from "~/models/review.server";
import { REVIEW_SAVE_FAILED } from "~/schemas/review";
import { isServiceError } from "~/services/service-error";
import { updateReview } from "~/services/reviews.server";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ReviewForm } from "~/components/admin/review-form";

export const meta: Route.MetaFunction = () => [{ title: "Edit Review | Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const [review, courses] = await Promise.all([getReview(params.id), loadCourseOptions()]);
  if (!review) throw data("Review not found", { status: 404 });
  return { review, courseTitles: courses.map((c) => c.title) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const { form, fields, photo } = await receiveReviewForm(request);
  const back = listHref("/admin/reviews", new URL(request.url).search);
  try {
    await updateReview(actor, params.id, fields, photo);
  } catch (error) {
    if (isServiceError(error, "notFound")) return redirectWithFlash(request, back, { kind: "error", message: REVIEW_SAVE_FAILED });
    return formFailureData(error, form, REVIEW_SAVE_FAILED, { what: "a review" });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: "Review saved." });
}

export default function EditReview({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/reviews");
  return (
    <DialogRoute title="Edit Review" backTo={backTo}>
      <ReviewForm defaultValue={loaderData.review} lastResult={actionData?.result} cancelTo={backTo} courseTitles={loaderData.courseTitles} />
    </DialogRoute>
  );
}
