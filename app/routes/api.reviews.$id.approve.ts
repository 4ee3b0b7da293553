import { endpoint, oneVersioned, requireApiStaff } from "~/web/api.server";
import { approveReview } from "~/services/reviews.server";
import type { Route } from "./+types/api.reviews.$id.approve";

// PUT with no body (spec §7) and no version needed: approving an approved review is harmless and answers the same.
const handle = endpoint({
  async PUT(args) {
    return oneVersioned(await approveReview(await requireApiStaff(args), args.params.id!));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
