import { ApiError } from "./api.server";
import { jsonBodyErrors } from "./json-body-contract.server";
import { MAX_BODY_BYTES, parseMultipart, RequestTooLargeError } from "~/infra/uploads.server";

/**
 * Request bodies for the JSON API: JSON, URL-encoded or multipart text fields, turned into a plain object
 * for the shared zod schemas. Size limits answer 413; broken JSON and body types it does not read answer 400.
 */

function mediaType(request: Request): string {
  return (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
}

async function readText(request: Request, max = MAX_BODY_BYTES): Promise<string> {
  if (Number(request.headers.get("Content-Length") ?? 0) > max) throw new RequestTooLargeError();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // Not cancel(): see safeBody.
      reader.releaseLock();
      throw new RequestTooLargeError();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * The request body as a plain object: JSON (held to the OpenAPI document: json-body-contract.server.ts), URL-encoded or multipart form fields (a
 * file part is a 400: only course saves take files). An empty body is {}; anything else is a 400.
 */
export async function readApiBody(request: Request): Promise<Record<string, unknown>> {
  const type = mediaType(request);
  if (type === "application/json" || type.endsWith("+json")) {
    const text = await readText(request);
    if (text.trim() === "") return {};
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError(400, "invalid_json", "The request body is not valid JSON");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ApiError(400, "invalid_json", "The request body must be a JSON object");
    }
    const body = value as Record<string, unknown>;
    const refused = jsonBodyErrors(request.method, request.url, body);
    if (Object.keys(refused).length) throw new ApiError(400, "invalid_input", Object.values(refused)[0], refused);
    return body;
  }
  if (type === "application/x-www-form-urlencoded") {
    const params = new URLSearchParams(await readText(request));
    return formToObject(params);
  }
  if (type === "multipart/form-data") {
    const { formData, unexpectedFiles } = await parseMultipart(safeBody(request), [], { maxBytes: MAX_BODY_BYTES });
    refuseFileParts(unexpectedFiles);
    return formToObject(formData);
  }
  const text = await readText(request);
  if (text.trim() === "") return {};
  throw new ApiError(400, "unsupported_content_type", "Send the body as application/json");
}

export const FILE_PART_MESSAGE = "Send this field as text, not as a file";

/** A file sent for a field that takes text is a mistake the caller should hear about, not a field that vanishes. */
export function refuseFileParts(names: string[]): void {
  if (!names.length) return;
  const fields = Object.fromEntries(names.map((name) => [name, FILE_PART_MESSAGE]));
  throw new ApiError(400, "invalid_input", FILE_PART_MESSAGE, fields);
}

/**
 * The request with its body behind a stream whose cancel only stops reading. React Router's Node adapter
 * turns a cancelled body into req.destroy(reason): an 'error' event nobody listens for (the process goes
 * down) and a reset connection instead of our 413. Leaving the rest unread lets the answer go out; Node
 * then closes the connection.
 */
export function safeBody(request: Request): Request {
  if (!request.body) return request;
  const reader = request.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel() {
      reader.releaseLock();
    },
  });
  return new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half", signal: request.signal } as RequestInit);
}

const INDEXED = /^([A-Za-z_][\w]*)\[(\d{1,3})\]$/;

/**
 * Form fields to an object: `highlights[0]`, `highlights[1]` (spec §7's indexed entries) and repeated
 * names become arrays in index order; file entries are skipped.
 */
export function formToObject(form: FormData | URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const indexed = new Map<string, Map<number, string>>();
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") continue;
    const m = INDEXED.exec(name);
    if (m) {
      const list = indexed.get(m[1]) ?? new Map<number, string>();
      list.set(Number(m[2]), value);
      indexed.set(m[1], list);
    } else if (name in out) {
      const prev = out[name];
      out[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
    } else {
      out[name] = value;
    }
  }
  for (const [name, list] of indexed) {
    out[name] = [...list.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  }
  return out;
}
