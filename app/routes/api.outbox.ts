import { endpoint, listQuery, listResponse, requireApiStaff } from "~/web/api.server";
import { outboxListParams } from "~/schemas/list-params";
import { listOutbox } from "~/services/outbox.server";
import type { Route } from "./+types/api.outbox";

// Admins only, like the screen (/admin/outbox): the service refuses anyone else.
const handle = endpoint({
  async GET(args) {
    const actor = await requireApiStaff(args);
    return listResponse(await listOutbox(actor, listQuery(args.request, outboxListParams)));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
