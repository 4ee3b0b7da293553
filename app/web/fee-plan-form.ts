import type { FeePlan } from "~/models/fees.server";
import { paiseToDecimal } from "~/util/money";

/** The rows the Fee plans form offers (a plan may have more through the API). */
export const PLAN_FORM_ROWS = 6;

/**
 * The Fee plans form (flat fields: label0, share0, from0, days0 …) as the plan schema reads it: a share typed "40%"
 * is a percentage, anything else rupees; blank rows are left out; the early-bird discount likewise.
 */
export function planFormToInput(form: Record<string, unknown>): Record<string, unknown> {
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string).trim() : "");
  const instalments = [];
  for (let i = 0; i < PLAN_FORM_ROWS; i++) {
    const label = text(`label${i}`);
    const share = text(`share${i}`);
    if (!label && !share) continue;
    const row: Record<string, unknown> = { label, dueFrom: text(`from${i}`) || "enrolment", dueDays: text(`days${i}`) };
    if (share.endsWith("%")) row.percentBp = share;
    else if (share) row.amountPaise = share;
    instalments.push(row);
  }
  const discount = text("earlyBirdDiscount");
  const [course, batch] = [text("courseId"), text("scheduleId")];
  return {
    name: form.name,
    courseId: course || null,
    scheduleId: batch || null,
    isDefault: form.isDefault === "on",
    depositPaise: text("deposit") || "0",
    earlyBirdUntil: text("earlyBirdUntil") || null,
    ...(discount.endsWith("%") ? { earlyBirdDiscountBp: discount } : discount ? { earlyBirdDiscountPaise: discount } : {}),
    instalments,
  };
}

/** A plan as the Fee plans form's fields, to edit it: the inverse of planFormToInput. */
export function planToForm(plan: FeePlan): Record<string, string> {
  const percent = (bp: number) => `${bp / 100}%`;
  const form: Record<string, string> = {
    name: plan.name,
    courseId: plan.courseId ?? "",
    scheduleId: plan.scheduleId ?? "",
    deposit: plan.terms.depositPaise ? paiseToDecimal(plan.terms.depositPaise) : "",
    earlyBirdUntil: plan.terms.earlyBird?.until ?? "",
    earlyBirdDiscount: plan.terms.earlyBird
      ? plan.terms.earlyBird.discountBp
        ? percent(plan.terms.earlyBird.discountBp)
        : paiseToDecimal(plan.terms.earlyBird.discountPaise ?? 0)
      : "",
    isDefault: plan.isDefault ? "on" : "",
  };
  plan.terms.instalments.slice(0, PLAN_FORM_ROWS).forEach((i, n) => {
    form[`label${n}`] = i.label;
    form[`share${n}`] = i.percentBp !== null && i.percentBp !== undefined ? percent(i.percentBp) : i.amountPaise ? paiseToDecimal(i.amountPaise) : "";
    form[`days${n}`] = String(i.dueDays);
    form[`from${n}`] = i.dueFrom;
  });
  for (let n = plan.terms.instalments.length; n < PLAN_FORM_ROWS; n++) Object.assign(form, { [`label${n}`]: "", [`share${n}`]: "", [`days${n}`]: "" });
  return form;
}
