import { endpoint, listQuery, listResponse, requireApiStaff } from "~/web/api.server";
import { listFees } from "~/services/fee-lists.server";
import { toPage } from "~/models/paging.server";
import { dueListParams } from "~/schemas/list-params";
import type { Route } from "./+types/api.dues";

// Open dues of enrolled students (the Fees screen's list), oldest date first.
const handle = endpoint({
  async GET(args) {
    const actor = await requireApiStaff(args);
    const q = listQuery(args.request, dueListParams);
    const { rows, total } = await listFees(actor, { view: q.view ?? "overdue", scheduleId: q.scheduleId, course: q.course, page: q.page, limit: q.limit });
    return listResponse(toPage(rows, total, q.page, q.limit));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
