import { Form } from "react-router";
import { SubmitButton } from "./buttons";
import type { TimelineLine } from "~/web/timeline-lines";
import { SectionFlash } from "./dialog-flash";
import { INPUT_CLASS } from "./form-field";
import { WriteGuardFields } from "./write-guard-fields";
import { Typed } from "~/components/ui/typed";

/**
 * Notes and recorded changes, newest first, with a note form that works without JavaScript (the page comes back at
 * #timeline with the confirmation beside the form). The form is keyed by the newest line, so a saved note clears
 * the box; its one-time key makes a second press of the same note add nothing.
 */
export function Timeline({ lines, noteLabel = "Add a note", formKey, action }: { lines: TimelineLine[]; noteLabel?: string; formKey: string; action: string }) {
  return (
    <section id="timeline" aria-labelledby="timeline-title" className="scroll-mt-4 space-y-3 border-t border-slate-200 pt-4">
      <h3 id="timeline-title" className="text-sm font-semibold text-slate-800">
        Timeline
      </h3>
      <SectionFlash at="timeline" />
      <Form key={lines[0]?.id ?? "none"} method="post" action={action} preventScrollReset className="space-y-2">
        <input type="hidden" name="intent" value="note" />
        <WriteGuardFields formKey={formKey} form="note" />
        <label htmlFor="timeline-note" className="block text-sm font-medium text-slate-700">
          {noteLabel}
        </label>
        <textarea id="timeline-note" name="text" rows={2} maxLength={5000} required className={INPUT_CLASS} placeholder="What was said, what happens next" />
        <SubmitButton variant="secondary" pendingText="Saving...">
          Add note
        </SubmitButton>
      </Form>
      {lines.length ? (
        <ol className="space-y-2">
          {lines.map((line) => (
            <li key={line.id} className={`rounded-md border px-3 py-2 text-sm ${line.note ? "border-amber-200 bg-amber-50" : "border-slate-200 bg-slate-50"}`}>
              <p className={line.note ? "text-slate-900" : "text-slate-800"}>{line.note ? <Typed lines>{line.what}</Typed> : line.what}</p>
              <p className="mt-1 text-xs text-slate-600">
                {line.at}
                {line.who ? ` · ${line.who}` : ""}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-slate-600">Nothing recorded yet.</p>
      )}
    </section>
  );
}
