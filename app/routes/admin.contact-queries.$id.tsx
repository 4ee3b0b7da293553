import { CONTACT_STATUS_LABELS } from "~/schemas/values";
import { randomUUID } from "node:crypto";
import { data, useLocation } from "react-router";
import { formToObject } from "~/web/api-body.server";
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
  return {
    query,
    replyReady: new URL(request.url).searchParams.get("reply") === "ready",
    timeline: timelineLines(await contactQueryTimeline(query.id)),
    // A fresh key each time the page is drawn: a post of this drawing is applied once.
    formKey: randomUUID(),
  };
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
  const details = `/admin/contact-queries/${encodeURIComponent(params.id)}${listHref("", search)}`;
  const input = formToObject(form);
  if (intent === "note") {
    try {
      await addContactQueryNote(actor, params.id, input);
      return redirectWithFlash(request, `${details}#timeline`, { kind: "notice", message: "Note added.", at: "timeline" });
    } catch (error) {
      if (!isServiceError(error)) console.error("[admin] adding a note to a contact query failed:", error);
      return redirectWithFlash(request, isServiceError(error, "notFound") ? back : `${details}#timeline`, {
        kind: "error",
        message: isServiceError(error) ? error.message : CONTACT_QUERY_STATUS_FAILED,
        at: "timeline",
      });
    }
  }
  const status = intent === "reply" ? "replied" : intent === "status" ? form.get("status") : null;
  let updated;
  try {
    if (status === null) throw invalid({ intent: "Unknown action" });
    updated = await setContactQueryStatus(actor, params.id, { ...input, status });
  } catch (error) {
    if (!isServiceError(error)) console.error("[admin] updating a contact query's status failed:", error);
    // Changed meanwhile by someone else: stay on the details, which show what it holds now.
    if (isServiceError(error, "conflict")) return redirectWithFlash(request, details, { kind: "error", message: error.message });
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
  const { pathname, search } = useLocation();
  const backTo = listHref("/admin/contact-queries", search);
  return (
    <DialogRoute title="Contact Query" description={loaderData.query.name} backTo={backTo} size="lg" focusKey={loaderData.query.id}>
      <ContactQueryDetails
        query={loaderData.query}
        replyReady={loaderData.replyReady}
        timeline={loaderData.timeline}
        formKey={loaderData.formKey}
        here={`${pathname}${search}`}
      />
    </DialogRoute>
  );
}
