import { INDIAN_STATE_NAMES } from "~/schemas/fee-values";
import { INPUT_CLASS } from "./form-field";

/** The fee plans staff may choose when enrolling this student, and the state invoices name (place of supply). */
export type EnrolmentFeeChoices = { plans: { id: string; name: string }[]; defaultPlan: string; billingState: string };

/**
 * Part of Log activity: used only when the outcome is Enrolled (the fee account opens then,
 * app/services/fee-ledger.server.ts). Left as they are, the batch's or course's default plan and the institute's
 * state apply.
 */
export function EnrolmentFeeFields({ data, typed }: { data: EnrolmentFeeChoices; typed: Record<string, string> }) {
  return (
    <fieldset className="grid gap-4 rounded-md border border-slate-200 bg-white p-3 sm:grid-cols-2">
      <legend className="px-1 text-sm font-medium text-slate-700">When enrolling</legend>
      <div>
        <label htmlFor="activity-fee-plan" className="block text-sm font-medium text-slate-700">
          Fee plan
        </label>
        <select id="activity-fee-plan" name="feePlanId" defaultValue={typed.feePlanId ?? ""} className={`${INPUT_CLASS} mt-1`}>
          <option value="">{data.defaultPlan}</option>
          {data.plans.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="activity-billing-state" className="block text-sm font-medium text-slate-700">
          Student&apos;s state (for invoices)
        </label>
        <select id="activity-billing-state" name="billingState" defaultValue={typed.billingState ?? data.billingState} className={`${INPUT_CLASS} mt-1`}>
          {INDIAN_STATE_NAMES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}
