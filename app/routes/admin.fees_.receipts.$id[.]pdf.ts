import { requireStaff } from "~/web/actor.server";
import { pdfResponse } from "~/web/fee-views.server";
import { receiptFile } from "~/services/fee-documents.server";
import { isServiceError } from "~/services/service-error";
import type { Route } from "./+types/admin.fees_.receipts.$id[.]pdf";

/** A payment's receipt as PDF, for staff. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  try {
    return pdfResponse(await receiptFile(params.id));
  } catch (error) {
    if (isServiceError(error, "notFound")) return new Response("Not found", { status: 404 });
    throw error;
  }
}
