import { requireStaff } from "~/web/actor.server";
import { pdfResponse } from "~/web/fee-views.server";
import { invoiceFile } from "~/services/fee-documents.server";
import { isServiceError } from "~/services/service-error";
import type { Route } from "./+types/admin.fees_.invoices.$id[.]pdf";

/** An invoice or credit note as PDF, for staff. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  try {
    return pdfResponse(await invoiceFile(params.id));
  } catch (error) {
    if (isServiceError(error, "notFound")) return new Response("Not found", { status: 404 });
    throw error;
  }
}
