import { useLocation } from "react-router";
import type { Route } from "./+types/admin.users.new";
import { DialogRoute } from "~/components/admin/dialog-route";
import { UserForm } from "~/components/admin/user-form";
import { requireStaff } from "~/web/actor.server";
import { formFailureData } from "~/web/admin-actions.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { USER_SAVE_FAILED } from "~/schemas/user";
import { createUser } from "~/services/users.server";

export const meta: Route.MetaFunction = () => [{ title: "Add New User · Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, { role: "admin" });
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const form = await request.formData();
  try {
    const user = await createUser(actor, formToObject(form));
    return redirectWithFlash(request, listHref("/admin/users", new URL(request.url).search), { kind: "notice", message: `User ${user.name} added` });
  } catch (error) {
    return formFailureData(error, form, USER_SAVE_FAILED, { hideFields: ["password"], what: "a user" });
  }
}

export default function NewUser({ actionData }: Route.ComponentProps) {
  const backTo = listHref("/admin/users", useLocation().search);
  return (
    <DialogRoute title="Add New User" backTo={backTo} size="sm">
      <UserForm mode="create" lastResult={actionData?.result} backTo={backTo} />
    </DialogRoute>
  );
}
