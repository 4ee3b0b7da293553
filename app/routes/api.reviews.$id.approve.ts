import { approveReview } from "~/models/review.server";
import { endpoint, notFound, one, requireStaff } from "~/lib/api.server";
import type { Route } from "./+types/api.reviews.$id.approve";

// PUT with no body (spec §7); approving an approved review is harmless and answers the same.
const handle = endpoint({
  async PUT({ request, params }) {
    await requireStaff(request);
    const review = await approveReview(params.id!);
    if (!review) throw notFound("Review");
    return one(review);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
