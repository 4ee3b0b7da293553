import { endpoint, getCaller, one, requireApiStaff } from "~/web/api.server";
import type { Route } from "./+types/api.auth.me";

const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    // The whole record (created and updated too), not only the actor's name and role.
    return one(await getCaller(args.request));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
