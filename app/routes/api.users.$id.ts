import { OWN_ACCOUNT_DELETE } from "~/schemas/user";
import { deleteUser, getUser } from "~/models/user.server";
import { ApiError, endpoint, noContent, notFound, one, requireAdmin, requireStaff } from "~/lib/api.server";
import { updateUserFromRequest } from "~/lib/api-users.server";
import type { Route } from "./+types/api.users.$id";

const handle = endpoint({
  async GET({ request, params }) {
    await requireAdmin(request);
    const user = await getUser(params.id!);
    if (!user) throw notFound("User");
    return one(user);
  },
  // Any signed-in user may change their own password here; everything else is for admins.
  async PUT({ request, params, context }) {
    const caller = await requireStaff(request);
    return updateUserFromRequest(request, caller, params.id!, context.clientIp);
  },
  async DELETE({ request, params }) {
    const caller = await requireAdmin(request);
    if (params.id === caller.id) throw new ApiError(403, "own_account", OWN_ACCOUNT_DELETE);
    if (!(await deleteUser(params.id!))) throw notFound("User");
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
