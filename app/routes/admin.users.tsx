import { USER_ROLE_LABELS } from "~/schemas/values";
import { Link, Outlet, useLocation } from "react-router";
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
import { listUsers } from "~/services/users.server";
import { OWN_ACCOUNT_DELETE, USER_LOAD_FAILED } from "~/schemas/user";

export const meta: Route.MetaFunction = () => [{ title: "Manage Users · Admin" }];

// Reading A of spec §6, enforced here: only admins reach the users screen (DESIGN.md §4.2).
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const url = new URL(request.url);
  const { page } = readListQuery(url, []);
  return { ...(await loadPage(url, () => listUsers(actor, { page }), USER_LOAD_FAILED, "users")), meId: actor.user.id };
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
          { header: "Email", cell: (u) => <span className="break-all">{u.email}</span> },
          { header: "Role", cell: (u) => <StatusBadge tone={u.role === "admin" ? "purple" : "blue"}>{USER_ROLE_LABELS[u.role]}</StatusBadge> },
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
