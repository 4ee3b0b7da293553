import { enquiryApiSchema, ENQUIRY_STATUSES, PREFERRED_MODES } from "~/schemas/enquiry";
import { createEnquiry, listEnquiries } from "~/models/enquiry.server";
import { endpoint, listQuery, listResponse, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import { throttleForm } from "~/lib/api-throttle.server";
import type { Route } from "./+types/api.enquiries";

const handle = endpoint({
  async GET({ request }) {
    await requireStaff(request);
    const q = listQuery(request, { status: ENQUIRY_STATUSES, course: "text", mode: PREFERRED_MODES, q: "text" });
    return listResponse(await listEnquiries(q));
  },
  // Anyone may enrol. Attachments (filePaths) come only from the /enquiry page's uploads: the schema
  // has no such field, so a client cannot name files on the server.
  async POST({ request, context }) {
    await throttleForm(context.clientIp, "enquiry");
    return one(await createEnquiry(validate(enquiryApiSchema, await readBody(request))), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
