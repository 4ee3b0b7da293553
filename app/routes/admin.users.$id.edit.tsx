import { parseWithSchema } from "~/lib/form-submission";
import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.users.$id.edit";
import { DialogRoute } from "~/components/admin/dialog-route";
import { UserForm } from "~/components/admin/user-form";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { reissue } from "~/lib/admin/users.server";
import { listHref } from "~/lib/list-query";
import { requireAdmin } from "~/lib/session.server";
import { EmailTakenError, getUser, updateUser } from "~/models/user.server";
import { EMAIL_TAKEN, USER_SAVE_FAILED, userUpdateSchema } from "~/schemas/user";

export const meta: Route.MetaFunction = () => [{ title: "Edit User · Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireAdmin(request);
  const user = await getUser(params.id);
  if (!user) throw new Response("Not Found", { status: 404 });
  return { user: { id: user.id, name: user.name, email: user.email, role: user.role }, isMe: user.id === me.id };
}

export async function action({ request, params }: Route.ActionArgs) {
  const me = await requireAdmin(request);
  const existing = await getUser(params.id);
  if (!existing) throw new Response("Not Found", { status: 404 });
  const submission = parseWithSchema(await request.formData(), userUpdateSchema);
  const hide = { hideFields: ["password"] };
  if (submission.status !== "success") return data({ result: submission.reply(hide) }, { status: 400 });
  const own = existing.id === me.id;
  // An empty password is left out by the schema, so the current one stays (spec §5).
  const { name, email, role, password } = submission.value;
  try {
    await updateUser(existing.id, { name, email, password, role: own ? existing.role : role });
  } catch (error) {
    if (error instanceof EmailTakenError) {
      return data({ result: submission.reply({ ...hide, formErrors: [EMAIL_TAKEN], fieldErrors: { email: [EMAIL_TAKEN] } }) }, { status: 409 });
    }
    console.error("[admin] updating a user failed:", error);
    return data({ result: submission.reply({ ...hide, formErrors: [USER_SAVE_FAILED] }) }, { status: 500 });
  }
  const to = listHref("/admin/users", new URL(request.url).search);
  return redirectWithFlash(request, to, { kind: "notice", message: `User ${name} saved` }, {
    // A new password ends the user's sessions; keep the admin who set their own signed in.
    update: own && password ? (session) => reissue(session, me.id) : undefined,
  });
}

export default function EditUser({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/users", useLocation().search);
  return (
    <DialogRoute title="Edit User" description={loaderData.user.email} backTo={backTo} size="sm">
      <UserForm mode="edit" lastResult={actionData?.result} defaultValue={loaderData.user} backTo={backTo} roleLocked={loaderData.isMe} />
    </DialogRoute>
  );
}
