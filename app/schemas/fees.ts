import * as z from "zod/mini";
import { blankToUndefined, calendarDate, choice, DATE_PATTERN, optionalText, preprocess, requiredText } from "./fields";
import { oneOf } from "./values";
import { CONCESSION_KINDS, DUE_FROM, INDIAN_STATE_NAMES, STAFF_PAYMENT_METHODS } from "./fee-values";

/**
 * Fees and payments (issue 38): the inputs of plans, payments, reversals, UPI reports, concessions and credit notes,
 * shared by the staff screens and the JSON API. Amounts are paise (integers) in JSON; a form's field may carry the
 * rupees staff type ("47,200.50"), read here into paise, so every layer below sees paise only.
 */

export const AMOUNT_MAX_PAISE = 1_000_000_000; // ₹1 crore
const amountMessage = (label: string) => `${label} must be an amount in rupees, such as 47200 or 47,200.50`;

function paiseInt(label: string, min: number) {
  return z
    .int({ error: amountMessage(label) })
    .check(
      z.minimum(min, min > 0 ? `${label} must be more than ₹0` : amountMessage(label)),
      z.maximum(AMOUNT_MAX_PAISE, `${label} must be at most ₹1,00,00,000`),
      z.describe(`${label}, in paise (₹1 = 100)`),
    );
}
/** The rupees a form's field holds ("47,200.50" → 4720050); a JSON number is already paise. */
function readRupees(v: unknown) {
  if (typeof v !== "string") return v;
  const s = v.replace(/[₹,\s]/g, "").replace(/^rs\.?/i, "");
  if (s === "") return undefined;
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(s);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : v;
}

/** Paise as a JSON integer, or the rupees a form's field holds. */
export function paise(label: string, { min = 1 }: { min?: number } = {}) {
  return preprocess(readRupees, paiseInt(label, min));
}
export function optionalPaise(label: string) {
  return preprocess(readRupees, z.optional(paiseInt(label, 1)));
}

/** A percentage as basis points (4000 = 40 %); a form's "40" or "40%" is read as per cent. */
const basisPoints = (label: string) =>
  preprocess(
    (v) => {
      if (typeof v !== "string") return v;
      const s = v.replace(/[%\s]/g, "");
      if (s === "") return undefined;
      return /^\d{1,3}(\.\d{1,2})?$/.test(s) ? Math.round(Number(s) * 100) : v;
    },
    z.optional(
      z
        .int({ error: `${label} must be a percentage in basis points (4000 = 40 %)` })
        .check(
          z.minimum(1, `${label} must be more than 0 %`),
          z.maximum(10_000, `${label} must be at most 100 %`),
          z.describe(`${label}, in basis points (4000 = 40 %)`),
        ),
    ),
  );

const optionalId = (label: string) =>
  preprocess(
    (v) => (v === "" ? undefined : v),
    z.optional(z.nullable(z.string({ error: `${label} must be an id` }).check(z.maxLength(36, `${label} must be an id`)))),
  );

export const PLAN_SHARES_MESSAGE = "The instalments' percentages must add up to 100 %";
export const PLAN_MIXED_MESSAGE = "Give every instalment a percentage, or every one an amount (the last one takes the rest)";

export const planInstalmentSchema = z.object({
  label: requiredText("Instalment name is required", 60, "Instalment name"),
  percentBp: basisPoints("Share"),
  amountPaise: optionalPaise("Instalment amount"),
  dueFrom: z._default(choice(DUE_FROM, `Due from must be one of ${oneOf(DUE_FROM)}`), "enrolment"),
  dueDays: preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? 0 : /^-?\d{1,4}$/.test(v.trim()) ? Number(v.trim()) : v) : v),
    z._default(
      z
        .int({ error: "Days must be a whole number" })
        .check(
          z.minimum(-365, "Days must be from -365 to 730"),
          z.maximum(730, "Days must be from -365 to 730"),
          z.describe("Days after the enrolment or the batch's first day (negative: before it)"),
        ),
      0,
    ),
  ),
});

/** A fee plan: full payment is one instalment of 100 % on enrolment; a deposit and an early-bird discount are optional. */
export const feePlanSchema = z
  .object({
    name: requiredText("Plan name is required", 100, "Plan name"),
    courseId: optionalId("Course"),
    scheduleId: optionalId("Batch"),
    isDefault: z._default(
      preprocess((v) => (v === "on" || v === "true" ? true : v === "false" || v === "" ? false : v), z.boolean({ error: "Must be true or false" })),
      false,
    ),
    instalments: z.array(planInstalmentSchema).check(z.minLength(1, "Add at least one instalment"), z.maxLength(12, "At most 12 instalments")),
    depositPaise: z._default(paise("Seat deposit", { min: 0 }), 0),
    earlyBirdUntil: preprocess(
      blankToUndefined,
      z.optional(z.nullable(z.string().check(z.regex(DATE_PATTERN, "Enter a date as YYYY-MM-DD"), z.meta({ format: "date" })))),
    ),
    earlyBirdDiscountPaise: optionalPaise("Early-bird discount"),
    earlyBirdDiscountBp: basisPoints("Early-bird discount"),
  })
  .check(
    z.refine((p) => !p.instalments.some((i) => i.percentBp !== undefined) || p.instalments.every((i) => i.percentBp !== undefined), {
      path: ["instalments"],
      message: PLAN_MIXED_MESSAGE,
    }),
    z.refine((p) => !p.instalments.every((i) => i.percentBp !== undefined) || p.instalments.reduce((s, i) => s + (i.percentBp ?? 0), 0) === 10_000, {
      path: ["instalments"],
      message: PLAN_SHARES_MESSAGE,
    }),
    z.refine((p) => !p.earlyBirdUntil || p.earlyBirdDiscountPaise !== undefined || p.earlyBirdDiscountBp !== undefined, {
      path: ["earlyBirdDiscountPaise"],
      message: "Give the early-bird discount (an amount or a percentage) or leave its date empty",
    }),
  );
export type FeePlanInput = z.output<typeof feePlanSchema>;

/** Choosing a plan and the billing state at enrolment (the desk's Log activity, the API); both optional. */
export const enrolmentFeeSchema = z.object({
  feePlanId: optionalId("Fee plan"),
  billingState: preprocess(blankToUndefined, z.optional(choice(INDIAN_STATE_NAMES, "Choose the student's state"))),
});

/** Staff recording money received: cash, bank transfer, cheque or UPI. */
export const paymentSchema = z.object({
  method: choice(STAFF_PAYMENT_METHODS, `Payment method must be one of ${oneOf(STAFF_PAYMENT_METHODS)}`),
  amountPaise: paise("Amount"),
  reference: optionalText(100, "Reference"),
  receivedOn: preprocess(blankToUndefined, z.optional(calendarDate("Enter the day the money was received"))),
  note: optionalText(500, "Note", "multi"),
});
export const PAYMENT_REFERENCE_REQUIRED = "Enter the reference: the UTR, bank reference or cheque number";

export const refundSchema = z.object({
  amountPaise: paise("Refund amount"),
  reason: requiredText("Give the reason for the refund", 300, "Reason"),
});

export const reversalSchema = z.object({ reason: requiredText("Give the reason for the reversal", 300, "Reason") });
export const creditNoteSchema = z.object({ reason: requiredText("Give the reason for cancelling the invoice", 300, "Reason") });

export const UTR_MESSAGE = "Enter the 12-digit UTR from your UPI app";
/** A student's "I have paid" by UPI: the UTR (12 digits, as UPI apps show it). */
export const upiReportSchema = z.object({
  utr: preprocess((v) => (typeof v === "string" ? v.replace(/\s/g, "") : v), z.string({ error: UTR_MESSAGE }).check(z.regex(/^\d{12}$/, UTR_MESSAGE))),
});

export const concessionSchema = z.object({
  kind: choice(CONCESSION_KINDS, `Kind must be one of ${oneOf(CONCESSION_KINDS)}`),
  amountPaise: paise("Concession amount"),
  reason: requiredText("Give the reason for the concession", 300, "Reason"),
});
export const concessionDecisionSchema = z.object({ approve: z.boolean({ error: "Must be true or false" }) });
