import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { recordPayment } from "~/services/payments.server";
import type { Route } from "./+types/api.enquiries.$id.payments";

// Money received for the student (cash, bank transfer, cheque, UPI): settles their dues oldest first.
const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    const { payment } = await recordPayment(actor, args.params.id!, await readApiBody(args.request));
    return one(payment, 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
