import { Form } from "react-router";
import type { BatchChoice } from "~/services/enquiry-lists.server";
import { SubmitButton } from "./buttons";
import { SectionFlash } from "./dialog-flash";
import { BatchOptions } from "./enquiry-batch-options";
import { ChoicesBeside, COURSE_CHANGE, CourseChangeConfirm, EDIT_CONFLICT, typedTime, type FormRefusal } from "./enquiry-refusal";
import { ErrorBanner } from "./error-banner";
import { INPUT_CLASS } from "./form-field";
import { WriteGuardFields } from "./write-guard-fields";

export type FollowUpPanelData = {
  enquiryId: string;
  fullName: string;
  version: number;
  formKey: string;
  assigneeId: string | null;
  meId: string;
  staff: { id: string; name: string }[];
  /** The follow-up as a datetime-local value in Hyderabad time ("" when none). */
  followUpInput: string;
  followUpText: string | null;
  overdue: boolean;
  scheduleId: string | null;
  /** The enquiry's course: its batches come first in the batch lists. */
  course: string;
  batches: BatchChoice[];
};

/**
 * Owner, next follow-up and batch of one enquiry, one field at a time: three small forms, each a plain POST (works
 * without JavaScript; the page comes back at #follow-up). Keyed by the enquiry and its version, so each control
 * shows what is stored after a save or on another enquiry; a refused one keeps the choice and says why in its own
 * form (a change meanwhile beside what is stored now, a batch of another course as a question to confirm). Below
 * them, "Add a seat for <name>" for a full batch.
 */
export function EnquiryFollowUp({ data, action, refusal }: { data: FollowUpPanelData; action: string; refusal?: FormRefusal }) {
  const guard = (form: string) => <WriteGuardFields version={data.version} formKey={data.formKey} form={form} />;
  const full = data.batches.filter((b) => b.full);
  const mine = (form: FormRefusal["form"]) => (refusal?.form === form ? refusal : undefined);
  const [owner, followUp, batch, seat] = [mine("owner"), mine("follow-up"), mine("batch"), mine("add-seat")];
  const staffName = (id: string | null | undefined) => (id ? (data.staff.find((u) => u.id === id)?.name ?? "(deleted user)") : "Unassigned");
  const batchName = (id: string | null | undefined) => (id ? (data.batches.find((b) => b.id === id)?.label ?? "(another batch)") : "No batch");
  return (
    <section id="follow-up" aria-labelledby="follow-up-title" className="scroll-mt-4 space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 id="follow-up-title" className="text-sm font-semibold text-slate-800">
        Change one field
      </h3>
      <SectionFlash at="follow-up" />
      <div key={`${data.enquiryId}:${data.version}`} className="grid gap-4 md:grid-cols-3">
        {/* Each button names its own intent: a hidden intent field would come first in the form data and win. */}
        <Form method="post" action={action} preventScrollReset className="space-y-2">
          {guard("owner")}
          <label htmlFor="follow-up-owner" className="block text-sm font-medium text-slate-700">
            Owner
          </label>
          <select id="follow-up-owner" name="assigneeId" defaultValue={owner?.typed.assigneeId ?? data.assigneeId ?? ""} className={INPUT_CLASS}>
            <option value="">Unassigned</option>
            {data.staff.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
          <div className="flex flex-wrap gap-2">
            <SubmitButton variant="secondary" pendingText="Saving..." name="intent" value="assign">
              Save owner
            </SubmitButton>
            {data.assigneeId !== data.meId ? (
              <button type="submit" name="intent" value="assign-me" className="rounded-md px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50">
                Assign to me
              </button>
            ) : null}
          </div>
          <Refused refusal={owner} chose={staffName(owner?.typed.assigneeId)} stored={staffName(data.assigneeId)} />
        </Form>
        <Form method="post" action={action} preventScrollReset className="space-y-2">
          {guard("follow-up")}
          <label htmlFor="follow-up-at" className="block text-sm font-medium text-slate-700">
            Next follow-up <span className="font-normal text-slate-600">(Hyderabad time)</span>
          </label>
          <input
            id="follow-up-at"
            type="datetime-local"
            name="followUpAt"
            defaultValue={followUp?.typed.followUpAt ?? data.followUpInput}
            className={INPUT_CLASS}
            aria-describedby="follow-up-now"
          />
          <p id="follow-up-now" className={`text-xs ${data.overdue ? "font-semibold text-red-700" : "text-slate-600"}`}>
            {data.followUpText ? `${data.overdue ? "Overdue: " : "Set for "}${data.followUpText}` : "None set"}
          </p>
          <div className="flex flex-wrap gap-2">
            <SubmitButton variant="secondary" pendingText="Saving..." name="intent" value="follow-up">
              Save follow-up
            </SubmitButton>
            {data.followUpText ? (
              <button
                type="submit"
                name="intent"
                value="clear-follow-up"
                className="rounded-md px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
              >
                Clear
              </button>
            ) : null}
          </div>
          <Refused
            refusal={followUp}
            chose={followUp?.typed.followUpAt ? typedTime(followUp.typed.followUpAt) : "no follow-up"}
            stored={data.followUpText ? `${data.followUpText} IST` : "no follow-up"}
          />
        </Form>
        <Form method="post" action={action} preventScrollReset className="space-y-2">
          {guard("batch")}
          <input type="hidden" name="intent" value="batch" />
          <label htmlFor="follow-up-batch" className="block text-sm font-medium text-slate-700">
            Batch
          </label>
          <select id="follow-up-batch" name="scheduleId" defaultValue={batch?.typed.scheduleId ?? data.scheduleId ?? ""} className={INPUT_CLASS}>
            <BatchOptions batches={data.batches} course={data.course} />
          </select>
          <SubmitButton variant="secondary" pendingText="Saving...">
            Save batch
          </SubmitButton>
          <Refused
            refusal={batch}
            chose={batchName(batch?.typed.scheduleId)}
            stored={batchName(data.scheduleId)}
            batch={data.batches.find((b) => b.id === batch?.typed.scheduleId)}
            confirmId="follow-up-batch-confirm"
          />
        </Form>
      </div>
      {full.length ? (
        <Form
          key={`seat:${data.enquiryId}:${data.version}`}
          method="post"
          action={action}
          preventScrollReset
          className="space-y-2 border-t border-slate-200 pt-4"
        >
          {guard("add-seat")}
          <input type="hidden" name="intent" value="add-seat" />
          <label htmlFor="add-seat-batch" className="block text-sm font-medium text-slate-700">
            A full batch
          </label>
          <p id="add-seat-hint" className="text-xs text-slate-600">
            Enrols {data.fullName} with one extra seat added to the batch for them. Nobody on its waitlist is offered it (raising the seats on the batch offers
            them).
          </p>
          <div className="flex flex-wrap gap-2">
            <select
              id="add-seat-batch"
              name="scheduleId"
              aria-describedby="add-seat-hint"
              defaultValue={seat?.typed.scheduleId ?? (full.some((b) => b.id === data.scheduleId) ? (data.scheduleId ?? undefined) : full[0].id)}
              className={`${INPUT_CLASS} w-auto max-w-full`}
            >
              <BatchOptions batches={full} course={data.course} none={null} />
            </select>
            <SubmitButton variant="secondary" pendingText="Saving...">
              Add a seat for {data.fullName}
            </SubmitButton>
          </div>
          <Refused
            refusal={seat}
            chose={batchName(seat?.typed.scheduleId)}
            stored={batchName(data.scheduleId)}
            batch={data.batches.find((b) => b.id === seat?.typed.scheduleId)}
            confirmId="add-seat-confirm"
          />
        </Form>
      ) : null}
    </section>
  );
}

/**
 * A single field's refused save, inside its own form: a change meanwhile beside what is stored now (the field keeps
 * the choice; its Save applies it again), a batch of another course as a question with its confirm button, else the rule's words.
 */
function Refused({
  refusal,
  chose,
  stored,
  batch,
  confirmId = "",
}: {
  refusal: FormRefusal | undefined;
  chose: string;
  stored: string;
  batch?: BatchChoice;
  confirmId?: string;
}) {
  if (!refusal) return null;
  const question = refusal.code === COURSE_CHANGE ? refusal.fields.confirmCourseChange : undefined;
  if (question) return <CourseChangeConfirm id={confirmId} question={question} batch={batch} />;
  return (
    <div className="space-y-2">
      <ErrorBanner message={refusal.message} />
      {refusal.code === EDIT_CONFLICT ? <ChoicesBeside chose={chose} stored={stored} /> : null}
    </div>
  );
}
