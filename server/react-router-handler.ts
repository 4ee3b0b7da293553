import { writeReadableStreamToWritable } from "@react-router/node";
import { blocksFor, inLargeBlocks } from "./stream-blocks";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, isRouteErrorResponse, type AppLoadContext, type HandleErrorFunction, type ServerBuild } from "react-router";
import type { Transform } from "node:stream";
import { bodyKind, bodyLimit, declaredTooLarge, discardRest, limitStream, readNodeBody, toWebStream } from "./body";
import { classifyErrors, databaseReachable, DB_UNAVAILABLE, inputErrorClass, type ErrorClass } from "./error-status";
import { methodResponse } from "./methods";
import { setPageRenderer, storeInPageCache } from "./page-cache";
import { isAdminPath, isApiPath } from "./paths";
import { httpErrorResponse } from "./responses";
import { RequestTooLargeError } from "~/infra/uploads.server";
import { env } from "~/env.server";

/**
 * Express → React Router, like @react-router/express, plus what that adapter leaves to us:
 * a body size limit on every route, and no 5xx for input the server cannot read
 * (bad JSON, a body type a form does not take, broken multipart) or while the database is away (503).
 */
const ERRORS = Symbol.for("soc.request-errors");
const REQUEST_ID = Symbol.for("soc.request-id");
type TrackedContext = AppLoadContext & { [ERRORS]?: unknown[]; [REQUEST_ID]?: string };

const patched = new WeakMap<ServerBuild, ServerBuild>();

/**
 * React Router's own cross-site check on a page's action (throwIfPotentialCSRFAttack): it compares the Origin with
 * the request's URL and throws one of these, or, on a JavaScript (single-fetch, `.data`) post, a plain "Bad Request".
 * server/csrf.ts has already refused foreign origins with the branded page; what still reaches this check is a post
 * from PUBLIC_URL through a proxy that rewrote the Host, or one that beat the first check some other way.
 */
const ORIGIN_REFUSAL = /^The `request\.url` origin does not match `origin` header|^`origin` header is not a valid URL/;

function isOriginRefusal(error: unknown, request: Request): boolean {
  if (!(error instanceof Error)) return false;
  if (ORIGIN_REFUSAL.test(error.message)) return true;
  return error.message === "Bad Request" && request.method !== "GET" && new URL(request.url).pathname.endsWith(".data");
}

const CROSS_SITE_FORM = { status: 403, code: "cross_site_form", message: "Cross-site form posts are not accepted" };

/** Wraps the build's handleError so each request's errors are kept for classifyErrors, and logged with the request id. */
function trackErrors(build: ServerBuild): ServerBuild {
  const cached = patched.get(build);
  if (cached) return cached;
  const original = build.entry.module.handleError;
  const handleError: HandleErrorFunction = (error, args) => {
    const context = args.context as TrackedContext | undefined;
    context?.[ERRORS]?.push(error);
    if (original) return original(error, args);
    if (args.request.signal.aborted) return;
    const id = `[${context?.[REQUEST_ID] ?? "-"}]`;
    if (isOriginRefusal(error, args.request)) {
      // One line, like server/csrf.ts's, not a stack trace per refused post.
      return console.warn(
        id,
        `403 ${args.request.method} ${new URL(args.request.url).pathname}: cross-site form post refused (Origin: ${args.request.headers.get("origin") ?? "-"}, request: ${new URL(args.request.url).origin})`,
      );
    }
    // A body the server cannot read is the client's mistake: one line, not a stack trace per probe.
    const input = inputErrorClass(error);
    if (input)
      return console.warn(
        id,
        `${input.status} ${args.request.method} ${new URL(args.request.url).pathname}: ${error instanceof Error ? error.message : String(error)}`,
      );
    const inner = error && typeof error === "object" && "error" in error && (error as { error?: unknown }).error;
    // React Router's own 4xx (a POST where no route has an action: 405) is the client's mistake too.
    if (isRouteErrorResponse(error) && error.status < 500) {
      return console.warn(
        id,
        `${error.status} ${args.request.method} ${new URL(args.request.url).pathname}: ${inner instanceof Error ? inner.message : error.statusText}`,
      );
    }
    console.error(id, inner || error);
  };
  // Our own pages post from PUBLIC_URL: behind a proxy that hands the app another Host, React Router would compare
  // that Origin with the backend's address and refuse every form. server/csrf.ts has checked the whole origin.
  const allowedActionOrigins = [...(Array.isArray(build.allowedActionOrigins) ? build.allowedActionOrigins : []), new URL(env().PUBLIC_URL).host];
  const result = { ...build, allowedActionOrigins, entry: { ...build.entry, module: { ...build.entry.module, handleError } } } as ServerBuild;
  patched.set(build, result);
  return result;
}

function webHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const v of values) headers.append(key, v);
    else headers.set(key, values);
  }
  return headers;
}

function requestUrl(req: ExpressRequest): URL {
  const [, forwardedPort] = req.app?.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort].map((p) => Number.parseInt(p ?? "", 10)).find((p) => Number.isSafeInteger(p));
  const hostname = req.hostname?.split(/[\\/?#@]/)[0] || "localhost";
  const base = new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}`);
  // Absolute-form targets ("POST http://elsewhere/ HTTP/1.1") are read as a path on this host.
  const target = req.originalUrl.startsWith("/") ? req.originalUrl : `/${req.originalUrl}`;
  return new URL(base.origin + target);
}

async function send(res: ExpressResponse, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // A route's header replaces the middleware's default (a page's own Referrer-Policy or Cache-Control): appended,
  // the browser would read "strict-origin-when-cross-origin, no-referrer" and apply the last one it knows.
  // Cookies are the one header that repeats.
  for (const [key, value] of response.headers.entries()) {
    if (key === "set-cookie") res.append(key, value);
    else res.setHeader(key, value);
  }
  if (!response.body) {
    res.end();
    return;
  }
  const body = blocksFor(response.headers.get("Content-Type")) ? response.body.pipeThrough(inLargeBlocks()) : response.body;
  try {
    await writeReadableStreamToWritable(body, res);
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}

/** The same response under another status; API answers get the JSON error shape of DESIGN.md §3. */
async function restatus(response: Response, cls: ErrorClass, pathname: string): Promise<Response> {
  if (isApiPath(pathname)) {
    await response.body?.cancel();
    return httpErrorResponse(cls, pathname);
  }
  const headers = new Headers(response.headers);
  if (cls.status === 503) headers.set("Retry-After", "5");
  return new Response(response.body, { status: cls.status, headers });
}

type Options = {
  build: () => Promise<ServerBuild>;
  mode?: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
};

export function createReactRouterHandler({ build, mode = process.env.NODE_ENV, getLoadContext }: Options) {
  // In production the build never changes: derive React Router's route tables once, not on every request.
  // The dev server hands over a fresh build function so edits show up.
  let ready: Promise<ReturnType<typeof createRequestHandler>> | undefined;
  const handler = () =>
    (ready ??=
      mode === "development"
        ? Promise.resolve(createRequestHandler(async () => trackErrors(await build()), mode))
        : build().then((b) => createRequestHandler(trackErrors(b), mode)));

  // The page cache renders public pages for a new content version in the background (server/page-cache.ts): an
  // anonymous GET with no headers at all, through the same handler, with the nonce it will cut out again.
  setPageRenderer(async (href, nonce) => {
    const context: TrackedContext = { cspNonce: nonce, clientIp: "127.0.0.1", requestId: "page-cache-warm", [ERRORS]: [], [REQUEST_ID]: "page-cache-warm" };
    return (await handler())(new Request(href), context);
  });

  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      let url: URL;
      try {
        url = requestUrl(req);
      } catch {
        return void (await send(res, httpErrorResponse({ status: 400, code: "bad_request", message: "The request could not be read." }, req.path)));
      }
      // TRACE, PROPFIND, a PUT to a page …: 405 with Allow before anything reads the body.
      const refused = methodResponse(await build(), req.method, url.pathname);
      if (refused) return void (await send(res, refused));
      const kind = bodyKind(req);
      const limit = bodyLimit(kind, url.pathname);
      const tooLarge = () => {
        // The rest of the body is not read: the connection ends with this answer, or it would be reset under the
        // client's next request.
        res.setHeader("Connection", "close");
        return httpErrorResponse({ status: 413, code: "payload_too_large", message: "The request is too large." }, url.pathname);
      };
      if (kind !== "none" && declaredTooLarge(req, limit)) return void (await send(res, tooLarge()));

      let overLimit = false;
      let upload: Transform | undefined;
      let body: BodyInit | undefined;
      if (kind === "buffered") {
        try {
          body = new Uint8Array(await readNodeBody(req, limit));
        } catch (error) {
          if (error instanceof RequestTooLargeError) return void (await send(res, tooLarge()));
          return; // the client went away mid-body: nobody to answer
        }
      } else if (kind === "multipart") {
        upload = limitStream(req, limit, () => (overLimit = true));
        body = toWebStream(upload);
      } else if (req.method !== "GET" && req.method !== "HEAD") {
        body = new Uint8Array(0);
      }

      let controller: AbortController | null = new AbortController();
      res.on("finish", () => (controller = null));
      res.on("close", () => controller?.abort());
      // HEAD is rendered as the GET it stands for (RFC 9110 §9.3.2: the same header fields, Cache-Control and ETag
      // included); Node leaves the body out of a HEAD answer, and the page cache may keep the page.
      const method = req.method === "HEAD" ? "GET" : req.method;
      const init: RequestInit & { duplex?: "half" } = { method, headers: webHeaders(req), signal: controller.signal };
      if (body !== undefined) {
        init.body = body;
        init.duplex = "half";
      }
      const request = new Request(url.href, init);

      const errors: unknown[] = [];
      const context: TrackedContext = { ...getLoadContext(req, res), [ERRORS]: errors, [REQUEST_ID]: res.locals.requestId as string };
      let response = await (await handler())(request, context);

      if (overLimit) {
        await response.body?.cancel();
        response = tooLarge();
      } else if (response.status === 400 && !url.pathname.endsWith(".data") && errors.some((e) => isOriginRefusal(e, request))) {
        // React Router's bare "Bad Request": the page server/csrf.ts gives a cross-site form post instead.
        await response.body?.cancel();
        response = httpErrorResponse(CROSS_SITE_FORM, url.pathname);
      } else if (response.status >= 500) {
        const cls = classifyErrors(errors) ?? ((await databaseReachable()) ? null : DB_UNAVAILABLE);
        if (cls) response = await restatus(response, cls, url.pathname);
      }
      // An upload answered before it was read (a refusal: 401, 403, 404 …) would leave its rest in the connection,
      // which Node then resets under the client's next request (found by the contract fuzz test): read and drop it.
      if (upload && !overLimit && !req.readableEnded) discardRest(req, upload, limit);
      // An anonymous public page or API read: kept for the next visitor and answered from what was kept.
      if (await storeInPageCache(req, res, response, request.url)) return;
      // Staff screens and API answers carry personal data: never keep them in a shared or browser cache.
      if ((isAdminPath(url.pathname) || isApiPath(url.pathname)) && !response.headers.has("Cache-Control")) {
        const headers = new Headers(response.headers);
        headers.set("Cache-Control", "no-store");
        response = new Response(response.body, { status: response.status, statusText: response.statusText, headers });
      }
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}
