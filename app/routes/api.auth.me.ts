import { endpoint, one, requireStaff } from "~/lib/api.server";
import type { Route } from "./+types/api.auth.me";

const handle = endpoint({
  async GET({ request }) {
    return one(await requireStaff(request));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
