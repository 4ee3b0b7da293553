import { endpoint, listQuery, listResponse, requireApiStaff } from "~/web/api.server";
import { auditLogListParams } from "~/schemas/list-params";
import { listAuditLog } from "~/services/audit.server";
import type { Route } from "./+types/api.audit-log";

// Admins only, like the screen (/admin/audit-log): the service refuses anyone else.
const handle = endpoint({
  async GET(args) {
    const actor = await requireApiStaff(args);
    const { page, limit, ...filter } = listQuery(args.request, auditLogListParams);
    return listResponse(await listAuditLog(actor, { ...filter, page, limit }));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
