import { endpoint, noContent, one, requireApiStaff, withIfMatch } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { archivePlan, getPlan, updateFeePlan } from "~/services/fee-plans.server";
import type { Route } from "./+types/api.fee-plans.$id";

// One fee plan: read, replace (enrolments already made keep their dues), archive (DELETE).
const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    return one(await getPlan(args.params.id!));
  },
  async PUT(args) {
    const actor = await requireApiStaff(args);
    return one(await updateFeePlan(actor, args.params.id!, withIfMatch(args.request, await readApiBody(args.request))));
  },
  async DELETE(args) {
    await archivePlan(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
