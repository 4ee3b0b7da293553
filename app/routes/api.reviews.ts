import { reviewSchema } from "~/schemas/review";
import { createReview, listReviews } from "~/models/review.server";
import { endpoint, getCaller, listQuery, listResponse, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import type { Route } from "./+types/api.reviews";

const handle = endpoint({
  // Anonymous callers see approved reviews only, whatever ?status= says (DESIGN.md §4.14).
  async GET({ request }) {
    const staff = await getCaller(request);
    const q = listQuery(request, { status: ["approved", "pending"], course: "text" });
    const status = staff ? (q.status as "approved" | "pending" | undefined) : "approved";
    return listResponse(await listReviews({ page: q.page, limit: q.limit, status, courseContains: q.course }));
  },
  async POST({ request }) {
    await requireStaff(request);
    return one(await createReview(validate(reviewSchema, await readBody(request))), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
