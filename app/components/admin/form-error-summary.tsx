import { ErrorSummary, type SummaryItem } from "~/components/ui/error-summary";

type FieldErrors = Record<string, string[] | string | null | undefined> | null | undefined;

/**
 * The public forms' error summary on a staff form (issue 37.10): "There is a problem", the whole form's message and a
 * link to each field's message, focused when it appears, so a refused save is seen however long the form is.
 * `errors` is the server's answer by field name (conform's `error`, "" for the whole form); `idFor` names the input
 * of a field (a field of the form without one is listed without a link).
 */
export function FormErrorSummary({
  id,
  errors,
  formError,
  idFor,
}: {
  id: string;
  errors: FieldErrors;
  /** A message for the whole form, when it is not errors[""]. */
  formError?: string | null;
  idFor: (name: string) => string | undefined;
}) {
  const items: SummaryItem[] = [];
  for (const [name, value] of Object.entries(errors ?? {})) {
    const message = Array.isArray(value) ? value[0] : value;
    if (!name || !message) continue;
    items.push({ id: idFor(name), message });
  }
  const whole = formError ?? firstOf(errors?.[""]);
  return <ErrorSummary id={id} items={items} formError={whole ?? undefined} />;
}

function firstOf(value: string[] | string | null | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value) ?? undefined;
}

/** For a conform form: the id conform gave a field's input, by the field's name. */
export function conformFieldIds(fields: object): (name: string) => string | undefined {
  return (name) => (fields as Record<string, { id?: string } | undefined>)[name]?.id;
}
