import { Transform, type TransformCallback } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { deferModules } from "~/web/deferred-modules.server";
import { NonceProvider } from "~/web/nonce";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext?.cspNonce;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and SPA-mode builds get the whole document at once; browsers get the shell as soon as it is ready.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // React may send a large finished Suspense boundary (a lazily hydrated form) as a fallback plus a script
        // that swaps the content in; without JavaScript that content would never show. Keep every boundary inline.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          // Staff screens keep their modules in the head: staff are on desktops and the screens are for work.
          const body = new Coalesce(process.env.NODE_ENV === "production" && !new URL(request.url).pathname.startsWith("/admin"));
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors in the shell are reported by onShellError; log the rest once rendering has begun.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * React writes a page in pieces of at most 4 KB; each piece then crosses a web stream, the compression
 * middleware and zlib on its own. What React writes in one go (the whole page, for a public page with
 * nothing pending) is passed on as one chunk instead, at the end of the current turn of the event loop:
 * uncached / answered 145 req/s instead of 111 side by side, and nothing waits longer than that turn.
 */
class Coalesce extends Transform {
  private pending: Buffer[] = [];
  private scheduled = false;
  private headSeen = false;
  /** Public pages: the document is held until <Scripts>' module script has passed, then rewritten (deferModules). */
  private holding: boolean;

  constructor(deferScripts: boolean) {
    super();
    this.holding = deferScripts;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.pending.push(chunk);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.release());
    }
    callback();
  }

  override _flush(callback: TransformCallback) {
    this.release(true);
    callback();
  }

  private release(last = false) {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    let chunk = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    if (this.holding) {
      const deferred = deferModules(chunk);
      if (!deferred && !last) {
        this.pending = [chunk]; // keep it: the script comes in a later piece
        return;
      }
      this.holding = false;
      this.headSeen = true;
      chunk = deferred ?? chunk;
    }
    this.pending = [];
    if (!this.headSeen) {
      const end = chunk.indexOf("</head>");
      if (end >= 0) {
        this.headSeen = true;
        chunk = Buffer.concat([Buffer.from(lowPriorityModulePreloads(chunk.subarray(0, end).toString("utf8"))), chunk.subarray(end)]);
      }
    }
    this.push(chunk);
  }
}

/**
 * Staff screens: React Router's <Scripts> preloads the page's modules at high priority, so they would share the
 * line with the stylesheet the first paint waits for. The screens work before their JavaScript arrives, so
 * the modules are fetched at low priority (public pages go further: deferred-modules.server.ts). <Scripts>
 * takes no attribute for its links, hence the rewrite; in the head's markup (React escapes quotes in text)
 * the string is only ever the attribute itself.
 */
function lowPriorityModulePreloads(head: string): string {
  return head.replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ');
}
