import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { addEnquiryNote } from "~/services/enquiries.server";
import type { Route } from "./+types/api.enquiries.$id.notes";

const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await addEnquiryNote(actor, args.params.id!, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
