import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { reversePayment } from "~/services/payments.server";
import type { Route } from "./+types/api.payments.$id.reversal";

// A recorded payment reversed with a reason (never edited): the dues are settled again.
const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await reversePayment(actor, args.params.id!, await readApiBody(args.request)));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
