import type { ReactNode } from "react";
import { HONEYPOT_FIELD } from "~/web/site-forms";

export const inputClass =
  "block w-full rounded-lg border border-slate-400 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus-visible:outline-3 aria-invalid:border-red-600";

/**
 * A labelled form control with its error underneath. The control itself carries aria-invalid and an
 * aria-describedby that names `errorId` (conform's getInputProps does both), so the message is read with it.
 */
export function Field({
  label,
  htmlFor,
  required,
  errorId,
  errors,
  hint,
  children,
  className = "",
}: {
  label: string;
  htmlFor: string;
  required?: boolean;
  errorId: string;
  errors?: string[];
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
        {required ? (
          <span className="text-red-700" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint ? <div className="mt-1 text-xs text-slate-600">{hint}</div> : null}
      <p id={errorId} className="mt-1 text-sm text-red-700 empty:hidden">
        {errors?.[0] ?? ""}
      </p>
    </div>
  );
}

export function Honeypot({ formId }: { formId: string }) {
  return (
    <div className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden" aria-hidden="true">
      <label htmlFor={`${formId}-website`}>Leave this field empty</label>
      <input id={`${formId}-website`} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
