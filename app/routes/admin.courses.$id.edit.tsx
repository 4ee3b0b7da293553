import { randomUUID } from "node:crypto";
import { useState } from "react";
import { data, useLocation, useRevalidator } from "react-router";
import type { Route } from "./+types/admin.courses.$id.edit";
import { CourseForm } from "~/components/admin/course-form";
import { DialogRoute } from "~/components/admin/dialog-route";
import { EditConflictNotice } from "~/components/admin/edit-conflict";
import { requireStaff } from "~/web/actor.server";
import { submitCourseForm } from "~/web/course-upload.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import type { EditConflict } from "~/web/edit-conflict";
import { getCourse } from "~/models/course.server";
import type { FormFailureData } from "~/web/admin-actions.server";

export const meta: Route.MetaFunction = () => [{ title: "Edit Course · Admin" }];

/** After every post, refused ones too: a form refused for a change meanwhile must be drawn again from what is stored now. */
export function shouldRevalidate() {
  return true;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const course = await getCourse(params.id);
  if (!course) throw new Response("Not Found", { status: 404 });
  // A fresh key each time the form is drawn: a post of this drawing is applied once.
  return { course, formKey: randomUUID() };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const outcome = await submitCourseForm(request, await requireStaff({ request, context }), params.id);
  if (outcome.ok) {
    return redirectWithFlash(request, listHref("/admin/courses", new URL(request.url).search), {
      kind: "notice",
      message: `Course ${outcome.course.title} saved`,
    });
  }
  const { status, result, message, notice, conflict } = outcome;
  return data({ result, message, notice, conflict } satisfies FormFailureData, { status });
}

export default function EditCourse({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/courses", useLocation().search);
  const { course, formKey } = loaderData;
  const revalidator = useRevalidator();
  // With JavaScript the save goes through /admin/courses/save: its refusal is kept here while the form is drawn anew.
  const [conflict, setConflict] = useState<EditConflict | null>(null);
  return (
    <DialogRoute title="Edit Course" description={course.title} backTo={backTo} size="lg">
      <EditConflictNotice conflict={conflict ?? actionData?.conflict} className="mb-4" />
      {/* Keyed by the record and its version: another course's form, or this one after a refusal, starts from what is stored (spec §4: the form resets when opened). */}
      <CourseForm
        key={`${course.id}-${course.version}`}
        course={course}
        actionData={actionData?.conflict ? undefined : actionData}
        backTo={backTo}
        saveUrl={`/admin/courses/save?id=${encodeURIComponent(course.id)}`}
        guard={{ version: course.version, formKey }}
        onConflict={(refused) => {
          setConflict(refused);
          void revalidator.revalidate();
        }}
      />
    </DialogRoute>
  );
}
