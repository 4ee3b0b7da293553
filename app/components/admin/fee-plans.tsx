import { Form } from "react-router";
import { DUE_FROM, DUE_FROM_LABELS } from "~/schemas/fee-values";
import type { FeePlan } from "~/models/fees.server";
import { PLAN_FORM_ROWS } from "~/web/fee-plan-form";
import { formatDate } from "~/util/dates";
import { formatPaise } from "~/util/money";
import { BUTTON_STYLES, SubmitButton } from "./buttons";
import { ErrorBanner } from "./error-banner";
import { INPUT_CLASS } from "./form-field";

type Choice = { id: string; title?: string; label?: string };

function share(i: FeePlan["terms"]["instalments"][number]): string {
  if (i.percentBp !== null && i.percentBp !== undefined) return `${i.percentBp / 100} %`;
  return i.amountPaise ? formatPaise(i.amountPaise) : "the rest";
}

/** Each plan in words: "40 % on enrolment, 30 % 21 days after the batch starts …", with Archive. */
export function FeePlanList({ plans, courses, batches }: { plans: FeePlan[]; courses: Choice[]; batches: Choice[] }) {
  if (!plans.length)
    return <p className="mb-6 rounded-lg border border-slate-200 bg-white p-6 text-slate-600">No fee plans yet: every enrolment pays in full.</p>;
  return (
    <ul className="mb-8 space-y-3">
      {plans.map((p) => {
        const target = p.scheduleId
          ? `Batch: ${batches.find((b) => b.id === p.scheduleId)?.label ?? "?"}`
          : p.courseId
            ? `Course: ${courses.find((c) => c.id === p.courseId)?.title ?? "?"}`
            : "Any course";
        return (
          <li key={p.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <p className="font-semibold text-slate-900">
              {p.name} {p.isDefault ? <span className="text-sm font-normal text-green-800">(default)</span> : null}
            </p>
            <p className="text-sm text-slate-600">{target}</p>
            <p className="text-sm text-slate-800">
              {p.terms.depositPaise ? `Seat deposit ${formatPaise(p.terms.depositPaise)} on enrolment; ` : ""}
              {p.terms.instalments.map((i) => `${i.label}: ${share(i)}, ${i.dueDays} days ${DUE_FROM_LABELS[i.dueFrom]}`).join("; ")}
              {p.terms.earlyBird
                ? `; early-bird ${p.terms.earlyBird.discountPaise ? formatPaise(p.terms.earlyBird.discountPaise) : `${(p.terms.earlyBird.discountBp ?? 0) / 100} %`} off until ${formatDate(p.terms.earlyBird.until)}`
                : ""}
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              {p.terms.instalments.length <= PLAN_FORM_ROWS ? (
                <a href={`/admin/fees/plans?edit=${p.id}#plan-form`} className={BUTTON_STYLES.secondary}>
                  Edit<span className="sr-only"> {p.name}</span>
                </a>
              ) : null}
              <Form method="post">
                <input type="hidden" name="intent" value="archive" />
                <input type="hidden" name="id" value={p.id} />
                <button type="submit" className={BUTTON_STYLES.secondary}>
                  Archive<span className="sr-only"> {p.name}</span>
                </button>
              </Form>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A new plan, or (`editing`) a plan to change, as a plain form: up to six instalments, each a percentage ("40%") or
 * rupees, due some days after a moment. An edit carries the version it was drawn from (a stale save is refused).
 */
export function FeePlanForm({
  courses,
  batches,
  refusal,
  editing,
}: {
  courses: Choice[];
  batches: Choice[];
  refusal?: { message: string; typed: Record<string, string> };
  editing?: { id: string; version: number; form: Record<string, string> };
}) {
  const t = refusal?.typed ?? editing?.form ?? {};
  return (
    <Form
      method="post"
      action="/admin/fees/plans"
      id="plan-form"
      className="max-w-3xl scroll-mt-4 space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="new-plan-title"
    >
      <h2 id="new-plan-title" className="text-lg font-bold text-brand-900">
        {editing ? `Edit fee plan: ${editing.form.name ?? ""}` : "New fee plan"}
      </h2>
      <ErrorBanner message={refusal?.message} />
      {editing ? (
        <>
          <p className="text-sm text-slate-600">Students already enrolled on this plan keep their dues; the change applies to enrolments from now on.</p>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={editing.id} />
          <input type="hidden" name="version" value={editing.version} />
        </>
      ) : (
        <input type="hidden" name="intent" value="create" />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="block text-sm font-medium text-slate-700">
          Name
          <input name="name" required maxLength={100} defaultValue={t.name ?? ""} className={`${INPUT_CLASS} mt-1`} placeholder="40-30-30 with deposit" />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Seat deposit (₹, optional)
          <input name="deposit" inputMode="decimal" defaultValue={t.deposit ?? ""} className={`${INPUT_CLASS} mt-1`} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Course
          <select name="courseId" defaultValue={t.courseId ?? ""} className={`${INPUT_CLASS} mt-1`}>
            <option value="">Any course</option>
            {courses.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Or one batch
          <select name="scheduleId" defaultValue={t.scheduleId ?? ""} className={`${INPUT_CLASS} mt-1`}>
            <option value="">No batch</option>
            {batches.map((b) => (
              <option key={b.id} value={b.id}>
                {b.label}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Early-bird until (optional)
          <input type="date" name="earlyBirdUntil" defaultValue={t.earlyBirdUntil ?? ""} className={`${INPUT_CLASS} mt-1`} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Early-bird discount (₹, or a % such as 10%)
          <input name="earlyBirdDiscount" defaultValue={t.earlyBirdDiscount ?? ""} className={`${INPUT_CLASS} mt-1`} />
        </label>
      </div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
        <input type="checkbox" name="isDefault" defaultChecked={t.isDefault === "on"} /> Default for this course or batch
      </label>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">
          Instalments: shares as a percentage (&quot;40%&quot;, together 100 %) or rupees (the last takes the rest)
        </legend>
        {Array.from({ length: PLAN_FORM_ROWS }, (_, i) => (
          <div key={i} className="grid gap-2 sm:grid-cols-4">
            <input
              name={`label${i}`}
              aria-label={`Instalment ${i + 1} name`}
              defaultValue={t[`label${i}`] ?? (i === 0 ? "Full fee" : "")}
              className={INPUT_CLASS}
              placeholder={`Instalment ${i + 1}`}
            />
            <input
              name={`share${i}`}
              aria-label={`Instalment ${i + 1} share`}
              defaultValue={t[`share${i}`] ?? (i === 0 ? "100%" : "")}
              className={INPUT_CLASS}
              placeholder="40% or 12000"
            />
            <input
              name={`days${i}`}
              aria-label={`Instalment ${i + 1} days`}
              inputMode="numeric"
              defaultValue={t[`days${i}`] ?? ""}
              className={INPUT_CLASS}
              placeholder="days (0)"
            />
            <select name={`from${i}`} aria-label={`Instalment ${i + 1} due from`} defaultValue={t[`from${i}`] ?? "enrolment"} className={INPUT_CLASS}>
              {DUE_FROM.map((f) => (
                <option key={f} value={f}>
                  {DUE_FROM_LABELS[f]}
                </option>
              ))}
            </select>
          </div>
        ))}
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pendingText="Saving...">Save plan</SubmitButton>
        {editing ? (
          <a href="/admin/fees/plans" className={BUTTON_STYLES.secondary}>
            Cancel
          </a>
        ) : null}
      </div>
    </Form>
  );
}
