import { endpoint, noContent, oneVersioned, requireApiStaff, withIfMatch } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { deleteEnquiry, updateEnquiry } from "~/services/enquiries.server";
import { getEnquiryRecord } from "~/services/enquiry-lists.server";
import type { Route } from "./+types/api.enquiries.$id";

const handle = endpoint({
  async GET(args) {
    await requireApiStaff(args);
    return oneVersioned(await getEnquiryRecord(args.params.id!));
  },
  async PUT(args) {
    const actor = await requireApiStaff(args);
    const saved = await updateEnquiry(actor, args.params.id!, withIfMatch(args.request, await readApiBody(args.request)));
    return oneVersioned(await getEnquiryRecord(saved.id));
  },
  async DELETE(args) {
    await deleteEnquiry(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
