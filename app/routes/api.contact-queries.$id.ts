import { deleteContactQuery, getContactQuery } from "~/models/contact-query.server";
import { endpoint, noContent, notFound, one, requireStaff } from "~/lib/api.server";
import type { Route } from "./+types/api.contact-queries.$id";

const handle = endpoint({
  async GET({ request, params }) {
    await requireStaff(request);
    const query = await getContactQuery(params.id!);
    if (!query) throw notFound("Contact query");
    return one(query);
  },
  async DELETE({ request, params }) {
    await requireStaff(request);
    if (!(await deleteContactQuery(params.id!))) throw notFound("Contact query");
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
