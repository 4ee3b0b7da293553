import { enquiryUpdateSchema } from "~/schemas/enquiry";
import { deleteEnquiry, getEnquiry, updateEnquiry } from "~/models/enquiry.server";
import { endpoint, noContent, notFound, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import { deleteAttachments } from "~/lib/uploads.server";
import type { Route } from "./+types/api.enquiries.$id";

const handle = endpoint({
  async GET({ request, params }) {
    await requireStaff(request);
    const enquiry = await getEnquiry(params.id!);
    if (!enquiry) throw notFound("Enquiry");
    return one(enquiry);
  },
  async PUT({ request, params }) {
    await requireStaff(request);
    if (!(await getEnquiry(params.id!))) throw notFound("Enquiry");
    const saved = await updateEnquiry(params.id!, validate(enquiryUpdateSchema, await readBody(request)));
    if (!saved) throw notFound("Enquiry");
    return one(saved);
  },
  async DELETE({ request, params }) {
    await requireStaff(request);
    const enquiry = await deleteEnquiry(params.id!);
    if (!enquiry) throw notFound("Enquiry");
    await deleteAttachments(enquiry.filePaths);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
