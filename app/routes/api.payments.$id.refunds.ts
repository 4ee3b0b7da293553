import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { refundPayment } from "~/services/payments.server";
import type { Route } from "./+types/api.payments.$id.refunds";

// Money given back on a payment (at most what is left of it).
const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await refundPayment(actor, args.params.id!, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
