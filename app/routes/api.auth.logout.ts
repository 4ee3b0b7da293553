import { endpoint, noContent, requireApiStaff } from "~/web/api.server";
import { destroySession, endSession, readUserSession } from "~/web/session.server";
import { revokeToken } from "~/web/token.server";
import { signOut } from "~/services/auth.server";
import type { Route } from "./+types/api.auth.logout";

const BEARER = /^Bearer\s+(\S+)$/i;

/** Signs out the caller's own token (or, from our pages, its cookie session); other sessions and tokens go on. */
const handle = endpoint({
  async POST(args) {
    const actor = await requireApiStaff(args);
    const bearer = BEARER.exec(args.request.headers.get("Authorization")?.trim() ?? "");
    if (bearer) {
      await revokeToken(bearer[1]);
      await signOut(actor, "token");
      return noContent();
    }
    const check = await readUserSession(args.request);
    if (check) await endSession(check);
    await signOut(actor, "session");
    const response = noContent();
    if (check) response.headers.set("Set-Cookie", await destroySession(check.session));
    return response;
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
