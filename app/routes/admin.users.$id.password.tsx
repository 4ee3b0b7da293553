import { useLocation } from "react-router";
import type { Route } from "./+types/admin.users.$id.password";
import { ChangePasswordForm } from "~/components/admin/change-password-form";
import { DialogRoute } from "~/components/admin/dialog-route";
import { changePassword, requirePasswordTarget } from "~/lib/admin/users.server";
import { listHref } from "~/lib/list-query";
import { requireAdmin } from "~/lib/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Change Password · Admin" }];

// Part of the admin-only users screen (DESIGN.md §4.2), even for an editor's own id: it would send them
// back to a list they may not see. Editors change their own password at /admin/users/me/password.
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { target } = await requirePasswordTarget(request, params.id);
  return { name: target.name };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  await requireAdmin(request);
  return changePassword(request, context.clientIp, params.id, listHref("/admin/users", new URL(request.url).search));
}

export default function ChangeUserPassword({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/users", useLocation().search);
  return (
    <DialogRoute title={`Change Password for ${loaderData.name}`} backTo={backTo} size="sm">
      <ChangePasswordForm lastResult={actionData?.result} backTo={backTo} />
    </DialogRoute>
  );
}
