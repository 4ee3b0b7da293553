import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { approveReview } from "~/services/reviews.server";
import type { Route } from "./+types/api.reviews.$id.approve";

// PUT with no body (spec §7); approving an approved review is harmless and answers the same.
const handle = endpoint({
  async PUT(args) {
    return one(await approveReview(await requireApiStaff(args), args.params.id!));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
