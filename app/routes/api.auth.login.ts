import { endpoint, json } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { visitorActor } from "~/web/actor.server";
import { issueToken, TOKEN_TTL_SECONDS } from "~/web/token.server";
import { signIn } from "~/services/auth.server";
import type { Route } from "./+types/api.auth.login";

const handle = endpoint(
  {
    async POST({ request, context }) {
      const user = await signIn(await readApiBody(request), visitorActor(context));
      return json({
        token: await issueToken(user),
        expiresIn: TOKEN_TTL_SECONDS,
        user: { id: user.id, name: user.name, email: user.email, role: user.role },
      });
    },
  },
  { ignoreCredentials: true },
);

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
