import { useLocation } from "react-router";
import type { Route } from "./+types/admin.courses.$id.delete";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { removeCourseFiles } from "~/lib/admin/course-save.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref } from "~/lib/list-query";
import { requireUser } from "~/lib/session.server";
import { deleteCourse, getCourse } from "~/models/course.server";
import { COURSE_DELETE_FAILED } from "~/schemas/course";

export const meta: Route.MetaFunction = () => [{ title: "Delete Course · Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const course = await getCourse(params.id);
  if (!course) throw new Response("Not Found", { status: 404 });
  return { course: { id: course.id, title: course.title } };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const to = listHref("/admin/courses", new URL(request.url).search);
  try {
    // The model deletes the course with its batches in one transaction; its files go once the rows are gone.
    const deleted = await deleteCourse(params.id);
    if (!deleted) return redirectWithFlash(request, to, { kind: "error", message: COURSE_DELETE_FAILED });
    await removeCourseFiles(deleted);
    return redirectWithFlash(request, to, { kind: "notice", message: `Course ${deleted.title} deleted` });
  } catch (error) {
    console.error("[admin] deleting a course failed:", error);
    return redirectWithFlash(request, to, { kind: "error", message: COURSE_DELETE_FAILED });
  }
}

export default function DeleteCourse({ loaderData }: Route.ComponentProps) {
  const backTo = listHref("/admin/courses", useLocation().search);
  return (
    <ConfirmDeletePage title="Delete Course" backTo={backTo}>
      <p>
        Delete the course <strong>{loaderData.course.title}</strong>? Its batches, image and syllabus file are deleted too. This cannot be undone.
      </p>
    </ConfirmDeletePage>
  );
}
