import type { AppLoadContext } from "react-router";
import * as z from "zod/mini";
import { DB_UNAVAILABLE, isDbUnavailable } from "~db/errors";
import type { User } from "~/models/user.server";
import { pageBounds, MAX_LIMIT, type Page } from "~/models/paging.server";
import { fieldName } from "./form-submission";
import { readUserSession } from "./session.server";
import { verifyToken } from "./token.server";
import { BadMultipartError, RequestTooLargeError } from "./uploads.server";

/**
 * The JSON API's shared plumbing (DESIGN.md §3): one error shape, who the caller is, body parsing and
 * validation with the shared zod schemas. Route modules under app/routes/api.* stay thin on top of it.
 */

export type Fields = Record<string, string>;

export class ApiError extends Error {
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

export function errorResponse(e: ApiError): Response {
  const error: { code: string; message: string; fields?: Fields } = { code: e.code, message: e.message };
  if (e.fields && Object.keys(e.fields).length) error.fields = e.fields;
  return json({ error }, { status: e.status, headers: e.headers });
}

export const notFound = (what = "Record") => new ApiError(404, "not_found", `${what} not found`);
export const invalid = (fields: Fields, message = Object.values(fields)[0] ?? "Invalid input") => new ApiError(400, "invalid_input", message, fields);

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
  if (error instanceof ApiError) return errorResponse(error);
  if (error instanceof RequestTooLargeError) return errorResponse(new ApiError(413, "payload_too_large", error.message));
  if (error instanceof BadMultipartError) return errorResponse(new ApiError(400, "invalid_body", error.message));
  if (error instanceof Response) return error;
  const where = `[${context.requestId ?? "-"}] API ${request.method} ${new URL(request.url).pathname}`;
  if (isDbUnavailable(error)) {
    console.error(`${where}: database unavailable:`, error instanceof Error ? error.message : error);
    return errorResponse(new ApiError(DB_UNAVAILABLE.status, DB_UNAVAILABLE.code, DB_UNAVAILABLE.message, undefined, { "Retry-After": "5" }));
  }
  console.error(`${where} failed:`, error);
  return errorResponse(new ApiError(500, "server_error", "Something went wrong. Please try again."));
}

// ---------------------------------------------------------------- who is calling

const SAFE_METHODS = new Set(["GET", "HEAD"]);
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
  const check = await readUserSession(request);
  if (!check) return null;
  // The cookie rides along on any request the browser makes; a write must come from our own pages.
  if (!SAFE_METHODS.has(request.method) && !sameOrigin(request)) {
    throw new ApiError(403, "cross_origin", "Cross-site requests are not allowed");
  }
  return check.user;
}

function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin === null) return request.headers.get("Sec-Fetch-Site") !== "cross-site";
  try {
    return new URL(origin).host === new URL(request.url).host;
  } catch {
    return false;
  }
}

export async function requireStaff(request: Request): Promise<User> {
  const user = await getCaller(request);
  if (!user) {
    throw new ApiError(401, "unauthorized", "Sign in to use this endpoint: send Authorization: Bearer <token>", undefined, {
      "WWW-Authenticate": "Bearer",
    });
  }
  return user;
}

export async function requireAdmin(request: Request): Promise<User> {
  const user = await requireStaff(request);
  if (user.role !== "admin") throw new ApiError(403, "forbidden", "Only an admin can do this");
  return user;
}

/** The schema's messages per field, named the way forms name them (`highlights[2]`). */
export function fieldErrors(error: z.core.$ZodError): Fields {
  const fields: Fields = {};
  for (const issue of error.issues) {
    const name = fieldName(issue.path) || "body";
    fields[name] ??= issue.message;
  }
  return fields;
}

export function validate<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw invalid(fieldErrors(result.error));
  return result.data;
}

// ---------------------------------------------------------------- lists

type Filter = readonly string[] | "text";

/**
 * Query parameters of a list: page and limit (limit capped at MAX_LIMIT), plus the filters named in `spec`
 * with their allowed values. An empty parameter means no filter; an unknown value is a 400.
 */
export function listQuery<K extends string>(request: Request, spec: Record<K, Filter>): { page: number; limit: number } & Partial<Record<K, string>> {
  const params = new URL(request.url).searchParams;
  const fields: Fields = {};
  const whole = (name: string) => {
    const raw = params.get(name);
    if (raw === null || raw === "") return undefined;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) fields[name] = `${name} must be a whole number of at least 1`;
    return Number(raw);
  };
  const page = whole("page");
  const limit = whole("limit");
  const out: Partial<Record<K, string>> = {};
  for (const [name, allowed] of Object.entries(spec) as [K, Filter][]) {
    const value = params.get(name)?.trim();
    if (!value) continue;
    if (allowed !== "text" && !allowed.includes(value)) fields[name] = `${name} must be one of ${allowed.join(", ")}`;
    else if (value.length > 200) fields[name] = `${name} must be at most 200 characters`;
    else out[name] = value;
  }
  if (Object.keys(fields).length) throw invalid(fields);
  return { ...pageBounds({ page, limit: limit === undefined ? undefined : Math.min(limit, MAX_LIMIT) }), ...out };
}

/** A page of records as the API answers it: { data, page, limit, total, pages }. */
export function listResponse<T>(page: Page<T>): Response {
  return json({ data: page.data, page: page.page, limit: page.limit, total: page.total, pages: page.pages });
}

export const one = (data: unknown, status = 200) => json({ data }, { status });
export const noContent = () => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
