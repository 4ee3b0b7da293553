import { endpoint, oneVersioned, requireApiStaff } from "~/web/api.server";
import { getUserForAdmin } from "~/services/users.server";
import type { Route } from "./+types/api.auth.users.$id";

// Spec §7 reads one user at auth/users/{id}; it is the same record as GET /api/users/:id.
const handle = endpoint({
  async GET(args) {
    return oneVersioned(await getUserForAdmin(await requireApiStaff(args), args.params.id!));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
