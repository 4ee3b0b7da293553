import { useLocation } from "react-router";
import type { Route } from "./+types/admin.users.$id.password";
import { ChangePasswordForm } from "~/components/admin/change-password-form";
import { DialogRoute } from "~/components/admin/dialog-route";
import { requireStaff } from "~/web/actor.server";
import { changePasswordAction } from "~/web/password-form.server";
import { listHref } from "~/web/list-query";
import { getUser } from "~/models/user.server";

export const meta: Route.MetaFunction = () => [{ title: "Change Password · Admin" }];

// Part of the admin-only users screen (DESIGN.md §4.2), even for an editor's own id: it would send them
// back to a list they may not see. Editors change their own password at /admin/users/me/password.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const me = (await requireStaff({ request, context }, { role: "admin" })).user;
  const target = params.id === me.id ? me : await getUser(params.id);
  if (!target) throw new Response("Not Found", { status: 404 });
  return { name: target.name, own: target.id === me.id };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  return changePasswordAction(request, actor, params.id, listHref("/admin/users", new URL(request.url).search));
}

export default function ChangeUserPassword({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/users", useLocation().search);
  return (
    <DialogRoute title={`Change Password for ${loaderData.name}`} backTo={backTo} size="sm">
      <ChangePasswordForm lastResult={actionData?.result} backTo={backTo} own={loaderData.own} />
    </DialogRoute>
  );
}
