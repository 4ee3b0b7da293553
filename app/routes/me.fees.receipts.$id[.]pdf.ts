import { pdfResponse } from "~/web/fee-views.server";
import { visitorActor } from "~/web/actor.server";
import { myReceiptFile } from "~/services/fee-me.server";
import { isServiceError } from "~/services/service-error";
import type { Route } from "./+types/me.fees.receipts.$id[.]pdf";

/** One of the person's own receipts as PDF, opened with the link to their page (/me?token=…). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  try {
    return pdfResponse(await myReceiptFile(visitorActor(context), token, params.id));
  } catch (error) {
    if (isServiceError(error, "notFound") || isServiceError(error, "invalid")) return new Response("Not found", { status: 404 });
    if (isServiceError(error, "tooMany")) return new Response("Too many attempts", { status: 429, headers: { "Retry-After": String(error.retryAfter ?? 60) } });
    throw error;
  }
}
