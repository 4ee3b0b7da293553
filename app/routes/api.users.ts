import { endpoint, listQuery, listResponse, requireApiStaff } from "~/web/api.server";
import { userListParams } from "~/schemas/list-params";
import { listUsers } from "~/services/users.server";
import type { Route } from "./+types/api.users";

// New users are made with POST /api/auth/register (spec §7).
const handle = endpoint({
  async GET(args) {
    return listResponse(await listUsers(await requireApiStaff(args), listQuery(args.request, userListParams)));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
