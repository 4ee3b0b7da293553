/** Calling the public routes' loaders and actions directly, with real Requests (no server, no mocks). */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are checked field by field in each test
type Unwrapped = { status: number; headers: Headers; body: any };

function isDataWithInit(v: unknown): v is { type: string; data: unknown; init: ResponseInit | null } {
  return typeof v === "object" && v !== null && (v as { type?: string }).type === "DataWithResponseInit";
}

async function unwrap(value: unknown): Promise<Unwrapped> {
  if (value instanceof Response) {
    const text = await value.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: value.status, headers: value.headers, body };
  }
  if (isDataWithInit(value)) return { status: value.init?.status ?? 200, headers: new Headers(value.init?.headers), body: value.data };
  return { status: 200, headers: new Headers(), body: value };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RouteFn = (args: any) => unknown;

export async function callRoute(fn: RouteFn, request: Request, params: Record<string, string> = {}, clientIp = "203.0.113.7"): Promise<Unwrapped> {
  try {
    return await unwrap(await fn({ request, params, context: { cspNonce: "", clientIp } }));
  } catch (thrown) {
    return unwrap(thrown);
  }
}
export const callAction = callRoute;
export const callLoader = callRoute;

export function getRequest(path: string): Request {
  return new Request(`http://localhost${path}`);
}

export function formRequest(path: string, fields: Record<string, string>): Request {
  return new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields) });
}

export function multipartRequest(path: string, fields: Record<string, string>, files: { field: string; name: string; type: string; data: Buffer }[]): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  return new Request(`http://localhost${path}`, { method: "POST", body: form });
}
