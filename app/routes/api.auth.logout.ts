import { endpoint, noContent, requireStaff } from "~/lib/api.server";
import { destroySession, endSession, readUserSession } from "~/lib/session.server";
import { revokeToken } from "~/lib/token.server";
import type { Route } from "./+types/api.auth.logout";

const BEARER = /^Bearer\s+(\S+)$/i;

/** Signs out the caller's own token (or, from our pages, its cookie session); other sessions and tokens go on. */
const handle = endpoint({
  async POST({ request }) {
    await requireStaff(request);
    const bearer = BEARER.exec(request.headers.get("Authorization")?.trim() ?? "");
    if (bearer) {
      await revokeToken(bearer[1]);
      return noContent();
    }
    const check = await readUserSession(request);
    if (check) await endSession(check);
    const response = noContent();
    if (check) response.headers.set("Set-Cookie", await destroySession(check.session));
    return response;
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
