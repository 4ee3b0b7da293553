import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field, inputClass } from "~/components/ui/field";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/**
 * "I am under 18" (unticked: the form sends what it always sent) and, once ticked, a parent's or guardian's name and
 * e-mail: we ask them to consent before anyone reads what was sent (DPDP Act). The guardian fields show when the box
 * is ticked through CSS alone (`.under18-group` in app.css), so it works the same without JavaScript; a browser
 * that cannot tell (no :has()) shows them all the time.
 */
// Labels avoid the words "Name" and "Email" (their e-mail is "e-mail"): the forms' own Name and Email fields keep
// labels no other control shares.
export function UnderEighteenFields({
  under18,
  guardianName,
  guardianEmail,
  what,
}: {
  under18: AnyField;
  guardianName: AnyField;
  guardianEmail: AnyField;
  what: string;
}) {
  const panel = `${under18.id}-guardian`;
  return (
    <div className="under18-group space-y-3">
      <div className="flex items-start gap-3">
        <input
          {...getInputProps(under18, { type: "checkbox" })}
          aria-controls={panel}
          className="mt-0.5 h-5 w-5 shrink-0 rounded border-slate-400 accent-brand-700"
        />
        <label htmlFor={under18.id} className="text-sm text-slate-800">
          I am under 18
        </label>
      </div>
      <div id={panel} className="guardian-fields gap-5 rounded-xl border border-amber-200 bg-amber-50 p-4 sm:grid-cols-2">
        <p className="text-sm text-amber-950 sm:col-span-2">
          {`We need a parent's or guardian's consent first: we e-mail them a link, and nobody here reads your ${what} until they agree.`}
        </p>
        <Field label="Parent or guardian" htmlFor={guardianName.id} errorId={guardianName.errorId} errors={guardianName.errors}>
          <input {...getInputProps(guardianName, { type: "text" })} autoComplete="off" className={inputClass} />
        </Field>
        <Field label="Parent or guardian's e-mail" htmlFor={guardianEmail.id} errorId={guardianEmail.errorId} errors={guardianEmail.errors}>
          <input {...getInputProps(guardianEmail, { type: "email" })} autoComplete="off" className={inputClass} />
        </Field>
      </div>
    </div>
  );
}
