import { inputValue } from "~/util/input-value";
import { useId } from "react";

type Errors = string | string[] | null | undefined;

function firstError(errors: Errors): string | undefined {
  if (!errors) return undefined;
  return Array.isArray(errors) ? errors[0] : errors;
}

type Common = {
  label: string;
  name: string;
  /** Defaults to a generated id; pass conform's field.id to keep its aria wiring. */
  id?: string;
  errors?: Errors;
  hint?: React.ReactNode;
  /** Marks the label with an asterisk; the server still decides what is required. */
  required?: boolean;
  className?: string;
};

export const INPUT_CLASS =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 focus:outline-none aria-[invalid=true]:border-red-600";

/** Label, control, hint and error, wired with aria-describedby / aria-invalid. */
export function FieldShell({
  id,
  label,
  errors,
  hint,
  required,
  className = "",
  children,
}: Omit<Common, "name" | "id"> & { id: string; children: (aria: AriaProps) => React.ReactNode }) {
  const error = firstError(errors);
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <div className="mb-1 flex items-baseline gap-1">
        <label htmlFor={id} className="text-sm font-semibold text-slate-800">
          {label}
        </label>
        {/* Outside the label, so the field's name is exactly its label; aria-required says it to screen readers. */}
        {required ? (
          <span aria-hidden="true" className="text-sm font-semibold text-red-700">
            *
          </span>
        ) : null}
      </div>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, "aria-required": required || undefined })}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type AriaProps = { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string; "aria-required"?: boolean };

function useFieldId(id?: string) {
  const generated = useId();
  return id ?? generated;
}

export function TextField({
  label,
  name,
  id,
  errors,
  hint,
  required,
  className,
  ...input
}: Common & Omit<React.InputHTMLAttributes<HTMLInputElement>, "id" | "name">) {
  const fieldId = useFieldId(id);
  // An echoed date or number the browser would drop anyway (see inputValue) is not written into the markup.
  const shown = {
    ...input,
    ...("defaultValue" in input ? { defaultValue: inputValue(input.type, input.defaultValue) } : {}),
    ...("value" in input ? { value: inputValue(input.type, input.value) } : {}),
  };
  return (
    <FieldShell id={fieldId} label={label} errors={errors} hint={hint} required={required} className={className}>
      {(aria) => <input name={name} {...aria} {...shown} className={INPUT_CLASS} />}
    </FieldShell>
  );
}

export function TextAreaField({
  label,
  name,
  id,
  errors,
  hint,
  required,
  className,
  ...input
}: Common & Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "name">) {
  const fieldId = useFieldId(id);
  return (
    <FieldShell id={fieldId} label={label} errors={errors} hint={hint} required={required} className={className}>
      {(aria) => <textarea name={name} rows={4} {...aria} {...input} className={INPUT_CLASS} />}
    </FieldShell>
  );
}

export function SelectField({
  label,
  name,
  id,
  errors,
  hint,
  required,
  className,
  options,
  placeholder,
  ...select
}: Common &
  Omit<React.SelectHTMLAttributes<HTMLSelectElement>, "id" | "name"> & {
    options: readonly { value: string; label: string }[];
    /** An empty first option, e.g. "Select a course". */
    placeholder?: string;
  }) {
  const fieldId = useFieldId(id);
  return (
    <FieldShell id={fieldId} label={label} errors={errors} hint={hint} required={required} className={className}>
      {(aria) => (
        <select name={name} {...aria} {...select} className={INPUT_CLASS}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/** A checkbox with its label on the right; posts "on" when checked and nothing when not. */
export function CheckboxField({
  label,
  name,
  id,
  errors,
  hint,
  className = "",
  ...input
}: Omit<Common, "required"> & Omit<React.InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "type">) {
  const fieldId = useFieldId(id);
  const error = firstError(errors);
  const describedBy = [hint ? `${fieldId}-hint` : null, error ? `${fieldId}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <input
          type="checkbox"
          id={fieldId}
          name={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
          className="size-4 rounded border-slate-400 text-brand-700 accent-brand-700"
        />
        <label htmlFor={fieldId} className="text-sm font-semibold text-slate-800">
          {label}
        </label>
      </div>
      {hint ? (
        <p id={`${fieldId}-hint`} className="mt-1 ml-6 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${fieldId}-error`} className="mt-1 ml-6 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The Cancel / Save row at the bottom of a dialog form. */
export function FormActions({ children }: { children: React.ReactNode }) {
  return <div className="mt-6 flex flex-wrap justify-end gap-3 border-t border-slate-200 pt-4">{children}</div>;
}
