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
