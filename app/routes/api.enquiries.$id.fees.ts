import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { feeLedgerForStaff } from "~/services/fee-ledger.server";
import type { Route } from "./+types/api.enquiries.$id.fees";

// The student's fees: their account, dues (with state and invoice), invoices, payments, UPI reports and totals, in paise.
const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    return one(await feeLedgerForStaff(args.params.id!));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
