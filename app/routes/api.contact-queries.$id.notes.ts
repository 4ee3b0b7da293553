import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { addContactQueryNote } from "~/services/contact-queries.server";
import type { Route } from "./+types/api.contact-queries.$id.notes";

const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    return one(await addContactQueryNote(actor, args.params.id!, await readApiBody(args.request)), 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
