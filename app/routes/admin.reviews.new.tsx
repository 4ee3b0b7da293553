import { parseWithSchema } from "~/lib/form-submission";
import type { Route } from "./+types/admin.reviews.new";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref } from "~/lib/list-query";
import { loadCourseOptions } from "~/lib/list-page.server";
import { createReview } from "~/models/review.server";
import { REVIEW_SAVE_FAILED, reviewSchema } from "~/schemas/review";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ReviewForm } from "~/components/admin/review-form";

export const meta: Route.MetaFunction = () => [{ title: "Add Review | Admin" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return { courseTitles: (await loadCourseOptions()).map((c) => c.title) };
}

export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  const submission = parseWithSchema(await request.formData(), reviewSchema);
  if (submission.status !== "success") return submission.reply();
  try {
    await createReview(submission.value);
  } catch (error) {
    console.error("[admin] creating a review failed:", error);
    return submission.reply({ formErrors: [REVIEW_SAVE_FAILED] });
  }
  return redirectWithFlash(request, listHref("/admin/reviews", new URL(request.url).search), { kind: "notice", message: "Review saved." });
}

export default function NewReview({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/reviews");
  return (
    <DialogRoute title="Add New Review" backTo={backTo}>
      <ReviewForm lastResult={actionData} cancelTo={backTo} courseTitles={loaderData.courseTitles} />
    </DialogRoute>
  );
}
