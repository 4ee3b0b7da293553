import { courseListParams } from "~/schemas/list-params";
import { listCourses } from "~/models/course.server";
import { apiActor, endpoint, listQuery, listResponse, oneVersioned, requireApiStaff, shownTo } from "~/web/api.server";
import { audienceOf } from "~/services/publication.server";
import { receiveCourseApiBody } from "~/web/course-upload.server";
import { saveCourse } from "~/services/courses.server";
import type { Route } from "./+types/api.courses";

// GET is public (the catalogue: published courses; staff see every state); POST needs a staff token and takes multipart (files) or JSON.
const handle = endpoint({
  async GET(args) {
    const q = listQuery(args.request, courseListParams);
    const actor = await apiActor(args);
    const page = await listCourses({ ...q, audience: audienceOf(actor), featured: q.featured === undefined ? undefined : q.featured === "true" });
    return listResponse({ ...page, data: page.data.map((c) => shownTo(actor, c)) });
  },
  async POST(args) {
    const actor = await requireApiStaff(args);
    return oneVersioned(await saveCourse(actor, null, await receiveCourseApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
