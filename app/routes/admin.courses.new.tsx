import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.courses.new";
import { CourseForm } from "~/components/admin/course-form";
import { DialogRoute } from "~/components/admin/dialog-route";
import { requireStaff } from "~/web/actor.server";
import { submitCourseForm } from "~/web/course-upload.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import type { FormFailureData } from "~/web/admin-actions.server";

export const meta: Route.MetaFunction = () => [{ title: "Add New Course · Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  return null;
}

// Without JavaScript the form posts here; with it, the same save runs at /admin/courses/save (upload progress).
export async function action({ request, context }: Route.ActionArgs) {
  const outcome = await submitCourseForm(request, await requireStaff({ request, context }), null);
  if (outcome.ok) {
    return redirectWithFlash(request, listHref("/admin/courses", new URL(request.url).search), {
      kind: "notice",
      message: `Course ${outcome.course.title} saved`,
    });
  }
  const { status, result, message, notice } = outcome;
  return data({ result, message, notice } satisfies FormFailureData, { status });
}

export default function NewCourse({ actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/courses", useLocation().search);
  return (
    <DialogRoute title="Add New Course" backTo={backTo} size="lg">
      <CourseForm course={null} actionData={actionData} backTo={backTo} saveUrl="/admin/courses/save" />
    </DialogRoute>
  );
}
