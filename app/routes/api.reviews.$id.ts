import { reviewSchema } from "~/schemas/review";
import { deleteReview, getReview, updateReview } from "~/models/review.server";
import { endpoint, getCaller, noContent, notFound, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import type { Route } from "./+types/api.reviews.$id";

const handle = endpoint({
  // A pending review does not exist as far as anonymous callers can tell.
  async GET({ request, params }) {
    const staff = await getCaller(request);
    const review = await getReview(params.id!);
    if (!review || (!staff && !review.approved)) throw notFound("Review");
    return one(review);
  },
  async PUT({ request, params }) {
    await requireStaff(request);
    if (!(await getReview(params.id!))) throw notFound("Review");
    const saved = await updateReview(params.id!, validate(reviewSchema, await readBody(request)));
    if (!saved) throw notFound("Review");
    return one(saved);
  },
  async DELETE({ request, params }) {
    await requireStaff(request);
    if (!(await deleteReview(params.id!))) throw notFound("Review");
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
