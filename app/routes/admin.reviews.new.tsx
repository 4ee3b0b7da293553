import type { Route } from "./+types/admin.reviews.new";
import { requireStaff } from "~/web/actor.server";
import { formFailureData } from "~/web/admin-actions.server";
import { receiveReviewForm } from "~/web/review-upload.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { loadCourseOptions } from "~/web/list-page.server";
import { REVIEW_SAVE_FAILED } from "~/schemas/review";
import { createReview } from "~/services/reviews.server";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ReviewForm } from "~/components/admin/review-form";

export const meta: Route.MetaFunction = () => [{ title: "Add Review | Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  return { courseTitles: (await loadCourseOptions()).map((c) => c.title) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const { form, fields, photo } = await receiveReviewForm(request);
  try {
    await createReview(actor, fields, photo);
  } catch (error) {
    return formFailureData(error, form, REVIEW_SAVE_FAILED, { what: "a review" });
  }
  return redirectWithFlash(request, listHref("/admin/reviews", new URL(request.url).search), { kind: "notice", message: "Review saved." });
}

export default function NewReview({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/reviews");
  return (
    <DialogRoute title="Add New Review" backTo={backTo}>
      <ReviewForm lastResult={actionData?.result} cancelTo={backTo} courseTitles={loaderData.courseTitles} />
    </DialogRoute>
  );
}
