import type { IncomingMessage } from "node:http";
import { Transform, type Readable } from "node:stream";
import { MAX_BODY_BYTES, MAX_MULTIPART_BYTES, RequestTooLargeError } from "~/infra/uploads.server";
import { routePath } from "./paths";

/**
 * Body size limits for every route: forms and JSON are read whole (they are small) and refused beyond
 * MAX_BODY_BYTES; multipart uploads are streamed and cut off beyond MAX_MULTIPART_BYTES. A body sent
 * without Content-Length (chunked) is counted as it arrives, so lying about the size does not help.
 */
export { MAX_BODY_BYTES, MAX_MULTIPART_BYTES };

export type BodyKind = "none" | "multipart" | "buffered";

export function hasBody(req: IncomingMessage): boolean {
  if (req.method === "GET" || req.method === "HEAD") return false;
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

export function bodyKind(req: IncomingMessage): BodyKind {
  if (!hasBody(req)) return "none";
  return (req.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/") ? "multipart" : "buffered";
}

/**
 * The routes that take files: the /enquiry page (attachments), the course form (no-JS pages, the
 * progress-reporting save, syllabus images), the review form (a photo) and the courses API. `.data` is React Router's data
 * request for the same route. Everywhere else a multipart body is a form like any other and gets
 * the small limit, so nobody can make a page that takes no files read 25 MB.
 */
const UPLOAD_PATHS = [
  /^\/enquiry(?:\.data)?\/?$/,
  /^\/admin\/courses\/(?:new|save|syllabus-image|[^/]+\/edit)(?:\.data)?\/?$/,
  /^\/admin\/reviews\/(?:new|[^/]+\/edit)(?:\.data)?\/?$/,
  /^\/api\/courses(?:\/[^/]+)?\/?$/,
];

export function takesFiles(pathname: string): boolean {
  const path = routePath(pathname);
  return UPLOAD_PATHS.some((re) => re.test(path));
}

export function bodyLimit(kind: BodyKind, pathname: string): number {
  return kind === "multipart" && takesFiles(pathname) ? MAX_MULTIPART_BYTES : MAX_BODY_BYTES;
}

/** True when the declared Content-Length alone already exceeds the limit. */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = Number(req.headers["content-length"] ?? 0);
  return Number.isFinite(declared) && declared > limit;
}

/** Reads a small body whole; rejects with RequestTooLargeError as soon as it passes the limit. */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(new RequestTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error("The client aborted the request"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

/** Passes a streamed body through, failing it with RequestTooLargeError once it passes the limit. */
export function limitStream(req: IncomingMessage, limit: number, onTooLarge: () => void): Transform {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > limit) {
        onTooLarge();
        cb(new RequestTooLargeError());
      } else cb(null, chunk);
    },
  });
  req.on("error", (error) => counter.destroy(error));
  req.on("aborted", () => counter.destroy(new Error("The client aborted the request")));
  req.pipe(counter);
  return counter;
}

/**
 * The rest of an upload that was answered without being read, read and dropped, so the connection stays usable for
 * the client's next request (unread, Node holds it and later resets the connection). `from` is the limitStream the
 * request was piped into; past `limit` more bytes the connection is cut instead.
 */
export function discardRest(req: IncomingMessage, from: Transform, limit: number): void {
  req.unpipe(from);
  from.destroy();
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) req.destroy();
  });
  req.resume();
}

/**
 * A Node stream as a web ReadableStream for the Request body. Unlike @react-router/node's helper, cancelling
 * it (a parser that gave up on a malformed or oversized body) never leaves an 'error' event without a
 * listener, which would bring the whole process down.
 */
export function toWebStream(source: Readable): ReadableStream<Uint8Array> {
  let finished = false;
  // Errors reach the reader through controller.error below; this listener only keeps them from being "unhandled".
  source.on("error", () => undefined);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on("data", (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once("end", () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        source.once("error", (error) => {
          if (finished) return;
          finished = true;
          controller.error(error);
        });
        source.pause();
      },
      pull() {
        source.resume();
      },
      cancel() {
        finished = true;
        source.destroy();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}
