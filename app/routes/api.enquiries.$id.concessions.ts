import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { requestConcession } from "~/services/fee-ledger.server";
import type { Route } from "./+types/api.enquiries.$id.concessions";

// A scholarship or concession for the student, with a reason: applied once an admin approves it.
const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await requestConcession(actor, args.params.id!, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
