import { acceptedOfferCalendar } from "~/services/waitlist-offers.server";
import { ICS_CONTENT_TYPE } from "~/util/ics.server";
import { PERSONAL_HEADERS } from "~/web/personal-headers";
import type { Route } from "./+types/waitlist.offer[.]ics";

/** "Add to calendar" on an accepted waitlist offer's page: the batch the offer's link holds, whatever its public state. */
export async function loader({ request }: Route.LoaderArgs) {
  const file = await acceptedOfferCalendar(new URL(request.url).searchParams.get("token") ?? "");
  if (!file) return new Response("Not found", { status: 404, headers: { ...PERSONAL_HEADERS, "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(file.text, {
    headers: { ...PERSONAL_HEADERS, "Content-Type": ICS_CONTENT_TYPE, "Content-Disposition": `attachment; filename="${file.fileName}"` },
  });
}
