import { endpoint, listQuery, listResponse, requireApiStaff } from "~/web/api.server";
import { listRefundsForStaff } from "~/services/payments.server";
import { toPage } from "~/models/paging.server";
import { refundListParams } from "~/schemas/list-params";
import type { Route } from "./+types/api.refunds";

const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    const q = listQuery(args.request, refundListParams);
    const { data, total } = await listRefundsForStaff({ page: q.page, limit: q.limit });
    return listResponse(toPage(data, total, q.page, q.limit));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
