import { COURSE_CATEGORIES, listCourses } from "~/models/course.server";
import { endpoint, listQuery, listResponse, one, requireStaff } from "~/lib/api.server";
import { createCourseFromRequest } from "~/lib/api-courses.server";
import type { Route } from "./+types/api.courses";

// GET is public (the catalogue); POST needs a staff token and takes multipart (files) or JSON.
const handle = endpoint({
  async GET({ request }) {
    const q = listQuery(request, { category: COURSE_CATEGORIES, featured: ["true", "false"] });
    return listResponse(await listCourses({ ...q, featured: q.featured === undefined ? undefined : q.featured === "true" }));
  },
  async POST({ request }) {
    await requireStaff(request);
    return one(await createCourseFromRequest(request), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
