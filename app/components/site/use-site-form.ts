import { useForm } from "@conform-to/react";
import { useEffect, useState, type FormEvent } from "react";
import { useFetcher, useFormAction } from "react-router";
import type * as z from "zod/mini";
import { parseWithSchema } from "~/web/form-submission";
import type { SiteFormResult } from "~/web/site-forms";
// Part of the forms' chunk, so the routes' clientAction finds it loaded when a submission fails.
import "~/web/site-form-fallback";

/**
 * One public form, enhanced: the same markup posts as a plain form without JavaScript (the page re-renders
 * from the action data), and with JavaScript goes through a fetcher with client validation and a pending state.
 * Errors show after a submit and each one clears as soon as its field is edited (spec §5).
 */
export function useSiteForm<Schema extends z.ZodMiniObject>(options: {
  id: string;
  schema: Schema;
  /** This form's result from the page's action data, when the page was rendered after a plain POST. */
  actionResult: SiteFormResult | undefined;
  defaultValue?: Record<string, string | undefined>;
  /** Where it posts; by default this page. */
  action?: string;
}) {
  const fetcher = useFetcher<SiteFormResult>();
  const latest = fetcher.data ?? options.actionResult;
  const [dismissed, setDismissed] = useState<SiteFormResult | undefined>(undefined);
  // Marks the form once its code has hydrated (until then it is a plain form that posts the page).
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const result = latest && latest !== dismissed ? latest : undefined;

  const [form, fields] = useForm({
    id: options.id,
    lastResult: result?.submission,
    defaultValue: options.defaultValue,
    onValidate: ({ formData }) => parseWithSchema(formData, options.schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });

  // A refusal of a plain post (sent before this page's scripts had started) comes back with its messages, and the
  // edit that woke the scripts (the first keystroke in a field) happened before any listener: each field whose
  // value is no longer the one sent loses its message as the scripts start, as if edited now (spec §5).
  useEffect(() => {
    const sent = result?.submission?.initialValue;
    const element = document.getElementById(options.id);
    if (!sent || !(element instanceof HTMLFormElement)) return;
    for (const name of Object.keys(form.allErrors)) {
      const control = element.elements.namedItem(name);
      const editable =
        control instanceof HTMLTextAreaElement ||
        control instanceof HTMLSelectElement ||
        (control instanceof HTMLInputElement && control.type !== "checkbox" && control.type !== "radio");
      if (!editable) continue;
      const before = (sent as Record<string, unknown>)[name];
      if (control.value !== (typeof before === "string" ? before : "")) form.update({ name, validated: false });
    }
    // Once, as the scripts start; later edits go through clearOnEdit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function clearOnEdit(event: FormEvent<HTMLFormElement>) {
    const name = (event.target as HTMLInputElement).name;
    if (name && form.allErrors[name]) form.update({ name, validated: false });
  }

  // Posts to the page with the form's id as the fragment: without JavaScript the answer (its errors or its thank-you)
  // comes back scrolled to the form, not to the top of the page.
  const panelId = `${options.id}-panel`;
  const base = useFormAction(options.action);
  const action = `${base.split("#")[0]}#${panelId}`;

  return {
    fetcher,
    form,
    fields,
    action,
    /** The id of the element around the form and its thank-you panel: where the page comes back to. */
    panelId,
    result,
    succeeded: result?.status === "success",
    pending: fetcher.state !== "idle",
    enhanced,
    clearOnEdit,
    /** The form's fields that have a message now, in `order`, for the error summary's links. */
    summary: (order: string[]) =>
      order.flatMap((name) => {
        const f = (fields as Record<string, { id: string; errors?: string[] }>)[name];
        return f?.errors?.length ? [{ id: f.id, message: f.errors[0] }] : [];
      }),
    /** Back to an empty form after a success ("send another"). */
    reset: () => setDismissed(latest),
  };
}
