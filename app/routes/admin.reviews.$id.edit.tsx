import { randomUUID } from "node:crypto";
import { data } from "react-router";
import type { Route } from "./+types/admin.reviews.$id.edit";
import { requireStaff } from "~/web/actor.server";
import { formFailureData } from "~/web/admin-actions.server";
import { receiveReviewForm } from "~/web/review-upload.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { loadCourseOptions } from "~/web/list-page.server";
import { getReview } from "~/models/review.server";
import { REVIEW_FIELD_LABELS, REVIEW_SAVE_FAILED } from "~/schemas/review";
import { REVIEW_TYPE_LABELS, PUBLICATION_STATE_LABELS } from "~/schemas/values";
import { EditConflictNotice } from "~/components/admin/edit-conflict";
import type { FormFailureData } from "~/web/admin-actions.server";
import { isServiceError } from "~/services/service-error";
import { updateReview } from "~/services/reviews.server";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ReviewForm } from "~/components/admin/review-form";

export const meta: Route.MetaFunction = () => [{ title: "Edit Review | Admin" }];

/** After every post, refused ones too: a form refused for a change meanwhile must be drawn again from what is stored now. */
export function shouldRevalidate() {
  return true;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const [review, courses] = await Promise.all([getReview(params.id), loadCourseOptions()]);
  if (!review) throw data("Review not found", { status: 404 });
  // A fresh key each time the form is drawn: a post of this drawing is applied once.
  return { review, courseTitles: courses.map((c) => c.title), formKey: randomUUID() };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const { form, fields, photo } = await receiveReviewForm(request);
  const back = listHref("/admin/reviews", new URL(request.url).search);
  try {
    await updateReview(actor, params.id, fields, photo);
  } catch (error) {
    if (isServiceError(error, "notFound")) return redirectWithFlash(request, back, { kind: "error", message: REVIEW_SAVE_FAILED });
    return formFailureData(error, form, REVIEW_SAVE_FAILED, {
      what: "a review",
      fields: { labels: REVIEW_FIELD_LABELS, valueText: { type: REVIEW_TYPE_LABELS, state: PUBLICATION_STATE_LABELS } },
    });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: "Review saved." });
}

export default function EditReview({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/reviews");
  const { review, courseTitles, formKey } = loaderData;
  const failure = actionData as FormFailureData | undefined;
  return (
    <DialogRoute title="Edit Review" backTo={backTo}>
      <EditConflictNotice conflict={failure?.conflict} className="mb-4" />
      {/* Keyed by the version: after a refusal the form is drawn again from what the review holds now. */}
      <ReviewForm
        key={review.version}
        defaultValue={review}
        lastResult={failure?.result}
        cancelTo={backTo}
        courseTitles={courseTitles}
        guard={{ version: review.version, formKey }}
      />
    </DialogRoute>
  );
}
