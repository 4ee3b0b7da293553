import { parseWithSchema } from "~/lib/form-submission";
import { data } from "react-router";
import type { Route } from "./+types/admin.enquiries.$id";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { ENQUIRY_STATUS_FAILED } from "~/lib/admin-messages";
import { listHref } from "~/lib/list-query";
import { attachmentDisplayName } from "~/lib/uploads.server";
import { getEnquiry, setEnquiryStatus } from "~/models/enquiry.server";
import { enquiryStatusSchema } from "~/schemas/enquiry";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { EnquiryDetails } from "~/components/admin/enquiry-details";
import { statusLabel } from "~/components/admin/inbox-status";

export const meta: Route.MetaFunction = () => [{ title: "Enquiry Details | Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const enquiry = await getEnquiry(params.id);
  if (!enquiry) throw data("Enquiry not found", { status: 404 });
  const { filePaths, ...rest } = enquiry;
  const files = filePaths.map((stored) => ({
    href: `/admin/enquiries/${encodeURIComponent(enquiry.id)}/files/${encodeURIComponent(stored)}`,
    label: attachmentDisplayName(stored),
  }));
  return { enquiry: rest, files };
}

/** Sets any status from any other (spec §4), then closes the details and reloads the list. */
export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const back = listHref("/admin/enquiries", new URL(request.url).search);
  const form = await request.formData();
  const parsed = parseWithSchema(form, enquiryStatusSchema);
  if (form.get("intent") !== "status" || parsed.status !== "success") {
    return redirectWithFlash(request, back, { kind: "error", message: ENQUIRY_STATUS_FAILED });
  }
  try {
    if (!(await setEnquiryStatus(params.id, parsed.value.status))) {
      return redirectWithFlash(request, back, { kind: "error", message: ENQUIRY_STATUS_FAILED });
    }
  } catch (error) {
    console.error("[admin] updating an enquiry's status failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: ENQUIRY_STATUS_FAILED });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: `Enquiry marked as ${statusLabel(parsed.value.status)}.` });
}

export default function EnquiryDetailsRoute({ loaderData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/enquiries");
  return (
    <DialogRoute title="Enquiry Details" description={loaderData.enquiry.fullName} backTo={backTo} size="lg">
      <EnquiryDetails enquiry={loaderData.enquiry} files={loaderData.files} />
    </DialogRoute>
  );
}
