import { useLocation } from "react-router";
import type { Route } from "./+types/admin.users.$id.edit";
import { DialogRoute } from "~/components/admin/dialog-route";
import { UserForm } from "~/components/admin/user-form";
import { requireStaff } from "~/web/actor.server";
import { formFailureData } from "~/web/admin-actions.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { keepSessionAfterPasswordChange } from "~/web/session.server";
import { getUser } from "~/models/user.server";
import { USER_SAVE_FAILED } from "~/schemas/user";
import { updateUser } from "~/services/users.server";

export const meta: Route.MetaFunction = () => [{ title: "Edit User · Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const me = (await requireStaff({ request, context }, { role: "admin" })).user;
  const user = await getUser(params.id);
  if (!user) throw new Response("Not Found", { status: 404 });
  return { user: { id: user.id, name: user.name, email: user.email, role: user.role }, isMe: user.id === me.id };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const form = await request.formData();
  let saved;
  try {
    saved = await updateUser(actor, params.id, formToObject(form));
  } catch (error) {
    return formFailureData(error, form, USER_SAVE_FAILED, { hideFields: ["password", "currentPassword"], what: "a user" });
  }
  const to = listHref("/admin/users", new URL(request.url).search);
  const version = saved.password?.own ? saved.password.sessionVersion : null;
  return redirectWithFlash(
    request,
    to,
    { kind: "notice", message: `User ${saved.user.name} saved` },
    {
      // A new password ends the user's sessions; keep the admin who set their own signed in.
      update: version !== null ? (session) => keepSessionAfterPasswordChange(session, version) : undefined,
    },
  );
}

export default function EditUser({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/users", useLocation().search);
  return (
    <DialogRoute title="Edit User" description={loaderData.user.email} backTo={backTo} size="sm">
      <UserForm
        mode="edit"
        lastResult={actionData?.result}
        defaultValue={loaderData.user}
        backTo={backTo}
        roleLocked={loaderData.isMe}
        askCurrentPassword={loaderData.isMe}
      />
    </DialogRoute>
  );
}
