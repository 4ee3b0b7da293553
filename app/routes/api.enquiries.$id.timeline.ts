import { endpoint, json, requireApiStaff } from "~/web/api.server";
import { enquiryTimeline } from "~/services/enquiries.server";
import type { Route } from "./+types/api.enquiries.$id.timeline";

// Notes and every recorded change, newest first.
const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    return json({ data: await enquiryTimeline(args.params.id!) });
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
