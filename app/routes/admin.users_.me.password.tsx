import type { Route } from "./+types/admin.users_.me.password";
import { ChangePasswordForm } from "~/components/admin/change-password-form";
import { PageHeader } from "~/components/admin/page-header";
import { requireStaff } from "~/web/actor.server";
import { changePasswordAction } from "~/web/password-form.server";

export const meta: Route.MetaFunction = () => [{ title: "Change Password · Admin" }];

/**
 * Any signed-in user's own password (DESIGN.md §3: everyone may change their own). It sits outside the
 * admin-only users list, so editors reach it from the sidebar.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return { name: (await requireStaff({ request, context })).user.name };
}

// Afterwards to the course list, which every role may see, with the "Password updated" notice.
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  return changePasswordAction(request, actor, actor.user.id, "/admin/courses");
}

export default function ChangeOwnPassword({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title={`Change Password for ${loaderData.name}`} description="You stay signed in here; your other sessions end." />
      <div className="max-w-md rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <ChangePasswordForm lastResult={actionData?.result} backTo="/admin/courses" own />
      </div>
    </>
  );
}
