import { redirect } from "react-router";
import { commitSession, getSession } from "~/web/session.server";

type AdminSession = Awaited<ReturnType<typeof getSession>>;

/**
 * One-time messages carried across a redirect in the session cookie: a failed delete (spec §8) shows
 * in the admin layout's red banner on the list it returns to; a successful write shows a notice.
 * The admin layout's loader reads (and so clears) it.
 */
export type Flash = {
  kind: "error" | "notice";
  message: string;
  /** The section of the page the message belongs next to (its id, e.g. "activity"), where the write came from. */
  at?: string;
};

/**
 * A redirect carrying a one-time message. `update` may change the same session first (one cookie per
 * response: e.g. the new session version after a user changed their own password).
 */
export async function redirectWithFlash(
  request: Request,
  to: string,
  flash: Flash,
  { headers, update }: { headers?: HeadersInit; update?: (session: AdminSession) => void | Promise<void> } = {},
): Promise<Response> {
  const session = await getSession(request);
  await update?.(session);
  session.flash("flash", JSON.stringify(flash));
  const out = new Headers(headers);
  out.append("Set-Cookie", await commitSession(session));
  return redirect(to, { headers: out });
}

export function parseFlash(value: unknown): Flash | null {
  if (typeof value !== "string") return null;
  try {
    const parsed = JSON.parse(value) as Partial<Flash>;
    if ((parsed.kind === "error" || parsed.kind === "notice") && typeof parsed.message === "string") {
      const at = typeof parsed.at === "string" && /^[a-z-]{1,30}$/.test(parsed.at) ? parsed.at : undefined;
      return { kind: parsed.kind, message: parsed.message, ...(at ? { at } : {}) };
    }
  } catch {
    // A cookie from an older version: no message.
  }
  return null;
}

/** A Set-Cookie value carrying a one-time message, for JSON answers (the course upload endpoint). */
export async function flashCookie(request: Request, flash: Flash): Promise<string> {
  const session = await getSession(request);
  session.flash("flash", JSON.stringify(flash));
  return commitSession(session);
}
