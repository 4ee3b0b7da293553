import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.users.$id.delete";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { ErrorBanner } from "~/components/admin/error-banner";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref } from "~/lib/list-query";
import { requireAdmin } from "~/lib/session.server";
import { deleteUser, getUser } from "~/models/user.server";
import { OWN_ACCOUNT_DELETE, USER_DELETE_FAILED } from "~/schemas/user";

export const meta: Route.MetaFunction = () => [{ title: "Delete User · Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireAdmin(request);
  const user = await getUser(params.id);
  if (!user) throw new Response("Not Found", { status: 404 });
  return { user: { id: user.id, name: user.name, email: user.email }, isMe: user.id === me.id };
}

export async function action({ request, params }: Route.ActionArgs) {
  const me = await requireAdmin(request);
  const to = listHref("/admin/users", new URL(request.url).search);
  // The disabled button is only a hint; this is the rule (spec §5).
  if (params.id === me.id) return data({ error: OWN_ACCOUNT_DELETE }, { status: 403 });
  try {
    const deleted = await deleteUser(params.id);
    if (!deleted) return redirectWithFlash(request, to, { kind: "error", message: USER_DELETE_FAILED });
  } catch (error) {
    console.error("[admin] deleting a user failed:", error);
    return redirectWithFlash(request, to, { kind: "error", message: USER_DELETE_FAILED });
  }
  return redirectWithFlash(request, to, { kind: "notice", message: "User deleted" });
}

export default function DeleteUser({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/users", useLocation().search);
  const { user, isMe } = loaderData;
  const error = actionData?.error ?? (isMe ? OWN_ACCOUNT_DELETE : null);
  if (isMe) {
    return (
      <ConfirmDeletePage title="Delete User" backTo={backTo} error={<ErrorBanner message={error} className="mb-4" />} disabled>
        <p>{user.name} ({user.email}) is your own account.</p>
      </ConfirmDeletePage>
    );
  }
  return (
    <ConfirmDeletePage title="Delete User" backTo={backTo} error={<ErrorBanner message={error} className="mb-4" />}>
      <p>
        Delete the user <strong>{user.name}</strong> ({user.email})? They will no longer be able to sign in. This cannot be undone.
      </p>
    </ConfirmDeletePage>
  );
}
