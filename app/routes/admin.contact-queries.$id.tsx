import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Route } from "./+types/admin.contact-queries.$id";
import { requireUser } from "~/lib/session.server";
import { redirectWithFlash } from "~/lib/admin/flash.server";
import { CONTACT_QUERY_STATUS_FAILED } from "~/lib/admin-messages";
import { mailtoUrl, replySubject } from "~/lib/contact-links";
import { listHref } from "~/lib/list-query";
import { getContactQuery, setContactQueryStatus } from "~/models/contact-query.server";
import { contactStatusSchema } from "~/schemas/contact-query";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ContactQueryDetails } from "~/components/admin/contact-query-details";
import { statusLabel } from "~/components/admin/inbox-status";

export const meta: Route.MetaFunction = () => [{ title: "Contact Query | Admin" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const query = await getContactQuery(params.id);
  if (!query) throw data("Contact query not found", { status: 404 });
  return { query };
}

/**
 * intent=status sets any status (spec §4), closes the details and reloads the list.
 * intent=reply is the no-JavaScript Reply via Email: it marks the query replied, then sends the browser
 * to the mailto: address, which opens the mail program and leaves the page where it is.
 */
export async function action({ request, params }: Route.ActionArgs) {
  await requireUser(request);
  const back = listHref("/admin/contact-queries", new URL(request.url).search);
  const form = await request.formData();
  const intent = form.get("intent");
  const parsed = parseWithZod(form, { schema: contactStatusSchema });
  const status = intent === "reply" ? "replied" : intent === "status" && parsed.status === "success" ? parsed.value.status : null;
  if (!status) return redirectWithFlash(request, back, { kind: "error", message: CONTACT_QUERY_STATUS_FAILED });
  let updated;
  try {
    updated = await setContactQueryStatus(params.id, status);
  } catch (error) {
    console.error("[admin] updating a contact query's status failed:", error);
  }
  if (!updated) return redirectWithFlash(request, back, { kind: "error", message: CONTACT_QUERY_STATUS_FAILED });
  if (intent === "reply") return redirect(mailtoUrl(updated.email, replySubject(updated.subject)));
  return redirectWithFlash(request, back, { kind: "notice", message: `Contact query marked as ${statusLabel(status)}.` });
}

export default function ContactQueryRoute({ loaderData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/contact-queries");
  return (
    <DialogRoute title="Contact Query" description={loaderData.query.name} backTo={backTo} size="lg">
      <ContactQueryDetails query={loaderData.query} />
    </DialogRoute>
  );
}
