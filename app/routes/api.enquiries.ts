import { enquiryListParams } from "~/schemas/list-params";
import { apiActor, endpoint, listQuery, listResponse, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { admitFormSubmission } from "~/services/form-throttle.server";
import { listEnquiries } from "~/services/enquiry-lists.server";
import { enquiryAsSeenBy, submitEnquiry } from "~/services/enquiry-submissions.server";
import type { Route } from "./+types/api.enquiries";

const handle = endpoint({
  async GET(args) {
    const actor = await requireApiStaff(args);
    return listResponse(await listEnquiries(actor, listQuery(args.request, enquiryListParams)));
  },
  // Anyone may enrol, within the public form's per-IP limit (counted before the body is read). Attachments
  // (filePaths) come only from the /enquiry page's uploads: the API schema has no such field. An anonymous
  // caller gets back only what it sent (no duplicate oracle).
  async POST(args) {
    const actor = await apiActor(args);
    await admitFormSubmission(actor, "enquiry");
    const saved = await submitEnquiry(actor, await readApiBody(args.request), { channel: "api" });
    return one(enquiryAsSeenBy(actor, saved), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
