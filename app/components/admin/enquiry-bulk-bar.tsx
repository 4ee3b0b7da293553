import { useEffect, useState } from "react";
import { Form } from "react-router";
import { ENQUIRY_STATUS_LABELS, ENQUIRY_STATUSES } from "~/schemas/values";
import { SubmitButton } from "./buttons";
import { INPUT_CLASS } from "./form-field";
import { WriteGuardFields } from "./write-guard-fields";

export const BULK_FORM_ID = "enquiry-bulk";
const TICKS = `input[type="checkbox"][name="ids"][form="${BULK_FORM_ID}"]`;

/** How many rows are ticked, kept up to date as boxes change (JavaScript only; null before it runs). */
function useTickedCount(): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setCount(document.querySelectorAll(`${TICKS}:checked`).length);
    update();
    document.addEventListener("change", update);
    return () => document.removeEventListener("change", update);
  }, []);
  return count;
}

/**
 * Set the status or the owner of every enquiry ticked in the list below. The list's checkboxes belong to this
 * form through their `form` attribute, so it works as a plain form post without JavaScript; with it, the bar says
 * how many are ticked. The caller keys it by the list's drawing, so after Apply the ticks and choices start afresh.
 */
export function EnquiryBulkBar({ staff, action, formKey }: { staff: { id: string; name: string }[]; action: string; formKey: string }) {
  const ticked = useTickedCount();
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
      <WriteGuardFields formKey={formKey} form="bulk" />
      <p className="w-full text-sm font-semibold text-slate-800 sm:w-auto sm:self-center" aria-live="polite">
        {ticked === null ? "For the ticked enquiries:" : `${ticked} selected:`}
      </p>
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

/** The list header's box that ticks (or unticks) every row of this page. A script's convenience: it appears once JavaScript runs. */
export function SelectPageBox() {
  const [ready, setReady] = useState(false);
  const [all, setAll] = useState(false);
  useEffect(() => {
    setReady(true);
    const update = () => {
      const boxes = [...document.querySelectorAll<HTMLInputElement>(TICKS)];
      setAll(boxes.length > 0 && boxes.every((b) => b.checked));
    };
    document.addEventListener("change", update);
    return () => document.removeEventListener("change", update);
  }, []);
  if (!ready) return null;
  return (
    <input
      type="checkbox"
      aria-label="Select every enquiry on this page"
      checked={all}
      className="size-4 accent-brand-700"
      onChange={(e) => {
        const on = e.currentTarget.checked;
        for (const box of document.querySelectorAll<HTMLInputElement>(TICKS)) box.checked = on;
        document.dispatchEvent(new Event("change"));
      }}
    />
  );
}
