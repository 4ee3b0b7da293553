import { isServiceError } from "~/services/service-error";
import { myBatchCalendar } from "~/services/privacy-me.server";
import { ICS_CONTENT_TYPE } from "~/util/ics.server";
import { visitorActor } from "~/web/actor.server";
import type { Route } from "./+types/me.calendar[.]ics";
import { PERSONAL_HEADERS } from "~/web/personal-headers";
import { meAccessOf } from "~/web/me-access.server";

/** "Add to calendar" for the batch of one of the person's enquiries on /me (whatever its public state: they are in it). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const notFound = () => new Response("Not found", { status: 404, headers: { ...PERSONAL_HEADERS, "Content-Type": "text/plain; charset=utf-8" } });
  const access = await meAccessOf(request);
  if (!access) return notFound();
  try {
    const file = await myBatchCalendar(visitorActor(context), access, params.get("enquiry") ?? "");
    if (!file) return notFound();
    return new Response(file.text, {
      headers: { ...PERSONAL_HEADERS, "Content-Type": ICS_CONTENT_TYPE, "Content-Disposition": `attachment; filename="${file.fileName}"` },
    });
  } catch (error) {
    if (isServiceError(error, "tooMany"))
      return new Response(error.message, { status: 429, headers: { ...PERSONAL_HEADERS, "Retry-After": String(error.retryAfter ?? 60) } });
    if (isServiceError(error, "invalid")) return notFound();
    throw error;
  }
}
