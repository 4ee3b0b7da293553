import { CONTACT_STATUS_LABELS } from "~/schemas/values";
import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.contact-queries.$id";
import { requireStaff } from "~/web/actor.server";
import { redirectWithFlash } from "~/web/flash.server";
import { CONTACT_QUERY_STATUS_FAILED } from "~/web/admin-messages";
import { listHref } from "~/web/list-query";
import { getContactQuery } from "~/models/contact-query.server";
import { addContactQueryNote, contactQueryTimeline, setContactQueryStatus } from "~/services/contact-queries.server";
import { timelineLines } from "~/web/timeline-lines";
import { invalid, isServiceError } from "~/services/service-error";
import { DialogRoute } from "~/components/admin/dialog-route";
import { ContactQueryDetails } from "~/components/admin/contact-query-details";
import { FLASH_IN_DIALOG } from "~/components/admin/dialog-flash";

// The dialog shows the last write's message itself (DialogFlash).
export const handle = FLASH_IN_DIALOG;

export const meta: Route.MetaFunction = () => [{ title: "Contact Query | Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const query = await getContactQuery(params.id);
  if (!query) throw data("Contact query not found", { status: 404 });
  return { query, replyReady: new URL(request.url).searchParams.get("reply") === "ready", timeline: timelineLines(await contactQueryTimeline(query.id)) };
}

/**
 * intent=status sets any status (spec §4), closes the details and reloads the list.
 * intent=reply is the no-JavaScript Reply via Email: it marks the query replied and comes back to these
 * details with ?reply=ready, which then offer the mailto: link to open the mail program. (A redirect
 * straight to mailto: would leave the page showing the old status, and some browsers refuse it.)
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const { search } = new URL(request.url);
  const back = listHref("/admin/contact-queries", search);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "note") {
    const details = `/admin/contact-queries/${encodeURIComponent(params.id)}${listHref("", search)}`;
    try {
      await addContactQueryNote(actor, params.id, { text: form.get("text") });
      return redirectWithFlash(request, details, { kind: "notice", message: "Note added." });
    } catch (error) {
      if (!isServiceError(error)) console.error("[admin] adding a note to a contact query failed:", error);
      return redirectWithFlash(request, isServiceError(error, "notFound") ? back : details, {
        kind: "error",
        message: isServiceError(error) ? error.message : CONTACT_QUERY_STATUS_FAILED,
      });
    }
  }
  const status = intent === "reply" ? "replied" : intent === "status" ? form.get("status") : null;
  let updated;
  try {
    if (status === null) throw invalid({ intent: "Unknown action" });
    updated = await setContactQueryStatus(actor, params.id, { status });
  } catch (error) {
    if (!isServiceError(error)) console.error("[admin] updating a contact query's status failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: CONTACT_QUERY_STATUS_FAILED });
  }
  const message = `Contact query marked as ${CONTACT_STATUS_LABELS[updated.status]}.`;
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
      <ContactQueryDetails query={loaderData.query} replyReady={loaderData.replyReady} timeline={loaderData.timeline} />
    </DialogRoute>
  );
}
