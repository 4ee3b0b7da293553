import { getContactQuery } from "~/models/contact-query.server";
import { endpoint, noContent, oneVersioned, requireApiStaff } from "~/web/api.server";
import { deleteContactQuery } from "~/services/contact-queries.server";
import { notFound } from "~/services/service-error";
import { withConsents } from "~/services/privacy-records.server";
import type { Route } from "./+types/api.contact-queries.$id";

const handle = endpoint({
  async GET({ request, params, context }) {
    await requireApiStaff({ request, context });
    const query = await getContactQuery(params.id!);
    if (!query) throw notFound("Contact query");
    // One message is read with its consent rows (the privacy notice shown, marketing given or withdrawn).
    const [withRows] = await withConsents("contact_query", [query]);
    return oneVersioned(withRows);
  },
  async DELETE(args) {
    await deleteContactQuery(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
