import { reviewListParams } from "~/schemas/list-params";
import { apiActor, endpoint, listQuery, listResponse, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { createReview, listReviews } from "~/services/reviews.server";
import type { Route } from "./+types/api.reviews";

const handle = endpoint({
  // Anonymous callers see approved, published reviews only, whatever ?status= says (DESIGN.md §4.14).
  async GET(args) {
    const q = listQuery(args.request, reviewListParams);
    return listResponse(await listReviews(await apiActor(args), { page: q.page, limit: q.limit, status: q.status, courseContains: q.course, state: q.state }));
  },
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await createReview(actor, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
