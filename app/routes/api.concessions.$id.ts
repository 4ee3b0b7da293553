import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { decideConcessionRequest } from "~/services/fee-ledger.server";
import { parseInput } from "~/services/validation";
import { concessionDecisionSchema } from "~/schemas/fees";
import type { Route } from "./+types/api.concessions.$id";

// An admin approves (the unbilled dues go down) or rejects a concession.
const handle = endpoint({
  async PUT(args) {
    const actor = await requireApiStaff(args);
    const { approve } = parseInput(concessionDecisionSchema, await readApiBody(args.request));
    return one(await decideConcessionRequest(actor, args.params.id!, approve));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
