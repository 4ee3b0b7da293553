import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { Field, Honeypot, inputClass } from "~/components/ui/field";
import { SITE } from "~/config/site";
import { INTENT_FIELD, type SiteFormResult } from "~/web/site-forms";
import { contactSchema } from "~/schemas/contact";
import { ErrorSummary, SubmitButton, SuccessPanel } from "./form-parts";
import { PrivacyConsentFields } from "./privacy-consent-fields";
import { UnderEighteenFields } from "./under-eighteen-fields";
import { useSiteForm } from "./use-site-form";

/** The contact form of the home page and /contact (spec §5). `action` is the URL it posts to. */
export function ContactForm({ action, actionResult, resetHref }: { action?: string; actionResult?: SiteFormResult; resetHref: string }) {
  const {
    fetcher,
    form,
    fields,
    result,
    succeeded,
    pending,
    clearOnEdit,
    reset,
    enhanced,
    action: postTo,
    panelId,
    summary,
  } = useSiteForm({
    id: "contact-form",
    schema: contactSchema,
    action,
    actionResult,
  });

  if (succeeded) {
    return (
      <div id={panelId}>
        <SuccessPanel title="Message Sent!" resetLabel="Send Another Message" resetHref={resetHref} onReset={reset}>
          Thank you for reaching out. We will get back to you within {SITE.responseHours} hours.
        </SuccessPanel>
      </div>
    );
  }

  return (
    <div id={panelId}>
      <fetcher.Form
        method="post"
        action={postTo}
        {...getFormProps(form)}
        noValidate
        onInput={clearOnEdit}
        data-enhanced={enhanced ? "" : undefined}
        className="relative space-y-5"
      >
        <input type="hidden" name={INTENT_FIELD} value="contact" />
        <Honeypot formId={form.id} />
        <ErrorSummary
          id={`${form.id}-errors`}
          items={summary(["name", "email", "phone", "subject", "message", "guardianName", "guardianEmail"])}
          formError={result?.formError}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Name" htmlFor={fields.name.id} required errorId={fields.name.errorId} errors={fields.name.errors}>
            <input {...getInputProps(fields.name, { type: "text" })} autoComplete="name" aria-required="true" className={inputClass} />
          </Field>
          <Field label="Email" htmlFor={fields.email.id} required errorId={fields.email.errorId} errors={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" aria-required="true" className={inputClass} />
          </Field>
          <Field label="Phone (optional)" htmlFor={fields.phone.id} errorId={fields.phone.errorId} errors={fields.phone.errors}>
            <input {...getInputProps(fields.phone, { type: "tel" })} autoComplete="tel" inputMode="tel" className={inputClass} />
          </Field>
          <Field label="Subject (optional)" htmlFor={fields.subject.id} errorId={fields.subject.errorId} errors={fields.subject.errors}>
            <input {...getInputProps(fields.subject, { type: "text" })} className={inputClass} />
          </Field>
        </div>
        <Field label="Message" htmlFor={fields.message.id} required errorId={fields.message.errorId} errors={fields.message.errors}>
          <textarea {...getTextareaProps(fields.message)} rows={5} aria-required="true" className={inputClass} />
        </Field>
        <UnderEighteenFields under18={fields.under18} guardianName={fields.guardianName} guardianEmail={fields.guardianEmail} what="message" />
        <PrivacyConsentFields kind="contact" marketing={fields.marketingConsent} />
        <SubmitButton pending={pending} label="Send Message" pendingLabel="Sending..." />
      </fetcher.Form>
    </div>
  );
}
