import { Form, useNavigation } from "react-router";
import { ENQUIRY_STATUS_LABELS, ENQUIRY_STATUSES, type EnquiryStatus } from "~/schemas/values";
import { SubmitButton } from "./buttons";
import { SectionFlash } from "./dialog-flash";
import { ErrorBanner } from "./error-banner";
import { INPUT_CLASS } from "./form-field";
import { WriteGuardFields } from "./write-guard-fields";
import { EnrolmentFeeFields, type EnrolmentFeeChoices } from "./enrolment-fee-fields";

export type ActivityFormData = {
  enquiryId: string;
  version: number;
  formKey: string;
  status: EnquiryStatus;
  /** The follow-up now, in Hyderabad time ("Nov 28, 2026, 10:00 AM"), or null. */
  followUpText: string | null;
  /** Tomorrow 10:00, in 3 days, next Monday: datetime-local values (Hyderabad time) with their labels. */
  presets: { value: string; label: string }[];
  /** The owner the form starts with: the current one, or the signed-in staff member when nobody owns it. */
  ownerDefault: string;
  staff: { id: string; name: string }[];
  scheduleId: string | null;
  batches: { id: string; label: string; full: boolean }[];
  /** The fee plan and state chosen when the outcome is Enrolled (absent when already enrolled). */
  fees?: EnrolmentFeeChoices;
};

/** What a refused post typed, shown again beside the message (a note is never lost to a refusal). */
export type ActivityRefusal = { message: string; fields: Record<string, string>; typed: Record<string, string> };

/**
 * Logging a call in one save (HubSpot's "Log call"): outcome, note, next follow-up, owner and batch, applied
 * together. A plain form: without JavaScript it posts and the page comes back at #activity with the confirmation
 * beside it; with JavaScript the dialog stays where it is and the confirmation appears here. The form is keyed by
 * the enquiry's id and version, so after a save (or on another enquiry) every control shows what is stored.
 */
export function EnquiryActivity({ data, action, refusal }: { data: ActivityFormData; action: string; refusal?: ActivityRefusal }) {
  const typed = refusal?.typed ?? {};
  const field = (name: string) => refusal?.fields[name];
  const followUp = typed.followUp ?? "keep";
  const busy = useNavigation().formData?.get("intent") === "log";
  return (
    <section id="activity" aria-labelledby="activity-title" className="scroll-mt-4 space-y-3 rounded-lg border border-brand-100 bg-brand-50 p-4">
      <h3 id="activity-title" className="text-base font-semibold text-slate-900">
        Log activity
      </h3>
      <SectionFlash at="activity" />
      {refusal ? <ErrorBanner message={refusal.message} /> : null}
      <Form key={`${data.enquiryId}:${data.version}`} method="post" action={action} preventScrollReset className="space-y-4">
        <input type="hidden" name="intent" value="log" />
        <WriteGuardFields version={data.version} formKey={data.formKey} form="log" />
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="activity-status" className="block text-sm font-medium text-slate-700">
              Outcome
            </label>
            <select id="activity-status" name="status" defaultValue={typed.status ?? ""} className={`${INPUT_CLASS} mt-1`}>
              <option value="">Unchanged ({ENQUIRY_STATUS_LABELS[data.status]})</option>
              {ENQUIRY_STATUSES.filter((s) => s !== data.status).map((s) => (
                <option key={s} value={s}>
                  {ENQUIRY_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
            <FieldError id="activity-status-error" message={field("status")} />
          </div>
          <div>
            <label htmlFor="activity-owner" className="block text-sm font-medium text-slate-700">
              Owner
            </label>
            <select id="activity-owner" name="assigneeId" defaultValue={typed.assigneeId ?? data.ownerDefault} className={`${INPUT_CLASS} mt-1`}>
              <option value="">Unassigned</option>
              {data.staff.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div>
          <label htmlFor="activity-note" className="block text-sm font-medium text-slate-700">
            Note
          </label>
          <textarea
            id="activity-note"
            name="text"
            rows={3}
            maxLength={5000}
            defaultValue={typed.text ?? ""}
            className={`${INPUT_CLASS} mt-1`}
            placeholder="What was said, what happens next"
            aria-invalid={field("text") ? true : undefined}
            aria-describedby={field("text") ? "activity-note-error" : undefined}
          />
          <FieldError id="activity-note-error" message={field("text")} />
        </div>
        <fieldset aria-describedby={field("followUpAt") ? "activity-follow-up-error" : undefined}>
          <legend className="text-sm font-medium text-slate-700">
            Next follow-up <span className="font-normal text-slate-600">(Hyderabad time)</span>
          </legend>
          <div className="mt-2 flex flex-wrap gap-2">
            <Choice name="followUp" value="keep" checked={followUp === "keep"}>
              {data.followUpText ? `Keep (${data.followUpText})` : "Keep (none set)"}
            </Choice>
            {data.presets.map((p) => (
              <Choice key={p.value} name="followUp" value={p.value} checked={followUp === p.value}>
                {p.label}
              </Choice>
            ))}
            <Choice name="followUp" value="none" checked={followUp === "none"}>
              No follow-up
            </Choice>
            <Choice name="followUp" value="custom" checked={followUp === "custom"}>
              Pick a date and time:
            </Choice>
            <input
              type="datetime-local"
              name="followUpAt"
              aria-label="Follow-up date and time"
              defaultValue={typed.followUpAt ?? ""}
              className={`${INPUT_CLASS} w-auto`}
              onFocus={(e) => {
                // Typing a time means choosing it: tick "Pick a date and time" (without JavaScript the server reads a typed time the same way).
                const radio = e.currentTarget.form?.querySelector<HTMLInputElement>('input[name="followUp"][value="custom"]');
                if (radio) radio.checked = true;
              }}
            />
          </div>
          <FieldError id="activity-follow-up-error" message={field("followUpAt")} />
        </fieldset>
        <div>
          <label htmlFor="activity-batch" className="block text-sm font-medium text-slate-700">
            Batch
          </label>
          <select
            id="activity-batch"
            name="scheduleId"
            defaultValue={typed.scheduleId ?? data.scheduleId ?? ""}
            className={`${INPUT_CLASS} mt-1`}
            aria-invalid={field("scheduleId") ? true : undefined}
            aria-describedby={field("scheduleId") ? "activity-batch-error" : "activity-batch-hint"}
          >
            <option value="">No batch</option>
            {data.batches.map((b) => (
              <option key={b.id} value={b.id}>
                {b.label}
                {b.full ? " (full)" : ""}
              </option>
            ))}
          </select>
          <p id="activity-batch-hint" className="mt-1 text-xs text-slate-600">
            Enrolled takes a seat of the batch; leaving Enrolled gives it back.
          </p>
          <FieldError id="activity-batch-error" message={field("scheduleId")} />
        </div>
        {data.fees ? <EnrolmentFeeFields data={data.fees} typed={typed} /> : null}
        <div className="flex flex-wrap gap-2">
          <SubmitButton pendingText="Saving..." pending={busy}>
            Save
          </SubmitButton>
          <SubmitButton variant="secondary" name="then" value="next" pendingText="Saving..." pending={busy}>
            Save and open next
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function Choice({ name, value, checked, children }: { name: string; value: string; checked: boolean; children: React.ReactNode }) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm has-checked:border-brand-700 has-checked:bg-brand-50 has-checked:font-semibold">
      <input type="radio" name={name} value={value} defaultChecked={checked} className="accent-brand-700" />
      {children}
    </label>
  );
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {message}
    </p>
  ) : null;
}
