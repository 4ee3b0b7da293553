import { Form } from "react-router";
import { ENQUIRY_STATUS_LABELS, ENQUIRY_STATUSES } from "~/schemas/values";
import { SubmitButton } from "./buttons";
import { INPUT_CLASS } from "./form-field";

export const BULK_FORM_ID = "enquiry-bulk";

/**
 * Set the status or the owner of every enquiry ticked in the list below. The list's checkboxes belong to this
 * form through their `form` attribute, so it works as a plain form post without JavaScript.
 */
export function EnquiryBulkBar({ staff, action }: { staff: { id: string; name: string }[]; action: string }) {
  return (
    <Form
      id={BULK_FORM_ID}
      method="post"
      action={action}
      preventScrollReset
      aria-label="Change the selected enquiries"
      className="mb-3 flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
    >
      <input type="hidden" name="intent" value="bulk" />
      <p className="w-full text-sm font-semibold text-slate-800 sm:w-auto sm:self-center">For the ticked enquiries:</p>
      <label className="text-sm">
        <span className="mb-1 block font-medium text-slate-700">Set status</span>
        <select name="status" defaultValue="" className={INPUT_CLASS}>
          <option value="">Keep status</option>
          {ENQUIRY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ENQUIRY_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm">
        <span className="mb-1 block font-medium text-slate-700">Assign to</span>
        <select name="assigneeId" defaultValue="" className={INPUT_CLASS}>
          <option value="">Keep owner</option>
          <option value="none">Nobody (unassign)</option>
          {staff.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name}
            </option>
          ))}
        </select>
      </label>
      <SubmitButton variant="secondary" pendingText="Applying...">
        Apply to selected
      </SubmitButton>
    </Form>
  );
}
