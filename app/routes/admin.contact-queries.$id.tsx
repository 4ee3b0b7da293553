import { parseWithSchema } from "~/lib/form-submission";
import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.contact-queries.$id";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { CONTACT_QUERY_STATUS_FAILED } from "~/lib/admin-messages";
import { listHref } from "~/lib/list-query";
import { getContactQuery, setContactQueryStatus } from "~/models/contact-query.server";
import { contactStatusSchema } from "~/schemas/contact-query";
import { DialogRoute } from "~/components/admin/dialog-route";
import { ContactQueryDetails } from "~/components/admin/contact-query-details";
import { statusLabel } from "~/components/admin/inbox-status";

export const meta: Route.MetaFunction = () => [{ title: "Contact Query | Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const query = await getContactQuery(params.id);
  if (!query) throw data("Contact query not found", { status: 404 });
  return { query, replyReady: new URL(request.url).searchParams.get("reply") === "ready" };
}

/**
 * intent=status sets any status (spec §4), closes the details and reloads the list.
 * intent=reply is the no-JavaScript Reply via Email: it marks the query replied and comes back to these
 * details with ?reply=ready, which then offer the mailto: link to open the mail program. (A redirect
 * straight to mailto: would leave the page showing the old status, and some browsers refuse it.)
 */
export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const { search } = new URL(request.url);
  const back = listHref("/admin/contact-queries", search);
  const form = await request.formData();
  const intent = form.get("intent");
  const parsed = parseWithSchema(form, contactStatusSchema);
  const status = intent === "reply" ? "replied" : intent === "status" && parsed.status === "success" ? parsed.value.status : null;
  if (!status) return redirectWithFlash(request, back, { kind: "error", message: CONTACT_QUERY_STATUS_FAILED });
  let updated;
  try {
    updated = await setContactQueryStatus(params.id, status);
  } catch (error) {
    console.error("[admin] updating a contact query's status failed:", error);
  }
  if (!updated) return redirectWithFlash(request, back, { kind: "error", message: CONTACT_QUERY_STATUS_FAILED });
  const message = `Contact query marked as ${statusLabel(status)}.`;
  if (intent === "reply") {
    const details = new URLSearchParams(listHref("", search).replace(/^\?/, ""));
    details.set("reply", "ready");
    return redirectWithFlash(request, `/admin/contact-queries/${encodeURIComponent(updated.id)}?${details}`, { kind: "notice", message });
  }
  return redirectWithFlash(request, back, { kind: "notice", message });
}

export default function ContactQueryRoute({ loaderData }: Route.ComponentProps) {
  const backTo = listHref("/admin/contact-queries", useLocation().search);
  return (
    <DialogRoute title="Contact Query" description={loaderData.query.name} backTo={backTo} size="lg">
      <ContactQueryDetails query={loaderData.query} replyReady={loaderData.replyReady} />
    </DialogRoute>
  );
}
