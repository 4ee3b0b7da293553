import { isServiceError } from "~/services/service-error";
import { exportMyData } from "~/services/privacy-me.server";
import { visitorActor } from "~/web/actor.server";
import type { Route } from "./+types/me.data[.]json";
import { PERSONAL_HEADERS } from "~/web/personal-headers";
import { meAccessOf } from "~/web/me-access.server";
import { ME_LINK_EXPIRED } from "~/schemas/privacy-messages";

/**
 * "Download my data" on /me: every row about the person as one JSON file (DPDP Act: access), for the person whose
 * link /me was opened with (its cookie); the file is never kept by a cache or indexed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const headers = { ...PERSONAL_HEADERS, "Content-Type": "application/json; charset=utf-8" };
  const access = await meAccessOf(request);
  if (!access) return Response.json({ error: { code: "invalid_link", message: ME_LINK_EXPIRED } }, { status: 404, headers });
  try {
    const body = await exportMyData(visitorActor(context), access);
    return new Response(`${JSON.stringify(body, null, 2)}\n`, { headers: { ...headers, "Content-Disposition": 'attachment; filename="my-data.json"' } });
  } catch (error) {
    if (isServiceError(error, "tooMany"))
      return Response.json(
        { error: { code: error.code, message: error.message } },
        { status: 429, headers: { ...headers, "Retry-After": String(error.retryAfter ?? 60) } },
      );
    if (isServiceError(error, "invalid"))
      return Response.json({ error: { code: "invalid_link", message: Object.values(error.fields)[0] ?? error.message } }, { status: 404, headers });
    throw error;
  }
}
