import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { getInvoiceForStaff } from "~/services/invoices.server";
import type { Route } from "./+types/api.invoices.$id";

const handle = endpoint({
  async GET(args) {
    const actor = await requireApiStaff(args);
    return one(await getInvoiceForStaff(actor, args.params.id!));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
