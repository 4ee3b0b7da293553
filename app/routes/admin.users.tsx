import { USER_ROLE_LABELS } from "~/schemas/values";
import { EmailText } from "~/components/ui/email-text";
import { Form, Link, Outlet, useLocation } from "react-router";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { isServiceError } from "~/services/service-error";
import type { Route } from "./+types/admin.users";
import { LinkButton } from "~/components/admin/buttons";
import { DeleteButton } from "~/components/admin/confirm-delete";
import { DataList } from "~/components/admin/data-list";
import { ErrorBanner } from "~/components/admin/error-banner";
import { PageHeader } from "~/components/admin/page-header";
import { Pagination } from "~/components/admin/pagination";
import { StatusBadge } from "~/components/admin/status-badge";
import { loadPage } from "~/web/list-page.server";
import { listHref, readListQuery } from "~/web/list-query";
import { requireStaff } from "~/web/actor.server";
import { listUsers, setUserTakesEnquiries } from "~/services/users.server";
import { OWN_ACCOUNT_DELETE, USER_LOAD_FAILED, USER_SAVE_FAILED } from "~/schemas/user";

export const meta: Route.MetaFunction = () => [{ title: "Manage Users · Admin" }];

// Reading A of spec §6, enforced here: only admins reach the users screen (DESIGN.md §4.2).
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const url = new URL(request.url);
  const { page } = readListQuery(url, []);
  return { ...(await loadPage(url, () => listUsers(actor, { page }), USER_LOAD_FAILED, "users")), meId: actor.user.id };
}

/** The New enquiries switch of one user (a plain POST: works without JavaScript), then back to the same list. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const back = listHref("/admin/users", new URL(request.url).search);
  const form = await request.formData();
  try {
    const user = await setUserTakesEnquiries(actor, String(form.get("id") ?? ""), formToObject(form));
    const message = user.takesEnquiries ? `${user.name} now gets new enquiries in turn.` : `${user.name} no longer gets new enquiries.`;
    return redirectWithFlash(request, back, { kind: "notice", message });
  } catch (error) {
    if (!isServiceError(error)) console.error("[admin] switching who takes enquiries failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: USER_SAVE_FAILED });
  }
}

export default function ManageUsers({ loaderData }: Route.ComponentProps) {
  const { list, error, meId } = loaderData;
  const { search } = useLocation();
  const q = listHref("", search).replace(/^\?/, "");
  const withSearch = (path: string) => (q ? `${path}?${q}` : path);
  return (
    <>
      <PageHeader
        title="Manage Users"
        description="Staff who can sign in to the back office."
        actions={
          <LinkButton to={withSearch("/admin/users/new")} preventScrollReset>
            Add User
          </LinkButton>
        }
      />
      <ErrorBanner message={error} className="mb-4" />
      {/* Add, edit, change password and delete open here: a dialog with JavaScript, the top of the page without. */}
      <Outlet />
      <DataList
        items={list.data}
        rowKey={(u) => u.id}
        caption="Users"
        empty="No users found"
        columns={[
          {
            header: "Name",
            hideLabelOnCards: true,
            cell: (u) => (
              <span className="font-semibold text-slate-900">
                {u.name}
                {u.id === meId ? <span className="ml-1 text-xs font-normal text-slate-600">(you)</span> : null}
              </span>
            ),
          },
          { header: "Email", cell: (u) => <EmailText email={u.email} /> },
          { header: "Role", cell: (u) => <StatusBadge tone={u.role === "admin" ? "purple" : "blue"}>{USER_ROLE_LABELS[u.role]}</StatusBadge> },
          {
            header: "New enquiries",
            cell: (u) => (
              <Form method="post" preventScrollReset className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="id" value={u.id} />
                <input type="hidden" name="takesEnquiries" value={u.takesEnquiries ? "false" : "true"} />
                <span className="text-sm">{u.takesEnquiries ? "Given in turn" : "Not given"}</span>
                <button type="submit" className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50">
                  {u.takesEnquiries ? "Turn off" : "Turn on"}
                  <span className="sr-only"> new enquiries for {u.name}</span>
                </button>
              </Form>
            ),
          },
          {
            header: "Actions",
            cell: (u) => (
              <div className="flex flex-wrap items-start gap-1">
                <Link
                  to={withSearch(`/admin/users/${u.id}/password`)}
                  preventScrollReset
                  className="rounded-md px-2.5 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50"
                >
                  Change password<span className="sr-only"> of {u.name}</span>
                </Link>
                <Link
                  to={withSearch(`/admin/users/${u.id}/edit`)}
                  preventScrollReset
                  className="rounded-md px-2.5 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50"
                >
                  Edit<span className="sr-only"> {u.name}</span>
                </Link>
                <DeleteButton
                  to={withSearch(`/admin/users/${u.id}/delete`)}
                  itemName={u.name}
                  confirmMessage={`Delete the user ${u.name}? They will no longer be able to sign in.`}
                  disabled={u.id === meId}
                  disabledReason={u.id === meId ? OWN_ACCOUNT_DELETE : undefined}
                />
              </div>
            ),
          },
        ]}
      />
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["user", "users"]} />
    </>
  );
}
