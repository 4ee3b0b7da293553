import { endpoint, listQuery, listResponse, requireApiStaff } from "~/web/api.server";
import { listInvoicesForStaff } from "~/services/invoices.server";
import { toPage } from "~/models/paging.server";
import { invoiceListParams } from "~/schemas/list-params";
import type { Route } from "./+types/api.invoices";

// Invoices and credit notes, newest first (never edited or deleted).
const handle = endpoint({
  async GET(args) {
    const actor = await requireApiStaff(args);
    const q = listQuery(args.request, invoiceListParams);
    const { data, total } = await listInvoicesForStaff(actor, { page: q.page, limit: q.limit, kind: q.kind, fy: q.fy });
    return listResponse(toPage(data, total, q.page, q.limit));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
