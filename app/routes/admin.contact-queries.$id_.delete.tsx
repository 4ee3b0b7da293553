import { data } from "react-router";
import type { Route } from "./+types/admin.contact-queries.$id_.delete";
import { requireStaff } from "~/web/actor.server";
import { actAndReturn } from "~/web/admin-actions.server";
import { CONTACT_QUERY_DELETE_FAILED } from "~/web/admin-messages";
import { listHref } from "~/web/list-query";
import { getContactQuery } from "~/models/contact-query.server";
import { deleteContactQuery } from "~/services/contact-queries.server";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { useBackTo } from "~/components/admin/dialog-route";

export const meta: Route.MetaFunction = () => [{ title: "Delete Contact Query | Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const query = await getContactQuery(params.id);
  if (!query) throw data("Contact query not found", { status: 404 });
  return { name: query.name, subject: query.subject };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const back = listHref("/admin/contact-queries", new URL(request.url).search);
  return actAndReturn(request, back, CONTACT_QUERY_DELETE_FAILED, async () => {
    await deleteContactQuery(actor, params.id);
    return "Contact query deleted.";
  });
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
