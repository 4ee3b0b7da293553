import { reviewListParams } from "~/schemas/list-params";
import { apiActor, endpoint, listQuery, listResponse, oneVersioned, requireApiStaff, shownTo } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { createReview, listReviews } from "~/services/reviews.server";
import type { Route } from "./+types/api.reviews";

const handle = endpoint({
  // Anonymous callers see approved, published reviews only, whatever ?status= says (DESIGN.md §4.14).
  async GET(args) {
    const q = listQuery(args.request, reviewListParams);
    const actor = await apiActor(args);
    const page = await listReviews(actor, { page: q.page, limit: q.limit, status: q.status, courseContains: q.course, state: q.state });
    return listResponse({ ...page, data: page.data.map((r) => shownTo(actor, r)) });
  },
  async POST(args) {
    const actor = await requireApiStaff(args);
    return oneVersioned(await createReview(actor, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
