import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { erasePerson } from "~/services/privacy-erasure.server";
import type { Route } from "./+types/api.people.erase";

// Any staff member, on the person's request (like the screen /admin/privacy); audited by the service.
const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await erasePerson(actor, await readApiBody(args.request)));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
