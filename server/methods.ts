import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { buildOpenApiDocument } from "~/web/openapi.server";
import { isApiPath, routePath } from "./paths";
import { httpErrorResponse } from "./responses";

/**
 * Which HTTP methods a path takes, so every other method gets 405 with an `Allow` header instead of reaching
 * React Router (whose `new Request()` refuses TRACE and CONNECT: a 500) or a page's action (a PUT to a form
 * page). API paths: the methods the OpenAPI document lists for them (it is generated from the same schemas the
 * routes use). Pages: GET and HEAD, and POST when the page has an action.
 */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

type ApiPath = { pattern: RegExp; methods: string[] };
let apiPaths: ApiPath[] | undefined;

function apiPathTable(): ApiPath[] {
  if (apiPaths) return apiPaths;
  const doc = buildOpenApiDocument() as { paths?: Record<string, Record<string, unknown>> };
  apiPaths = Object.entries(doc.paths ?? {}).map(([template, item]) => {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, "[^/]+");
    const methods = Object.keys(item)
      .filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))
      .map((m) => m.toUpperCase());
    if (methods.includes("GET")) methods.push("HEAD");
    return { pattern: new RegExp(`^${source}/?$`), methods: [...methods, "OPTIONS"] };
  });
  return apiPaths;
}

const trees = new WeakMap<ServerBuild, RouteObject[]>();

function routeTree(build: ServerBuild): RouteObject[] {
  const cached = trees.get(build);
  if (cached) return cached;
  const children = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const list = children.get(route.parentId) ?? [];
    list.push({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive } as RouteObject);
    children.set(route.parentId, list);
  }
  const attach = (routes: RouteObject[]): RouteObject[] => routes.map((r) => (r.index ? r : { ...r, children: attach(children.get(r.id) ?? []) }));
  const tree = attach(children.get(undefined) ?? []);
  trees.set(build, tree);
  return tree;
}

/** The methods `pathname` takes, or null for an API path that does not exist (a 404 whatever the method). */
export function allowedMethods(build: ServerBuild, pathname: string): string[] | null {
  if (isApiPath(pathname)) return apiPathTable().find((p) => p.pattern.test(routePath(pathname)))?.methods ?? null;
  // React Router's data requests: /courses.data is /courses, /_root.data is /.
  const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
  const leaf = matchRoutes(routeTree(build), page)?.at(-1)?.route;
  const module = leaf?.id ? build.routes[leaf.id]?.module : undefined;
  return module && typeof (module as { action?: unknown }).action === "function" ? ["GET", "HEAD", "POST", "OPTIONS"] : ["GET", "HEAD", "OPTIONS"];
}

const METHOD_NOT_ALLOWED = { status: 405, code: "method_not_allowed", message: "This method is not allowed here." };
const NOT_FOUND = { status: 404, code: "not_found", message: "No such endpoint. See /api/openapi.json" };

/**
 * The answer for a method the path does not take, or null to let the request through: OPTIONS is answered here
 * (204 with Allow: no cross-origin use is offered); API methods the router can carry go to the endpoint, which
 * answers its own 405.
 */
export function methodResponse(build: ServerBuild, method: string, pathname: string): Response | null {
  // Every path takes GET and HEAD, or is a 404 the router answers itself: no need to match routes (about 7% of
  // an uncached page's CPU) for the requests nearly all traffic is.
  if (method === "GET" || method === "HEAD") return null;
  const allowed = allowedMethods(build, pathname);
  if (allowed === null) return ROUTED_METHODS.has(method) ? null : httpErrorResponse(NOT_FOUND, pathname);
  if (method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: allowed.join(", "), "Cache-Control": "no-store" } });
  if (allowed.includes(method) || (isApiPath(pathname) && ROUTED_METHODS.has(method))) return null;
  const response = httpErrorResponse(METHOD_NOT_ALLOWED, pathname);
  response.headers.set("Allow", allowed.join(", "));
  return response;
}

/**
 * The same answer as raw HTTP, for requests Node's HTTP server hands over as a socket instead of a request:
 * CONNECT, and a request line whose method it does not know (a made-up token).
 */
export async function rawMethodResponse(build: ServerBuild, method: string, target: string): Promise<string> {
  const pathname = target.startsWith("/") ? (target.split("?")[0] ?? "/") : "/";
  const response = methodResponse(build, method, pathname) ?? httpErrorResponse(METHOD_NOT_ALLOWED, pathname);
  const body = Buffer.from(await response.text());
  const head = [`HTTP/1.1 ${response.status} ${response.status === 404 ? "Not Found" : "Method Not Allowed"}`];
  response.headers.forEach((value, key) => head.push(`${key}: ${value}`));
  head.push(`Content-Length: ${body.length}`, "Connection: close");
  return `${head.join("\r\n")}\r\n\r\n${body.toString()}`;
}
