import { endpoint, listResponse, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { createFeePlan, listPlans } from "~/services/fee-plans.server";
import { toPage } from "~/models/paging.server";
import type { Route } from "./+types/api.fee-plans";

// Fee plans (issue 38), staff only: how a course's or batch's fee is paid. Amounts in paise.
const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    const plans = await listPlans();
    return listResponse(toPage(plans, plans.length, 1, Math.max(1, plans.length)));
  },
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await createFeePlan(actor, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
