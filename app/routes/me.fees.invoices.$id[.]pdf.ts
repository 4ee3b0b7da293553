import { meAccessOf } from "~/web/me-access.server";
import { pdfResponse } from "~/web/fee-views.server";
import { visitorActor } from "~/web/actor.server";
import { myInvoiceFile } from "~/services/fee-me.server";
import { isServiceError } from "~/services/service-error";
import type { Route } from "./+types/me.fees.invoices.$id[.]pdf";

/** One of the person's own invoices as PDF, for the person whose link opened /me (its cookie). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await meAccessOf(request);
  if (!access) return new Response("Not found", { status: 404 });
  try {
    return pdfResponse(await myInvoiceFile(visitorActor(context), access, params.id));
  } catch (error) {
    if (isServiceError(error, "notFound") || isServiceError(error, "invalid")) return new Response("Not found", { status: 404 });
    if (isServiceError(error, "tooMany")) return new Response("Too many attempts", { status: 429, headers: { "Retry-After": String(error.retryAfter ?? 60) } });
    throw error;
  }
}
