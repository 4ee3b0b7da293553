import { enquiryStatusSchema } from "~/schemas/enquiry";
import { getEnquiry, setEnquiryStatus } from "~/models/enquiry.server";
import { endpoint, notFound, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import type { Route } from "./+types/api.enquiries.$id.status";

// Any status may follow any other (spec §4).
const handle = endpoint({
  async PUT({ request, params }) {
    await requireStaff(request);
    if (!(await getEnquiry(params.id!))) throw notFound("Enquiry");
    const { status } = validate(enquiryStatusSchema, await readBody(request));
    const saved = await setEnquiryStatus(params.id!, status);
    if (!saved) throw notFound("Enquiry");
    return one(saved);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
