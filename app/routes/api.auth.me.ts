import { endpoint, one, requireApiUser } from "~/lib/api.server";
import type { Route } from "./+types/api.auth.me";

const handle = endpoint({
  async GET({ request }) {
    return one(await requireApiUser(request));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
