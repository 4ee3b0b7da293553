import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.courses.$id.edit";
import { CourseForm } from "~/components/admin/course-form";
import { DialogRoute } from "~/components/admin/dialog-route";
import { requireStaff } from "~/web/actor.server";
import { submitCourseForm } from "~/web/course-upload.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { getCourse } from "~/models/course.server";
import type { FormFailureData } from "~/web/admin-actions.server";

export const meta: Route.MetaFunction = () => [{ title: "Edit Course · Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const course = await getCourse(params.id);
  if (!course) throw new Response("Not Found", { status: 404 });
  return { course };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const outcome = await submitCourseForm(request, await requireStaff({ request, context }), params.id);
  if (outcome.ok) {
    return redirectWithFlash(request, listHref("/admin/courses", new URL(request.url).search), {
      kind: "notice",
      message: `Course ${outcome.course.title} saved`,
    });
  }
  const { status, result, message, notice } = outcome;
  return data({ result, message, notice } satisfies FormFailureData, { status });
}

export default function EditCourse({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/courses", useLocation().search);
  const { course } = loaderData;
  return (
    <DialogRoute title="Edit Course" description={course.title} backTo={backTo} size="lg">
      {/* Keyed by the record, so moving from one course's form to another's starts fresh (spec §4: the form resets when opened). */}
      <CourseForm
        key={`${course.id}-${course.updatedAt}`}
        course={course}
        actionData={actionData}
        backTo={backTo}
        saveUrl={`/admin/courses/save?id=${encodeURIComponent(course.id)}`}
      />
    </DialogRoute>
  );
}
