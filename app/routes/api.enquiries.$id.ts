import { endpoint, noContent, one, requireApiActor } from "~/lib/api.server";
import { readApiBody } from "~/lib/api-body.server";
import { deleteEnquiry, getEnquiryRecord, updateEnquiry } from "~/services/enquiries.server";
import type { Route } from "./+types/api.enquiries.$id";

const handle = endpoint({
  async GET(args) {
    await requireApiActor(args);
    return one(await getEnquiryRecord(args.params.id!));
  },
  async PUT(args) {
    const actor = await requireApiActor(args);
    const saved = await updateEnquiry(actor, args.params.id!, await readApiBody(args.request));
    return one(await getEnquiryRecord(saved.id));
  },
  async DELETE(args) {
    await deleteEnquiry(await requireApiActor(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
