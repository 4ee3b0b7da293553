import { endpoint, json } from "~/web/api.server";
import { buildOpenApiDocument } from "~/web/openapi.server";
import type { Route } from "./+types/api.openapi[.]json";

let cached: unknown;

const handle = endpoint({
  async GET() {
    cached ??= buildOpenApiDocument();
    return json(cached);
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
