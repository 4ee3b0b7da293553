import { endpoint, one, requireApiStaff } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { cancelInvoice } from "~/services/invoices.server";
import type { Route } from "./+types/api.invoices.$id.credit-note";

// Cancels an invoice with a credit note and a reason (admins); answers the credit note.
const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    const { creditNote } = await cancelInvoice(actor, args.params.id!, await readApiBody(args.request));
    return one(creditNote, 201);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
