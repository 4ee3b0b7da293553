import { endpoint, oneVersioned, requireApiStaff, withIfMatch } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { setEnquiryStatus } from "~/services/enquiries.server";
import { getEnquiryRecord } from "~/services/enquiry-lists.server";
import type { Route } from "./+types/api.enquiries.$id.status";

// Any status may follow any other (spec §4); Enrolled takes a seat of the enquiry's batch (409 when it is full).
const handle = endpoint({
  async PUT(args) {
    const actor = await requireApiStaff(args);
    const saved = await setEnquiryStatus(actor, args.params.id!, withIfMatch(args.request, await readApiBody(args.request)));
    return oneVersioned(await getEnquiryRecord(saved.id));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
