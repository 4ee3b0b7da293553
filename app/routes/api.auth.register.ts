import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { createUser } from "~/services/users.server";
import type { Route } from "./+types/api.auth.register";

// Staff accounts are made by an admin (DESIGN.md §4.2); there is no self sign-up.
const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await createUser(actor, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
