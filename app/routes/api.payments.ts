import { endpoint, listQuery, listResponse, requireApiStaff } from "~/web/api.server";
import { listPaymentsForStaff } from "~/services/payments.server";
import { toPage } from "~/models/paging.server";
import { paymentListParams } from "~/schemas/list-params";
import type { Route } from "./+types/api.payments";

// Payments, newest first; a reversed one stays with its reason.
const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    const q = listQuery(args.request, paymentListParams);
    const { data, total } = await listPaymentsForStaff({ page: q.page, limit: q.limit, method: q.method, from: q.from, to: q.to });
    return listResponse(toPage(data, total, q.page, q.limit));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
