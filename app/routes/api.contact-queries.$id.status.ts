import { contactStatusSchema } from "~/schemas/contact-query";
import { getContactQuery, setContactQueryStatus } from "~/models/contact-query.server";
import { endpoint, notFound, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import type { Route } from "./+types/api.contact-queries.$id.status";

const handle = endpoint({
  async PUT({ request, params }) {
    await requireStaff(request);
    if (!(await getContactQuery(params.id!))) throw notFound("Contact query");
    const { status } = validate(contactStatusSchema, await readBody(request));
    const saved = await setContactQueryStatus(params.id!, status);
    if (!saved) throw notFound("Contact query");
    return one(saved);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
