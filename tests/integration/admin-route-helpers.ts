import { getUserWithSecret, type Role } from "~/models/user.server";
import { createUserWithoutActor } from "~/services/users.server";
import { createUserSession, sessionStorage } from "~/web/session.server";

/** A real signed session cookie for a new staff member of the given role, as the login page would set. */
export async function staffCookie(role: Role): Promise<string> {
  const email = `${role}-${Math.random().toString(36).slice(2)}@staff.test`;
  await createUserWithoutActor({ name: `Test ${role}`, email, password: "long-enough-password", role });
  const user = (await getUserWithSecret({ email }))!;
  const res = await createUserSession(new Request("http://localhost/admin/login"), user, "/admin");
  return res.headers.get("Set-Cookie")!.split(";")[0];
}

export function makeRequest(path: string, opts: { cookie?: string; form?: Record<string, string | string[]> } = {}): Request {
  const headers = new Headers();
  if (opts.cookie) headers.set("Cookie", opts.cookie);
  if (!opts.form) return new Request(`http://localhost${path}`, { headers });
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.form)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  return new Request(`http://localhost${path}`, { method: "POST", headers, body });
}

export type Outcome = { status: number; location: string | null; body: unknown; headers: Headers };

/** Calls a route loader or action the way React Router does and reports what the browser would get. */
export async function run(fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}): Promise<Outcome> {
  const args = { request, params, context: { cspNonce: "", clientIp: "203.0.113.9" } } as never;
  let result: unknown;
  try {
    result = await fn(args);
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get("Location"), body: null, headers: result.headers };
  }
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const d = result as unknown as { data: unknown; init: ResponseInit | null };
    return { status: d.init?.status ?? 200, location: null, body: d.data, headers: new Headers(d.init?.headers) };
  }
  if (result instanceof Error) throw result;
  return { status: 200, location: null, body: result, headers: new Headers() };
}

/** The banner message a redirect carries to the list (set by redirectWithFlash), read from its signed cookie. */
export async function flashOf(outcome: Outcome): Promise<{ kind: string; message: string } | null> {
  const cookie = outcome.headers.get("Set-Cookie");
  if (!cookie) return null;
  const session = await sessionStorage().getSession(cookie.split(";")[0]);
  const raw = session.get("flash");
  return typeof raw === "string" ? (JSON.parse(raw) as { kind: string; message: string }) : null;
}
