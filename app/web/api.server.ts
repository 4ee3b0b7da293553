import type { AppLoadContext } from "react-router";
import { DB_UNAVAILABLE, isDbUnavailable } from "~db/errors";
import type { Role, User } from "~/models/user.server";
import type * as z from "zod/mini";
import { pageBounds, type Page } from "~/models/paging.server";
import type { Actor, StaffActor } from "~/services/actor";
import { ServiceError } from "~/services/service-error";
import { parseInput } from "~/services/validation";
import { actorFor, staffActorFor } from "./actor.server";
import { readUserSession } from "./session.server";
import { verifyToken } from "./token.server";
import { BadMultipartError, RequestTooLargeError } from "~/infra/uploads.server";

/**
 * The JSON API's shared plumbing (DESIGN.md §3): one error shape, who the caller is, list parameters.
 * Route modules under app/routes/api.* only translate between HTTP and the services (app/services).
 */

export type Fields = Record<string, string>;

export class ApiError extends Error {
  /** 409 edit_conflict: the record as stored now (as its GET answers it). */
  current?: unknown;
  constructor(
    public status: number,
    public code: string,
    message: string,
    public fields?: Fields,
    public headers?: HeadersInit,
  ) {
    super(message);
  }
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  // Answers depend on who asks (pending reviews, staff-only lists): never let a cache share them.
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function apiErrorResponse(e: ApiError): Response {
  const error: { code: string; message: string; fields?: Fields; current?: unknown } = { code: e.code, message: e.message };
  if (e.fields && Object.keys(e.fields).length) error.fields = e.fields;
  if (e.current !== undefined) error.current = e.current;
  return json({ error }, { status: e.status, headers: e.headers });
}

/**
 * A service's refusal in the API's words: its status, code, message and per-field messages; a write refused because
 * the record changed meanwhile also carries what it holds now, with its version as the ETag to send back.
 */
function fromServiceError(e: ServiceError): ApiError {
  const headers: Record<string, string> = {};
  if (e.retryAfter !== undefined) headers["Retry-After"] = String(e.retryAfter);
  const version = (e.current as { version?: unknown } | undefined)?.version;
  if (typeof version === "number") headers.ETag = `"${version}"`;
  const error = new ApiError(e.status, e.code, e.message, e.fields, Object.keys(headers).length ? headers : undefined);
  if (e.current !== undefined) error.current = e.current;
  return error;
}

export type ApiArgs = { request: Request; params: Record<string, string | undefined>; context: AppLoadContext };
type Handler = (args: ApiArgs) => Promise<Response>;
type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * One function serving both the route's loader and action: dispatches on the method, answers 405 with Allow
 * for the others, and turns every failure into the error shape (never an HTML page or a stack trace).
 */
export function endpoint(handlers: Partial<Record<Method, Handler>>, opts: { ignoreCredentials?: boolean } = {}) {
  const allowed = Object.keys(handlers);
  if (handlers.GET) allowed.push("HEAD");
  return async (args: ApiArgs): Promise<Response> => {
    const method = args.request.method === "HEAD" ? "GET" : (args.request.method as Method);
    const handler = handlers[method];
    try {
      if (!handler) throw new ApiError(405, "method_not_allowed", `${args.request.method} is not allowed here`, undefined, { Allow: allowed.join(", ") });
      // A bad or expired token is reported wherever it is sent, even where none is needed, so a client
      // learns at once that it must sign in again (sign-in itself excepted).
      if (!opts.ignoreCredentials && args.request.headers.has("Authorization")) await getCaller(args.request);
      return await handler(args);
    } catch (error) {
      return toErrorResponse(error, args);
    }
  };
}

function toErrorResponse(error: unknown, { request, context }: ApiArgs): Response {
  if (error instanceof ApiError) return apiErrorResponse(error);
  if (error instanceof ServiceError) return apiErrorResponse(fromServiceError(error));
  if (error instanceof RequestTooLargeError) return apiErrorResponse(new ApiError(413, "payload_too_large", error.message));
  if (error instanceof BadMultipartError) return apiErrorResponse(new ApiError(400, "invalid_body", error.message));
  if (error instanceof Response) return error;
  const where = `[${context.requestId ?? "-"}] API ${request.method} ${new URL(request.url).pathname}`;
  if (isDbUnavailable(error)) {
    console.error(`${where}: database unavailable:`, error instanceof Error ? error.message : error);
    return apiErrorResponse(new ApiError(DB_UNAVAILABLE.status, DB_UNAVAILABLE.code, DB_UNAVAILABLE.message, undefined, { "Retry-After": "5" }));
  }
  console.error(`${where} failed:`, error);
  return apiErrorResponse(new ApiError(500, "server_error", "Something went wrong. Please try again."));
}

// ---------------------------------------------------------------- who is calling

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The signed-in staff member behind this request, or null for an anonymous one. A bearer token wins over
 * the cookie; a token that is present but bad is a 401 rather than silently anonymous.
 */
export function getCaller(request: Request): Promise<User | null> {
  let found = callers.get(request);
  if (!found) {
    found = resolveCaller(request);
    callers.set(request, found);
  }
  return found;
}
const callers = new WeakMap<Request, Promise<User | null>>();

async function resolveCaller(request: Request): Promise<User | null> {
  const header = request.headers.get("Authorization");
  if (header !== null) {
    const match = BEARER.exec(header.trim());
    const user = match ? await verifyToken(match[1]) : null;
    if (!user) {
      throw new ApiError(401, "invalid_token", "The token is invalid or has expired. Please sign in again.", undefined, {
        "WWW-Authenticate": 'Bearer error="invalid_token"',
      });
    }
    return user;
  }
  // Our own pages may call the API with the back office's cookie. A cookie write from another site never gets
  // here: the server refuses it first (server/csrf.ts).
  const check = await readUserSession(request);
  return check?.user ?? null;
}

/** Who is calling, as the services want it: a staff member or an anonymous caller, with address and request id. */
export async function apiActor({ request, context }: Pick<ApiArgs, "request" | "context">): Promise<Actor> {
  return actorFor(await getCaller(request), context);
}

/**
 * The staff member making an API call (requireStaff's twin): without credentials a 401 with WWW-Authenticate,
 * without `role` a 403, both in the API's error shape. Most role rules are the services' own (requireAdmin).
 */
export async function requireApiStaff({ request, context }: Pick<ApiArgs, "request" | "context">, { role }: { role?: Role } = {}): Promise<StaffActor> {
  const user = await getCaller(request);
  if (!user) {
    throw new ApiError(401, "unauthorized", "Sign in to use this endpoint: send Authorization: Bearer <token>", undefined, {
      "WWW-Authenticate": "Bearer",
    });
  }
  if (role && user.role !== role) throw new ApiError(403, "forbidden", "Only an admin can do this");
  return staffActorFor(user, context);
}

// ---------------------------------------------------------------- lists

/**
 * A list's query parameters, checked with its schema from app/schemas/list-params.ts (the one the OpenAPI
 * document lists): page and limit (1 to MAX_PAGE and MAX_LIMIT) and the list's filters. A parameter left out
 * means none; anything outside the schema (an empty number, choice or day among it) is a 400 naming the parameter.
 */
export function listQuery<S extends z.core.$ZodObject>(request: Request, schema: S): Omit<z.output<S>, "page" | "limit"> & { page: number; limit: number } {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string | undefined> = {};
  // As sent: each parameter's schema says what it trims (text filters) and what it refuses (an empty number or choice).
  for (const name of Object.keys(schema._zod.def.shape)) raw[name] = params.get(name) ?? undefined;
  const values = parseInput(schema, raw) as z.output<S> & { page?: number; limit?: number };
  const { page, limit } = pageBounds({ page: values.page, limit: values.limit });
  return { ...values, page, limit };
}

/** A page of records as the API answers it: { data, page, limit, total, pages }. */
export function listResponse<T>(page: Page<T>): Response {
  // totalCapped (only when true): more than `total` match, the count stopped there (GET /api/enquiries, issue 39).
  return json({
    data: page.data,
    page: page.page,
    limit: page.limit,
    total: page.total,
    pages: page.pages,
    ...(page.totalCapped ? { totalCapped: true } : {}),
  });
}

export const one = (data: unknown, status = 200) => json({ data }, { status });

/** One record that carries a version, with it as its ETag (`"3"`): a client sends it back in If-Match to write. */
export const oneVersioned = (data: { version: number }, status = 200) => json({ data }, { status, headers: { ETag: `"${data.version}"` } });

/**
 * Courses, batches and reviews as an anonymous caller gets them: without `updatedBy` (a staff member's name is the
 * back office's business). Staff callers get the whole record.
 */
export function shownTo<T extends { updatedBy?: string | null }>(actor: Pick<Actor, "user">, record: T): T | Omit<T, "updatedBy"> {
  if (actor.user) return record;
  const { updatedBy: _by, ...rest } = record;
  return rest;
}

/**
 * A write's body with the version the client read: `If-Match: "3"` (the record's ETag; W/ accepted) or `version` in
 * the body. The service refuses (409 edit_conflict) when the record has moved on since; without either, the write
 * applies to whatever is stored, as before.
 */
export function withIfMatch(request: Request, body: Record<string, unknown>): Record<string, unknown> {
  const header = request.headers.get("If-Match");
  if (header === null || header.trim() === "*") return body;
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  if (!match)
    throw new ApiError(400, "invalid_input", 'If-Match must be the record\'s ETag, such as "3"', {
      version: 'If-Match must be the record\'s ETag, such as "3"',
    });
  return { ...body, version: Number(match[1]) };
}
export const noContent = () => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
