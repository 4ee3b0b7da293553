import { data, isRouteErrorResponse, Outlet, useRouteError, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/admin";
import { AdminShell } from "~/components/admin/admin-shell";
import { ErrorBanner } from "~/components/admin/error-banner";
import { parseFlash } from "~/web/flash.server";
import { commitSession, readUserSession, redirectToSignIn, touchSession } from "~/web/session.server";
import { SITE } from "~/config/site";
import { sidebarCounts } from "~/services/staff-counts.server";

export const meta: Route.MetaFunction = () => [{ title: `Admin · ${SITE.name}` }, { name: "robots", content: "noindex" }];

/**
 * Every /admin screen except the sign-in page sits in this layout. Its loader is the session gate
 * (each child loader and action checks again: a layout loader does not guard a child's action).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const check = await readUserSession(request);
  if (!check) return redirectToSignIn(request);
  const { user, session } = check;
  const flash = parseFlash(session.get("flash"));
  let cookie: string | undefined;
  if (check.needsTouch) cookie = await touchSession(check);
  else if (flash) cookie = await commitSession(session);
  // What waits for staff, beside the links; a side note: if it cannot be read, the screen still shows.
  const counts = await sidebarCounts({ user, ip: "" }, new Date(), context).catch((error: unknown) => {
    console.error("[admin] reading the sidebar's counts failed:", error);
    return null;
  });
  return data(
    { user: { id: user.id, name: user.name, email: user.email, role: user.role }, flash, counts },
    cookie ? { headers: { "Set-Cookie": cookie } } : undefined,
  );
}

/**
 * Always re-run: the server runs this loader on every navigation anyway (single fetch), and it is what
 * consumes a flash message, so its answer must be shown, not dropped; it also notices an ended session.
 */
export function shouldRevalidate() {
  return true;
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell user={loaderData.user} flash={loaderData.flash} counts={loaderData.counts}>
      <Outlet />
    </AdminShell>
  );
}

/** A refused or failed child screen (403 for an editor on /admin/users, an unknown id) keeps the admin frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  const layout = useRouteLoaderData<typeof loader>("routes/admin");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 403
      ? "You do not have permission to view this page."
      : status === 404
        ? "This item was not found. It may have been deleted."
        : "Something went wrong on our side. Please try again.";
  const body = (
    <>
      <h1 className="mb-4 text-2xl font-bold text-brand-900">
        {status === 403 ? "Access denied" : status === 404 ? "Not found" : "Unexpected Application Error!"}
      </h1>
      <ErrorBanner message={message} />
    </>
  );
  return layout ? (
    <AdminShell user={layout.user} flash={null} counts={layout.counts}>
      {body}
    </AdminShell>
  ) : (
    <main className="mx-auto max-w-xl p-8">{body}</main>
  );
}
