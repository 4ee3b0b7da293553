import { contactQueryListParams } from "~/schemas/list-params";
import { listContactQueries } from "~/models/contact-query.server";
import { apiActor, endpoint, listQuery, listResponse, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { admitFormSubmission } from "~/services/form-throttle.server";
import { submitContactQuery } from "~/services/contact-queries.server";
import type { Route } from "./+types/api.contact-queries";

const handle = endpoint({
  async GET({ request, context }) {
    await requireApiStaff({ request, context });
    return listResponse(await listContactQueries(listQuery(request, contactQueryListParams)));
  },
  async POST(args) {
    const actor = await apiActor(args);
    await admitFormSubmission(actor, "contact");
    return one(await submitContactQuery(actor, await readApiBody(args.request), { channel: "api" }), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
