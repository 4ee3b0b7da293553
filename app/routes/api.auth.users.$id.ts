import { getUser } from "~/models/user.server";
import { endpoint, notFound, one, requireAdmin } from "~/lib/api.server";
import type { Route } from "./+types/api.auth.users.$id";

// Spec §7 reads one user at auth/users/{id}; it is the same record as GET /api/users/:id.
const handle = endpoint({
  async GET({ request, params }) {
    await requireAdmin(request);
    const user = await getUser(params.id!);
    if (!user) throw notFound("User");
    return one(user);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
