import { endpoint, oneVersioned, requireApiStaff, withIfMatch } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { setContactQueryStatus } from "~/services/contact-queries.server";
import type { Route } from "./+types/api.contact-queries.$id.status";

const handle = endpoint({
  async PUT(args) {
    const actor = await requireApiStaff(args);
    return oneVersioned(await setContactQueryStatus(actor, args.params.id!, withIfMatch(args.request, await readApiBody(args.request))));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
