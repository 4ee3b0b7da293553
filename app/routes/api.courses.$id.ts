import { getCourse } from "~/models/course.server";
import { apiActor, endpoint, noContent, one, requireApiStaff } from "~/web/api.server";
import { audienceOf } from "~/services/publication.server";
import { receiveCourseApiBody } from "~/web/course-upload.server";
import { deleteCourse, saveCourse } from "~/services/courses.server";
import { notFound } from "~/services/service-error";
import type { Route } from "./+types/api.courses.$id";

const handle = endpoint({
  async GET(args) {
    const course = await getCourse(args.params.id!, audienceOf(await apiActor(args)));
    if (!course) throw notFound("Course");
    return one(course);
  },
  async PUT(args) {
    const actor = await requireApiStaff(args);
    return one(await saveCourse(actor, args.params.id!, await receiveCourseApiBody(args.request)));
  },
  async DELETE(args) {
    await deleteCourse(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
