import { data } from "react-router";
import type { Route } from "./+types/admin.enquiries.$id_.delete";
import { requireStaff } from "~/web/actor.server";
import { actAndReturn } from "~/web/admin-actions.server";
import { ENQUIRY_DELETE_FAILED } from "~/web/admin-messages";
import { listHref } from "~/web/list-query";
import { getEnquiry } from "~/models/enquiry.server";
import { deleteEnquiry } from "~/services/enquiries.server";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { useBackTo } from "~/components/admin/dialog-route";

export const meta: Route.MetaFunction = () => [{ title: "Delete Enquiry | Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const enquiry = await getEnquiry(params.id);
  if (!enquiry) throw data("Enquiry not found", { status: 404 });
  return { fullName: enquiry.fullName, course: enquiry.preferredCourse, files: enquiry.filePaths.length };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const back = listHref("/admin/enquiries", new URL(request.url).search);
  return actAndReturn(request, back, ENQUIRY_DELETE_FAILED, async () => {
    await deleteEnquiry(actor, params.id);
    return "Enquiry deleted.";
  });
}

export default function DeleteEnquiry({ loaderData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/enquiries");
  const { fullName, course, files } = loaderData;
  return (
    <ConfirmDeletePage title="Delete Enquiry" backTo={backTo}>
      <p>
        Are you sure you want to delete the enquiry from <strong>{fullName}</strong> about {course}
        {files ? ` and its ${files} attached file${files === 1 ? "" : "s"}` : ""}? This cannot be undone.
      </p>
    </ConfirmDeletePage>
  );
}
