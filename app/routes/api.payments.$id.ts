import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { getPaymentForStaff } from "~/services/payments.server";
import type { Route } from "./+types/api.payments.$id";

const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    return one(await getPaymentForStaff(args.params.id!));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
