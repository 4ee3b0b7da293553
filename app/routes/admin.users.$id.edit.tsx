import { randomUUID } from "node:crypto";
import { useLocation } from "react-router";
import type { Route } from "./+types/admin.users.$id.edit";
import { DialogRoute } from "~/components/admin/dialog-route";
import { UserForm } from "~/components/admin/user-form";
import { requireStaff } from "~/web/actor.server";
import { formFailureData, type FormFailureData } from "~/web/admin-actions.server";
import { EditConflictNotice } from "~/components/admin/edit-conflict";
import { USER_ROLE_LABELS } from "~/schemas/values";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { keepSessionAfterPasswordChange } from "~/web/session.server";
import { getUser } from "~/models/user.server";
import { USER_SAVE_FAILED } from "~/schemas/user";
import { updateUser } from "~/services/users.server";

export const meta: Route.MetaFunction = () => [{ title: "Edit User · Admin" }];

/** After every post, refused ones too: a form refused for a change meanwhile must be drawn again from what is stored now. */
export function shouldRevalidate() {
  return true;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const me = (await requireStaff({ request, context }, { role: "admin" })).user;
  const user = await getUser(params.id);
  if (!user) throw new Response("Not Found", { status: 404 });
  // A fresh key each time the form is drawn: a post of this drawing is applied once.
  return { user: { id: user.id, name: user.name, email: user.email, role: user.role, version: user.version }, isMe: user.id === me.id, formKey: randomUUID() };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const form = await request.formData();
  let saved;
  try {
    saved = await updateUser(actor, params.id, formToObject(form));
  } catch (error) {
    return formFailureData(error, form, USER_SAVE_FAILED, {
      hideFields: ["password", "currentPassword"],
      what: "a user",
      fields: { labels: { name: "Name", email: "Email", role: "Role" }, valueText: { role: USER_ROLE_LABELS } },
    });
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
  const failure = actionData as FormFailureData | undefined;
  return (
    <DialogRoute title="Edit User" description={loaderData.user.email} backTo={backTo} size="sm">
      <EditConflictNotice conflict={failure?.conflict} className="mb-4" />
      {/* Keyed by the version: after a refusal the form is drawn again from what the account holds now. */}
      <UserForm
        key={loaderData.user.version}
        mode="edit"
        guard={{ version: loaderData.user.version, formKey: loaderData.formKey }}
        lastResult={failure?.result}
        defaultValue={loaderData.user}
        backTo={backTo}
        roleLocked={loaderData.isMe}
        askCurrentPassword={loaderData.isMe}
      />
    </DialogRoute>
  );
}
