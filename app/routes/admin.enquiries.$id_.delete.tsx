import { data } from "react-router";
import type { Route } from "./+types/admin.enquiries.$id_.delete";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { ENQUIRY_DELETE_FAILED } from "~/lib/admin-messages";
import { listHref } from "~/lib/list-query";
import { deleteAttachments } from "~/lib/uploads.server";
import { deleteEnquiry, getEnquiry } from "~/models/enquiry.server";
import { ConfirmDeletePage } from "~/components/admin/confirm-delete";
import { useBackTo } from "~/components/admin/dialog-route";

export const meta: Route.MetaFunction = () => [{ title: "Delete Enquiry | Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const enquiry = await getEnquiry(params.id);
  if (!enquiry) throw data("Enquiry not found", { status: 404 });
  return { fullName: enquiry.fullName, course: enquiry.preferredCourse, files: enquiry.filePaths.length };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const back = listHref("/admin/enquiries", new URL(request.url).search);
  try {
    const deleted = await deleteEnquiry(params.id);
    if (!deleted) return redirectWithFlash(request, back, { kind: "error", message: ENQUIRY_DELETE_FAILED });
    // The row is gone first, so a failure here can only leave an unreachable file, never a link to a missing one.
    await deleteAttachments(deleted.filePaths).catch((error) => console.error("[admin] removing an enquiry's files failed:", error));
  } catch (error) {
    console.error("[admin] deleting an enquiry failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: ENQUIRY_DELETE_FAILED });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: "Enquiry deleted." });
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
