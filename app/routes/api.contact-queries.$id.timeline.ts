import { endpoint, json, requireApiStaff } from "~/web/api.server";
import { contactQueryTimeline } from "~/services/contact-queries.server";
import type { Route } from "./+types/api.contact-queries.$id.timeline";

// Notes and status changes, newest first.
const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    return json({ data: await contactQueryTimeline(args.params.id!) });
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
