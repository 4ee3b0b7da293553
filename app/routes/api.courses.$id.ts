import { getCourse } from "~/models/course.server";
import { apiActor, endpoint, noContent, oneVersioned, requireApiStaff, shownTo, withIfMatch } from "~/web/api.server";
import { audienceOf } from "~/services/publication.server";
import { receiveCourseApiBody } from "~/web/course-upload.server";
import { deleteCourse, saveCourse } from "~/services/courses.server";
import { notFound } from "~/services/service-error";
import type { Route } from "./+types/api.courses.$id";

const handle = endpoint({
  async GET(args) {
    const actor = await apiActor(args);
    const course = await getCourse(args.params.id!, audienceOf(actor));
    if (!course) throw notFound("Course");
    return oneVersioned(shownTo(actor, course));
  },
  async PUT(args) {
    const actor = await requireApiStaff(args);
    // The If-Match header is read before the body, so a malformed one stores no file.
    const guard = withIfMatch(args.request, {});
    const submission = await receiveCourseApiBody(args.request);
    return oneVersioned(await saveCourse(actor, args.params.id!, { ...submission, fields: { ...submission.fields, ...guard } }));
  },
  async DELETE(args) {
    await deleteCourse(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
