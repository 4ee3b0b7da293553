import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.users.$id.delete";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { ErrorBanner } from "~/components/admin/error-banner";
import { requireStaff } from "~/web/actor.server";
import { actAndReturn } from "~/web/admin-actions.server";
import { listHref } from "~/web/list-query";
import { getUser } from "~/models/user.server";
import { OWN_ACCOUNT_DELETE, USER_DELETE_FAILED } from "~/schemas/user";
import { deleteUser } from "~/services/users.server";

export const meta: Route.MetaFunction = () => [{ title: "Delete User · Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const me = (await requireStaff({ request, context }, { role: "admin" })).user;
  const user = await getUser(params.id);
  if (!user) throw new Response("Not Found", { status: 404 });
  return { user: { id: user.id, name: user.name, email: user.email }, isMe: user.id === me.id };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const to = listHref("/admin/users", new URL(request.url).search);
  try {
    return await actAndReturn(request, to, USER_DELETE_FAILED, async () => {
      await deleteUser(actor, params.id);
      return "User deleted";
    });
  } catch (error) {
    // Your own account: this page again, with the spec's message.
    if (error instanceof Response && error.status === 403) return data({ error: OWN_ACCOUNT_DELETE }, { status: 403 });
    throw error;
  }
}

export default function DeleteUser({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/users", useLocation().search);
  const { user, isMe } = loaderData;
  const error = actionData?.error ?? (isMe ? OWN_ACCOUNT_DELETE : null);
  if (isMe) {
    return (
      <ConfirmDeletePage title="Delete User" backTo={backTo} error={<ErrorBanner message={error} className="mb-4" />} disabled>
        <p>
          {user.name} ({user.email}) is your own account.
        </p>
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
