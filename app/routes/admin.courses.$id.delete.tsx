import { useLocation } from "react-router";
import type { Route } from "./+types/admin.courses.$id.delete";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { requireStaff } from "~/web/actor.server";
import { actAndReturn } from "~/web/admin-actions.server";
import { listHref } from "~/web/list-query";
import { getCourse } from "~/models/course.server";
import { COURSE_DELETE_FAILED } from "~/schemas/course";
import { deleteCourse } from "~/services/courses.server";

export const meta: Route.MetaFunction = () => [{ title: "Delete Course · Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const course = await getCourse(params.id);
  if (!course) throw new Response("Not Found", { status: 404 });
  return { course: { id: course.id, title: course.title } };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const back = listHref("/admin/courses", new URL(request.url).search);
  return actAndReturn(request, back, COURSE_DELETE_FAILED, async () => `Course ${(await deleteCourse(actor, params.id)).title} deleted`);
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
