import { listUsers } from "~/models/user.server";
import { endpoint, listQuery, listResponse, requireAdmin } from "~/lib/api.server";
import type { Route } from "./+types/api.users";

// New users are made with POST /api/auth/register (spec §7).
const handle = endpoint({
  async GET({ request }) {
    await requireAdmin(request);
    return listResponse(await listUsers(listQuery(request, {})));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
