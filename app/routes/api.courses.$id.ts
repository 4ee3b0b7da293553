import { deleteCourse, getCourse } from "~/models/course.server";
import { endpoint, noContent, notFound, one, requireStaff } from "~/lib/api.server";
import { updateCourseFromRequest } from "~/lib/api-courses.server";
import { removeCourseFiles } from "~/lib/admin/course-save.server";
import type { Route } from "./+types/api.courses.$id";

const handle = endpoint({
  async GET({ params }) {
    const course = await getCourse(params.id!);
    if (!course) throw notFound("Course");
    return one(course);
  },
  async PUT({ request, params }) {
    await requireStaff(request);
    return one(await updateCourseFromRequest(request, params.id!));
  },
  async DELETE({ request, params }) {
    await requireStaff(request);
    const course = await deleteCourse(params.id!);
    if (!course) throw notFound("Course");
    // The row (and its batches) is gone; its files, syllabus images included, can go too.
    await removeCourseFiles(course);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
