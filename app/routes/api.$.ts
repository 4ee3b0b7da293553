import { ApiError, endpoint } from "~/web/api.server";
import type { Route } from "./+types/api.$";

// Unknown paths under /api answer in the API's error shape, not with the site's Page Not Found.
const missing = async (): Promise<Response> => {
  throw new ApiError(404, "not_found", "No such endpoint. See /api/openapi.json");
};
const handle = endpoint({ GET: missing, POST: missing, PUT: missing, DELETE: missing });

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
