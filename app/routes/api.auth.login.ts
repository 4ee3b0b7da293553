import { loginSchema } from "~/schemas/login";
import { LOGIN_FAILED, LoginError, verifyLogin } from "~/lib/auth.server";
import { ApiError, endpoint, json, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import { beginLoginAttempt, RATE_LIMIT_MESSAGE, recordLoginFailure, recordLoginSuccess, retryAfterHeaders } from "~/lib/rate-limit.server";
import { issueToken, TOKEN_TTL_SECONDS } from "~/lib/token.server";
import type { Route } from "./+types/api.auth.login";

const handle = endpoint({
  async POST({ request, context }) {
    const { email, password } = validate(loginSchema, await readBody(request));
    const gate = await beginLoginAttempt(context.clientIp, email);
    if (!gate.ok) throw new ApiError(429, "rate_limited", RATE_LIMIT_MESSAGE, undefined, retryAfterHeaders(gate));
    let user;
    try {
      user = await verifyLogin(email, password);
    } catch (error) {
      if (!(error instanceof LoginError)) throw error;
      await recordLoginFailure(context.clientIp, email);
      // One answer whether or not the e-mail exists.
      throw new ApiError(401, "invalid_credentials", LOGIN_FAILED);
    }
    await recordLoginSuccess(context.clientIp, email);
    return json({
      token: await issueToken(user),
      expiresIn: TOKEN_TTL_SECONDS,
      user: { id: user.id, name: user.name, email: user.email, role: user.role },
    });
  },
}, { ignoreCredentials: true });

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
