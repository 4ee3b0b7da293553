import { data } from "react-router";
import type { Route } from "./+types/admin.contact-queries.$id_.delete";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { CONTACT_QUERY_DELETE_FAILED } from "~/lib/admin-messages";
import { listHref } from "~/lib/list-query";
import { deleteContactQuery, getContactQuery } from "~/models/contact-query.server";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { useBackTo } from "~/components/admin/dialog-route";

export const meta: Route.MetaFunction = () => [{ title: "Delete Contact Query | Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const query = await getContactQuery(params.id);
  if (!query) throw data("Contact query not found", { status: 404 });
  return { name: query.name, subject: query.subject };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const back = listHref("/admin/contact-queries", new URL(request.url).search);
  try {
    if (!(await deleteContactQuery(params.id))) return redirectWithFlash(request, back, { kind: "error", message: CONTACT_QUERY_DELETE_FAILED });
  } catch (error) {
    console.error("[admin] deleting a contact query failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: CONTACT_QUERY_DELETE_FAILED });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: "Contact query deleted." });
}

export default function DeleteContactQuery({ loaderData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/contact-queries");
  return (
    <ConfirmDeletePage title="Delete Contact Query" backTo={backTo}>
      <p>
        Are you sure you want to delete the query from <strong>{loaderData.name}</strong>
        {loaderData.subject ? ` (${loaderData.subject})` : ""}? This cannot be undone.
      </p>
    </ConfirmDeletePage>
  );
}
