import { apiActor, endpoint, noContent, oneVersioned, requireApiStaff, shownTo, withIfMatch } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { deleteReview, getReview, updateReview } from "~/services/reviews.server";
import type { Route } from "./+types/api.reviews.$id";

const handle = endpoint({
  // A pending review does not exist as far as anonymous callers can tell.
  async GET(args) {
    const actor = await apiActor(args);
    return oneVersioned(shownTo(actor, await getReview(actor, args.params.id!)));
  },
  async PUT(args) {
    const actor = await requireApiStaff(args);
    return oneVersioned(await updateReview(actor, args.params.id!, withIfMatch(args.request, await readApiBody(args.request))));
  },
  async DELETE(args) {
    await deleteReview(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
