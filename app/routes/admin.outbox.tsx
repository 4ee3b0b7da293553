import { useLocation } from "react-router";
import type { Route } from "./+types/admin.outbox";
import { ErrorBanner } from "~/components/admin/error-banner";
import { OutboxList } from "~/components/admin/outbox-list";
import { PageHeader } from "~/components/admin/page-header";
import { Pagination } from "~/components/admin/pagination";
import { Tabs } from "~/components/admin/tabs";
import { requireStaff } from "~/web/actor.server";
import { actAndReturn } from "~/web/admin-actions.server";
import { loadPage } from "~/web/list-page.server";
import { listHref, readListQuery } from "~/web/list-query";
import { mailConfigured } from "~/infra/mail.server";
import { OUTBOX_STATUS_LABELS, OUTBOX_STATUSES } from "~/schemas/values";
import { listOutbox, OUTBOX_LOAD_FAILED, OUTBOX_ONLY_FAILED, OUTBOX_RESEND_FAILED, resendOutboxMessage } from "~/services/outbox.server";
import { invalid, isServiceError } from "~/services/service-error";

export const meta: Route.MetaFunction = () => [{ title: "Outbox · Admin" }];

// Admins only, like Users and the Audit Log (DESIGN.md §4.2): an editor gets 403; the service checks again.
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const url = new URL(request.url);
  const { status, page } = readListQuery(url, OUTBOX_STATUSES);
  const { list, error } = await loadPage(url, () => listOutbox(actor, { status, page }), OUTBOX_LOAD_FAILED, "the outbox");
  return { list, error, mailConfigured: mailConfigured() };
}

/** Resend (failed messages only): back to the same tab and page with a notice, or the red banner. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const form = await request.formData();
  const back = listHref("/admin/outbox", new URL(request.url).search);
  const id = String(form.get("id") ?? "");
  return actAndReturn(request, back, OUTBOX_RESEND_FAILED, async () => {
    if (form.get("intent") !== "resend" || !id) throw invalid({ intent: "Unknown action" });
    try {
      const saved = await resendOutboxMessage(actor, id);
      return saved.status === "waiting" ? "The message will be sent once e-mail is configured." : "The message will be sent again shortly.";
    } catch (error) {
      // Sent meanwhile (another admin pressed Resend first): nothing to do, and no reason for a red banner.
      if (isServiceError(error, "conflict")) return `${OUTBOX_ONLY_FAILED}; this one is no longer failed.`;
      throw error;
    }
  });
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const { list, error, mailConfigured } = loaderData;
  const { search } = useLocation();
  return (
    <>
      <PageHeader
        title="Outbox"
        description="E-mails and webhooks sent for new enquiries and contact messages, newest first. Times are Hyderabad time (IST)."
      />
      {mailConfigured ? null : (
        <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          E-mail is not set up, so no e-mail is sent. Set <code className="font-mono">SMTP_URL</code> and restart the app: the messages waiting for it go out
          then.
        </p>
      )}
      <Tabs
        param="status"
        label="Filter messages by status"
        basePath="/admin/outbox"
        tabs={[{ value: "", label: "All Messages" }, ...OUTBOX_STATUSES.map((s) => ({ value: s, label: OUTBOX_STATUS_LABELS[s] }))]}
      />
      <ErrorBanner message={error} className="mb-4" />
      <OutboxList messages={list.data} action={listHref("/admin/outbox", search)} />
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["message", "messages"]} />
    </>
  );
}
