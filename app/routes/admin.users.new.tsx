import { parseWithSchema } from "~/lib/form-submission";
import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.users.new";
import { DialogRoute } from "~/components/admin/dialog-route";
import { UserForm } from "~/components/admin/user-form";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { listHref } from "~/lib/list-query";
import { requireAdmin } from "~/lib/session.server";
import { createUser, EmailTakenError } from "~/models/user.server";
import { EMAIL_TAKEN, USER_SAVE_FAILED, userCreateSchema } from "~/schemas/user";

export const meta: Route.MetaFunction = () => [{ title: "Add New User · Admin" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const submission = parseWithSchema(await request.formData(), userCreateSchema);
  const hide = { hideFields: ["password"] };
  if (submission.status !== "success") return data({ result: submission.reply(hide) }, { status: 400 });
  try {
    const user = await createUser(submission.value);
    return redirectWithFlash(request, listHref("/admin/users", new URL(request.url).search), { kind: "notice", message: `User ${user.name} added` });
  } catch (error) {
    if (error instanceof EmailTakenError) {
      return data({ result: submission.reply({ ...hide, formErrors: [EMAIL_TAKEN], fieldErrors: { email: [EMAIL_TAKEN] } }) }, { status: 409 });
    }
    console.error("[admin] creating a user failed:", error);
    return data({ result: submission.reply({ ...hide, formErrors: [USER_SAVE_FAILED] }) }, { status: 500 });
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
