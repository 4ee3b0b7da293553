import { contactSchema } from "~/schemas/contact";
import { CONTACT_STATUSES } from "~/schemas/contact-query";
import { createContactQuery, listContactQueries } from "~/models/contact-query.server";
import { endpoint, listQuery, listResponse, one, requireStaff, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import { throttleForm } from "~/lib/api-throttle.server";
import type { Route } from "./+types/api.contact-queries";

const handle = endpoint({
  async GET({ request }) {
    await requireStaff(request);
    return listResponse(await listContactQueries(listQuery(request, { status: CONTACT_STATUSES, q: "text" })));
  },
  async POST({ request, context }) {
    await throttleForm(context.clientIp, "contact");
    return one(await createContactQuery(validate(contactSchema, await readBody(request))), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
