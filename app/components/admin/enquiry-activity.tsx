import { Form, Link, useNavigation } from "react-router";
import type { BatchChoice } from "~/services/enquiry-lists.server";
import { ENQUIRY_STATUS_LABELS, ENQUIRY_STATUSES, type EnquiryStatus } from "~/schemas/values";
import { BUTTON_STYLES, SubmitButton } from "./buttons";
import { SectionFlash } from "./dialog-flash";
import { BatchOptions } from "./enquiry-batch-options";
import { BATCH_FULL_CODE, ChoicesBeside, COURSE_CHANGE, CourseChangeConfirm, EDIT_CONFLICT, typedTime, type FormRefusal } from "./enquiry-refusal";
import { ErrorBanner } from "./error-banner";
import { INPUT_CLASS } from "./form-field";
import { WriteGuardFields } from "./write-guard-fields";
import { EnrolmentFeeFields, type EnrolmentFeeChoices } from "./enrolment-fee-fields";

export type ActivityFormData = {
  enquiryId: string;
  fullName: string;
  /** The enquiry's course: its batches come first in the batch list. */
  course: string;
  version: number;
  formKey: string;
  status: EnquiryStatus;
  /** The follow-up now, in Hyderabad time ("Nov 28, 2026, 10:00 AM"), or null. */
  followUpText: string | null;
  /** Tomorrow 10:00, in 3 days, next Monday: datetime-local values (Hyderabad time) with their labels. */
  presets: { value: string; label: string }[];
  /** The owner the form starts with: the current one, or the signed-in staff member when nobody owns it. */
  ownerDefault: string;
  /** The owner stored now (null: nobody). */
  assigneeId: string | null;
  staff: { id: string; name: string }[];
  scheduleId: string | null;
  batches: BatchChoice[];
  /** The fee plan and state chosen when the outcome is Enrolled (absent when already enrolled). */
  fees?: EnrolmentFeeChoices;
  /** The enquiries saved earlier in this run of calls ("Save and open next" skips them), comma-separated. */
  run: string;
};

/**
 * Logging a call in one save (HubSpot's "Log call"): outcome, note, next follow-up, owner and batch, applied
 * together. A plain form: without JavaScript it posts and the page comes back at #activity with the confirmation
 * beside it; with JavaScript the dialog stays where it is and the confirmation appears here. The form is keyed by
 * the enquiry's id and version, so after a save (or on another enquiry) every control shows what is stored; after a
 * refusal it shows what the person chose, with the refusal where it applies: a change meanwhile beside what is
 * stored now (one click applies the choices again), a batch of another course as a question to confirm, a full
 * batch under Batch with "Add a seat for <name>".
 */
export function EnquiryActivity({ data, action, refusal }: { data: ActivityFormData; action: string; refusal?: FormRefusal }) {
  const typed = refusal?.typed ?? {};
  const followUp = typed.followUp ?? "keep";
  const busy = useNavigation().formData?.get("intent") === "log";
  const conflict = refusal?.code === EDIT_CONFLICT;
  const question = refusal?.code === COURSE_CHANGE ? refusal.fields.confirmCourseChange : undefined;
  const full = refusal?.code === BATCH_FULL_CODE;
  // The field a refusal is about is marked and points at it; the words are said once, below Batch (REFUSAL_AT).
  const about = (name: string) =>
    refusal && !conflict && (refusal.fields[name] || (name === "scheduleId" && question))
      ? { "aria-invalid": true as const, "aria-describedby": REFUSAL_WORDS }
      : {};
  return (
    <section id="activity" aria-labelledby="activity-title" className="scroll-mt-4 space-y-3 rounded-lg border border-brand-100 bg-brand-50 p-4">
      <h3 id="activity-title" className="text-base font-semibold text-slate-900">
        Log activity
      </h3>
      <SectionFlash at="activity" />
      <Form key={`${data.enquiryId}:${data.version}`} method="post" action={`${action}#${REFUSAL_AT}`} preventScrollReset className="space-y-4">
        <input type="hidden" name="intent" value="log" />
        <input type="hidden" name="run" value={data.run} />
        <WriteGuardFields version={data.version} formKey={data.formKey} form="log" />
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="activity-status" className="block text-sm font-medium text-slate-700">
              Outcome
            </label>
            <select id="activity-status" name="status" defaultValue={typed.status ?? ""} className={`${INPUT_CLASS} mt-1`} {...about("status")}>
              <option value="">Unchanged ({ENQUIRY_STATUS_LABELS[data.status]})</option>
              {ENQUIRY_STATUSES.filter((s) => s !== data.status).map((s) => (
                <option key={s} value={s}>
                  {ENQUIRY_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="activity-owner" className="block text-sm font-medium text-slate-700">
              Owner
            </label>
            <select
              id="activity-owner"
              name="assigneeId"
              defaultValue={typed.assigneeId ?? data.ownerDefault}
              className={`${INPUT_CLASS} mt-1`}
              {...about("assigneeId")}
            >
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
            {...about("text")}
          />
        </div>
        <fieldset {...(refusal?.fields.followUpAt && !conflict ? { "aria-describedby": REFUSAL_WORDS } : {})}>
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
              {...about("followUpAt")}
              onFocus={(e) => {
                // Typing a time means choosing it: tick "Pick a date and time" (without JavaScript the server reads a typed time the same way).
                const radio = e.currentTarget.form?.querySelector<HTMLInputElement>('input[name="followUp"][value="custom"]');
                if (radio) radio.checked = true;
              }}
            />
          </div>
        </fieldset>
        <div id={REFUSAL_AT} className="scroll-mt-4 space-y-3">
          <div>
            <label htmlFor="activity-batch" className="block text-sm font-medium text-slate-700">
              Batch
            </label>
            <select
              id="activity-batch"
              name="scheduleId"
              defaultValue={typed.scheduleId ?? data.scheduleId ?? ""}
              className={`${INPUT_CLASS} mt-1`}
              aria-invalid={"aria-invalid" in about("scheduleId") ? true : undefined}
              aria-describedby={"aria-invalid" in about("scheduleId") ? `activity-batch-hint ${REFUSAL_WORDS}` : "activity-batch-hint"}
            >
              <BatchOptions batches={data.batches} course={data.course} />
            </select>
            <p id="activity-batch-hint" className="mt-1 text-xs text-slate-600">
              Enrolled takes a seat of the batch; leaving Enrolled gives it back.
            </p>
          </div>
          {/* A refused save is said here, once, just above the buttons that were pressed (and where the page comes
              back without JavaScript): a change meanwhile beside what is stored now, a batch of another course as a
              question, a full batch with "Add a seat", any other rule's words. */}
          <div id={REFUSAL_WORDS}>
            {conflict ? (
              <div className="space-y-2">
                <ErrorBanner message={refusal.message} />
                <ChoicesBeside chose={chosenText(data, typed)} stored={storedText(data)}>
                  <button type="submit" className={BUTTON_STYLES.primary}>
                    Apply my choices again
                  </button>
                  <Link to={`${action}#activity`} preventScrollReset className={BUTTON_STYLES.secondary}>
                    Keep what is stored
                  </Link>
                </ChoicesBeside>
              </div>
            ) : question ? (
              <CourseChangeConfirm id="activity-batch-confirm" question={question} batch={data.batches.find((b) => b.id === typed.scheduleId)} />
            ) : refusal ? (
              <div className="flex flex-wrap items-center gap-2">
                <p id="activity-batch-error" role="alert" className="text-sm font-medium text-red-700">
                  {refusal.message}
                </p>
                {full ? (
                  <button type="submit" name="addSeat" value="1" className={BUTTON_STYLES.secondary}>
                    Add a seat for {data.fullName}
                  </button>
                ) : null}
              </div>
            ) : null}
          </div>
        </div>
        {data.fees ? <EnrolmentFeeFields data={data.fees} typed={typed} /> : null}
        <div className="flex flex-wrap gap-2">
          {/* Each button says what follows the save; a refused save's own choice (kept below) rides along with its
              confirmation, which comes before these buttons and so never overrides them. */}
          <SubmitButton name="then" value="stay" pendingText="Saving..." pending={busy}>
            Save
          </SubmitButton>
          <SubmitButton variant="secondary" name="then" value="next" pendingText="Saving..." pending={busy}>
            Save and open next
          </SubmitButton>
        </div>
        {typed.then ? <input type="hidden" name="then" value={typed.then} /> : null}
      </Form>
    </section>
  );
}

/** Where the page comes back to after a refused save without JavaScript: Batch, the refusal's words below it, the buttons. */
const REFUSAL_AT = "activity-refusal";
/** The refusal's words: the field it is about points at them. */
const REFUSAL_WORDS = "activity-refusal-words";

/** What the refused save asked for, in words: "Contacted, note 'Called back…', follow-up Tomorrow 10:00 AM". */
function chosenText(data: ActivityFormData, typed: Record<string, string>): string {
  const parts: string[] = [];
  if (typed.status) parts.push(ENQUIRY_STATUS_LABELS[typed.status as EnquiryStatus] ?? typed.status);
  if (typed.text) parts.push(`note "${typed.text.length > 60 ? `${typed.text.slice(0, 57)}...` : typed.text}"`);
  const f = typed.followUp ?? "keep";
  if (f === "none") parts.push("no follow-up");
  else if (f === "custom" || (f === "keep" && typed.followUpAt)) parts.push(`follow-up ${typed.followUpAt ? typedTime(typed.followUpAt) : "(no time)"}`);
  else if (f !== "keep") parts.push(`follow-up ${data.presets.find((p) => p.value === f)?.label ?? typedTime(f)}`);
  if (typed.assigneeId !== undefined && typed.assigneeId !== (data.ownerDefault ?? "")) parts.push(`owner ${staffName(data, typed.assigneeId)}`);
  if (typed.scheduleId !== undefined && typed.scheduleId !== (data.scheduleId ?? "")) parts.push(`batch ${batchName(data, typed.scheduleId)}`);
  return parts.length ? parts.join(", ") : "nothing new";
}

/** The enquiry as stored now, in the same words. */
function storedText(data: ActivityFormData): string {
  return [
    ENQUIRY_STATUS_LABELS[data.status],
    `follow-up ${data.followUpText ?? "none"}`,
    `owner ${staffName(data, data.assigneeId ?? "")}`,
    `batch ${batchName(data, data.scheduleId ?? "")}`,
  ].join(", ");
}

const staffName = (data: ActivityFormData, id: string) => (id ? (data.staff.find((u) => u.id === id)?.name ?? "(deleted user)") : "Unassigned");
const batchName = (data: ActivityFormData, id: string) => (id ? (data.batches.find((b) => b.id === id)?.label ?? "(another batch)") : "none");

function Choice({ name, value, checked, children }: { name: string; value: string; checked: boolean; children: React.ReactNode }) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm has-checked:border-brand-700 has-checked:bg-brand-50 has-checked:font-semibold">
      <input type="radio" name={name} value={value} defaultChecked={checked} className="accent-brand-700" />
      {children}
    </label>
  );
}
