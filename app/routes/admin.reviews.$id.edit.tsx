import { parseWithSchema } from "~/lib/form-submission";
import { data } from "react-router";
import type { Route } from "./+types/admin.reviews.$id.edit";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref } from "~/lib/list-query";
import { loadCourseOptions } from "~/lib/list-page.server";
import { getReview, updateReview } from "~/models/review.server";
import { REVIEW_SAVE_FAILED, reviewSchema } from "~/schemas/review";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ReviewForm } from "~/components/admin/review-form";

export const meta: Route.MetaFunction = () => [{ title: "Edit Review | Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const [review, courses] = await Promise.all([getReview(params.id), loadCourseOptions()]);
  if (!review) throw data("Review not found", { status: 404 });
  return { review, courseTitles: courses.map((c) => c.title) };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const submission = parseWithSchema(await request.formData(), reviewSchema);
  if (submission.status !== "success") return submission.reply();
  const back = listHref("/admin/reviews", new URL(request.url).search);
  try {
    if (!(await updateReview(params.id, submission.value))) return redirectWithFlash(request, back, { kind: "error", message: REVIEW_SAVE_FAILED });
  } catch (error) {
    console.error("[admin] updating a review failed:", error);
    return submission.reply({ formErrors: [REVIEW_SAVE_FAILED] });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: "Review saved." });
}

export default function EditReview({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/reviews");
  return (
    <DialogRoute title="Edit Review" backTo={backTo}>
      <ReviewForm defaultValue={loaderData.review} lastResult={actionData} cancelTo={backTo} courseTitles={loaderData.courseTitles} />
    </DialogRoute>
  );
}
