import { Form, Link } from "react-router";
import type { Route } from "./+types/admin.privacy";
import { SubmitButton } from "~/components/admin/buttons";
import { INPUT_CLASS } from "~/components/admin/form-field";
import { PageHeader } from "~/components/admin/page-header";
import { env } from "~/env.server";
import { GUARDIAN_CONSENT_DAYS } from "~/config/privacy-notice";
import { ENQUIRY_STATUS_LABELS, inboxStatusLabel, type EnquiryStatus } from "~/schemas/values";
import { formatDateTime } from "~/util/dates";
import { requireStaff } from "~/web/actor.server";
import { redirectWithFlash } from "~/web/flash.server";
import { erasePerson, findPerson } from "~/services/privacy-erasure.server";
import { isServiceError } from "~/services/service-error";

export const meta: Route.MetaFunction = () => [{ title: "Privacy · Admin" }];

const ERASE_CONFIRM = "Tick the box to confirm the erasure";
const ERASE_FAILED = "Failed to erase the data. Please try again.";

/**
 * A person's privacy request handled by staff (DPDP Act): find their records by e-mail (as sender or as a minor's
 * guardian) and erase them, confirmed by a ticked box (JavaScript not needed). Any staff member may, like deleting an
 * enquiry; the erasure is audited with record ids, never the person's details. Also says what the site erases on its
 * own (retention) and where the runbook is.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const email = (new URL(request.url).searchParams.get("email") ?? "").trim().slice(0, 254);
  const records = email ? await findPerson(email, actor) : [];
  const e = env();
  return {
    email,
    found: records.map((r) => ({
      type: r.type,
      id: r.record.id,
      createdAt: formatDateTime(r.record.createdAt),
      name: r.type === "enquiry" ? r.record.fullName : r.record.name,
      what: r.type === "enquiry" ? r.record.preferredCourse : (r.record.subject ?? "No subject"),
      status: r.type === "enquiry" ? ENQUIRY_STATUS_LABELS[r.record.status as EnquiryStatus] : inboxStatusLabel(r.record.status),
      held: r.state === "held",
      asGuardian: r.record.email !== email.toLowerCase(),
    })),
    retention: { months: e.RETENTION_MONTHS, enrolledMonths: e.RETENTION_ENROLLED_MONTHS, guardianDays: GUARDIAN_CONSENT_DAYS },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const form = await request.formData();
  const email = String(form.get("email") ?? "");
  const back = `/admin/privacy?email=${encodeURIComponent(email)}`;
  if (form.get("confirm") !== "on") return redirectWithFlash(request, back, { kind: "error", message: ERASE_CONFIRM });
  try {
    const result = await erasePerson(actor, { email });
    const n = result.enquiries.length + result.contactQueries.length;
    const message = n
      ? `Erased the personal data of ${result.enquiries.length} enquir${result.enquiries.length === 1 ? "y" : "ies"} and ${result.contactQueries.length} contact ${result.contactQueries.length === 1 ? "query" : "queries"}${result.files ? ` (${result.files} file(s) deleted)` : ""}.`
      : "Nothing to erase: no record has this e-mail address.";
    return redirectWithFlash(request, "/admin/privacy", { kind: "notice", message });
  } catch (error) {
    if (!isServiceError(error)) console.error("[admin] an erasure failed:", error);
    return redirectWithFlash(request, back, { kind: "error", message: isServiceError(error, "invalid") ? error.message : ERASE_FAILED });
  }
}

export default function PrivacyScreen({ loaderData }: Route.ComponentProps) {
  const { email, found, retention } = loaderData;
  return (
    <>
      <PageHeader title="Privacy" description="Requests to erase a person's data, and what the site erases by itself." />
      <div className="max-w-3xl space-y-6">
        <section aria-labelledby="find-person" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="find-person" className="text-lg font-bold text-brand-900">
            Erase a person&apos;s data on request
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Every enquiry and contact message sent from this address, or naming it as a minor&apos;s parent or guardian. The person can also do it themselves
            from the link in our e-mails.
          </p>
          <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
            <div className="min-w-64 flex-1">
              <label htmlFor="privacy-email" className="mb-1 block text-sm font-semibold text-slate-800">
                Email
              </label>
              <input id="privacy-email" name="email" type="email" defaultValue={email} className={INPUT_CLASS} />
            </div>
            <button type="submit" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50">
              Find records
            </button>
          </Form>
          {email ? (
            found.length ? (
              <div className="mt-5 space-y-4">
                <ul className="divide-y divide-slate-100 text-sm" data-testid="privacy-records">
                  {found.map((r) => (
                    <li key={r.id} className="py-2">
                      {r.held ? (
                        <span className="font-semibold">{r.name}</span>
                      ) : (
                        <Link
                          to={`/admin/${r.type === "enquiry" ? "enquiries" : "contact-queries"}/${r.id}`}
                          className="font-semibold text-brand-700 hover:underline"
                        >
                          {r.name}
                        </Link>
                      )}{" "}
                      · {r.type === "enquiry" ? "Enquiry" : "Contact query"}: {r.what} · {r.status} · {r.createdAt}
                      {r.held ? " · waiting for a guardian's consent" : ""}
                      {r.asGuardian ? " · names this address as the guardian" : ""}
                    </li>
                  ))}
                </ul>
                <Form method="post" className="space-y-3 rounded-md border border-red-200 bg-red-50 p-4">
                  <input type="hidden" name="email" value={email} />
                  <label className="flex items-start gap-3 text-sm text-red-900">
                    <input type="checkbox" name="confirm" className="mt-0.5 size-5 shrink-0" />
                    {`Erase the personal data of these ${found.length} record(s): names, e-mails, phones, messages, attachments, notes' mentions and unsent e-mails. It cannot be undone.`}
                  </label>
                  <SubmitButton variant="danger" pendingText="Erasing...">
                    Erase this person&apos;s data
                  </SubmitButton>
                </Form>
              </div>
            ) : (
              <p className="mt-4 text-sm text-slate-700" role="status">
                No enquiry or contact message has this address.
              </p>
            )
          ) : null}
        </section>
        <section aria-labelledby="retention" className="rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-700 shadow-sm">
          <h2 id="retention" className="text-lg font-bold text-brand-900">
            What is erased automatically
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>{`Enquiries and contact messages ${retention.months} months after their last activity (RETENTION_MONTHS).`}</li>
            <li>{`Enrolled students' enquiries ${retention.enrolledMonths} months after their last activity (RETENTION_ENROLLED_MONTHS).`}</li>
            <li>{`Anything sent by someone under 18 whose parent or guardian has not consented within ${retention.guardianDays} days.`}</li>
          </ul>
          <p className="mt-2">
            Each run is in the{" "}
            <Link to="/admin/audit-log?entityType=person" className="text-brand-700 underline">
              audit log
            </Link>{" "}
            (admins). The runbook, with the breach list command, is docs/privacy.md.
          </p>
        </section>
      </div>
    </>
  );
}
