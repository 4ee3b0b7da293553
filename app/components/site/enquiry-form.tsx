import { DELIVERY_MODES, type DeliveryMode } from "~/schemas/public-values";
import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { useEffect, useState, type FormEvent } from "react";
import { Field, Honeypot, inputClass } from "~/components/ui/field";
import { SITE } from "~/config/site";
import { INTENT_FIELD, type SiteFormResult } from "~/web/site-forms";
import { enquiryFormSchema } from "~/schemas/enquiry";
import { AttachmentsField, checkAttachments } from "./attachments-field";
import { ErrorSummary, SubmitButton, SuccessPanel } from "./form-parts";
import { EnquiryReceipt } from "./enquiry-receipt";
import { PrivacyConsentFields } from "./privacy-consent-fields";
import { UnderEighteenFields } from "./under-eighteen-fields";
import { useSiteForm } from "./use-site-form";

const MODE_LABELS: Record<DeliveryMode, string> = { online: "Online", offline: "Offline (Hyderabad campus)", hybrid: "Hybrid" };

/**
 * The enquiry form. On the home page it is the short form ("Submitting..."); on /enquiry it is the registration
 * form with attachments ("Processing...", and Return to Homepage after success).
 */
export function EnquiryForm({
  variant,
  action,
  actionResult,
  courses,
  fees = {},
  defaultCourse,
  defaultMode,
  defaultMessage,
  resetHref,
  batchDate,
  submitLabel,
}: {
  variant: "home" | "page";
  /** Where it posts; by default the current page. */
  action?: string;
  actionResult?: SiteFormResult;
  courses: string[];
  /** Each course's fee line ("Fee: ₹45,000 (incl. GST)" or "Fee on request"), by title. */
  fees?: Record<string, string>;
  defaultCourse?: string;
  defaultMode?: string;
  defaultMessage?: string;
  resetHref: string;
  /** The start date of the batch whose Enroll Now led here: the server files the enquiry under that batch. */
  batchDate?: string | null;
  /** The button's words when it is not a registration (a full batch's waitlist: "Join the waitlist"). */
  submitLabel?: string;
}) {
  const withFiles = variant === "page";
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
    id: `enquiry-${variant}-form`,
    schema: enquiryFormSchema,
    action,
    actionResult,
    defaultValue: { preferredCourse: defaultCourse, preferredMode: defaultMode, message: defaultMessage, whatsappNotifications: "on" },
  });
  const [clientFileError, setClientFileError] = useState<string | undefined>();
  const [chosenCourse, setChosenCourse] = useState<string | undefined>();
  // A course chosen before the page's scripts had started (on a slow phone, the very choice that woke them) met no
  // listener: as they start, the fee line follows what the list shows.
  const courseFieldId = fields.preferredCourse.id;
  useEffect(() => {
    const select = document.getElementById(courseFieldId);
    if (select instanceof HTMLSelectElement) setChosenCourse(select.value);
  }, [courseFieldId]);
  // The server's answer whose file error the visitor has since dealt with by choosing files again (spec §5:
  // an error clears when its field is edited); a newer answer shows its own error.
  const [fileErrorSeen, setFileErrorSeen] = useState<unknown>();
  const fileError = clientFileError ?? (fileErrorSeen === result ? undefined : result?.fileError);
  function onFilesChosen(files: File[]) {
    setClientFileError(checkAttachments(files));
    setFileErrorSeen(result);
  }

  if (succeeded) {
    // A place on a full batch's waitlist is not a registration: the server says what it is, in its own words.
    const done = result?.done;
    return (
      <div id={panelId}>
        <SuccessPanel
          title={done?.title ?? (withFiles ? "Registration Successful!" : "Enquiry Submitted!")}
          resetLabel="Submit Another Enquiry"
          resetHref={resetHref}
          onReset={reset}
          homeLink={withFiles}
        >
          <p>{done?.text ?? `Thank you for your interest. Our team will contact you within ${SITE.responseHours} hours.`}</p>
          {done ? <EnquiryReceipt done={done} /> : null}
        </SuccessPanel>
      </div>
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (withFiles) {
      const input = event.currentTarget.elements.namedItem("filePaths") as HTMLInputElement | null;
      const problem = input?.files ? checkAttachments(Array.from(input.files)) : undefined;
      setClientFileError(problem);
      if (problem) {
        event.preventDefault();
        input?.focus();
        return;
      }
    }
    form.onSubmit(event);
  }

  const courseOptions = defaultCourse && !courses.includes(defaultCourse) ? [defaultCourse, ...courses] : courses;
  // The fee of the course chosen: the server's typed value or the preselected course first; JavaScript follows the choice.
  const chosen = chosenCourse ?? (typeof fields.preferredCourse.initialValue === "string" ? fields.preferredCourse.initialValue : "");
  const chosenFee = chosen ? fees[chosen] : undefined;
  const problems = summary(["fullName", "email", "phone", "preferredCourse", "preferredMode"]);
  if (fileError) problems.push({ id: "enquiry-attachments", message: fileError });
  problems.push(...summary(["message", "guardianName", "guardianEmail"]));
  return (
    <div id={panelId}>
      <fetcher.Form
        method="post"
        action={postTo}
        encType={withFiles ? "multipart/form-data" : undefined}
        {...getFormProps(form)}
        onSubmit={onSubmit}
        noValidate
        onInput={clearOnEdit}
        data-enhanced={enhanced ? "" : undefined}
        className="relative space-y-5"
      >
        <input type="hidden" name={INTENT_FIELD} value="enquiry" />
        {batchDate ? <input type="hidden" name="batchDate" value={batchDate} /> : null}
        <Honeypot formId={form.id} />
        <ErrorSummary id={`${form.id}-errors`} items={problems} formError={result?.formError} />
        <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          <Field label="Full Name" htmlFor={fields.fullName.id} required errorId={fields.fullName.errorId} errors={fields.fullName.errors}>
            <input {...getInputProps(fields.fullName, { type: "text" })} autoComplete="name" aria-required="true" className={inputClass} />
          </Field>
          <Field label="Email" htmlFor={fields.email.id} required errorId={fields.email.errorId} errors={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" aria-required="true" className={inputClass} />
          </Field>
          <Field label="Phone Number" htmlFor={fields.phone.id} required errorId={fields.phone.errorId} errors={fields.phone.errors}>
            {/* India's country code, shown so visitors know what to type; +91 or a leading 0 typed anyway is accepted too. */}
            <div className="flex">
              <span className="inline-flex items-center rounded-l-lg border border-r-0 border-slate-400 bg-slate-100 px-3 text-base text-slate-700">+91</span>
              <input
                {...getInputProps(fields.phone, { type: "tel" })}
                autoComplete="tel"
                inputMode="tel"
                placeholder="10-digit mobile number"
                aria-required="true"
                className={`${inputClass} rounded-l-none`}
              />
            </div>
          </Field>
          <Field
            label="Preferred Course"
            htmlFor={fields.preferredCourse.id}
            required
            errorId={fields.preferredCourse.errorId}
            errors={fields.preferredCourse.errors}
          >
            <select
              {...getSelectProps(fields.preferredCourse)}
              aria-required="true"
              aria-describedby={
                [getSelectProps(fields.preferredCourse)["aria-describedby"], chosenFee ? `${fields.preferredCourse.id}-fee` : undefined]
                  .filter(Boolean)
                  .join(" ") || undefined
              }
              onChange={(event) => setChosenCourse(event.currentTarget.value)}
              className={inputClass}
            >
              <option value="">Select a course</option>
              {courseOptions.map((title) => (
                <option key={title} value={title}>
                  {title}
                </option>
              ))}
            </select>
            {chosenFee ? (
              <p id={`${fields.preferredCourse.id}-fee`} className="mt-1.5 text-sm font-semibold text-slate-900" data-testid="enquiry-fee" aria-live="polite">
                {chosenFee}
              </p>
            ) : null}
          </Field>
          <Field label="Preferred Mode" htmlFor={fields.preferredMode.id} required errorId={fields.preferredMode.errorId} errors={fields.preferredMode.errors}>
            <select {...getSelectProps(fields.preferredMode)} aria-required="true" className={inputClass}>
              <option value="">Select mode</option>
              {DELIVERY_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {MODE_LABELS[mode]}
                </option>
              ))}
            </select>
          </Field>
          {withFiles ? <AttachmentsField error={fileError} onChange={onFilesChosen} /> : null}
        </div>
        <Field label="Message (optional)" htmlFor={fields.message.id} errorId={fields.message.errorId} errors={fields.message.errors}>
          <textarea {...getTextareaProps(fields.message)} rows={4} className={inputClass} />
        </Field>
        <div className="flex items-start gap-3">
          <input
            {...getInputProps(fields.whatsappNotifications, { type: "checkbox" })}
            className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400 accent-brand-700"
          />
          <label htmlFor={fields.whatsappNotifications.id} className="text-sm text-slate-800">
            Send me batch updates and notifications on WhatsApp
          </label>
        </div>
        <UnderEighteenFields under18={fields.under18} guardianName={fields.guardianName} guardianEmail={fields.guardianEmail} what="enquiry" />
        <PrivacyConsentFields kind="enquiry" marketing={fields.marketingConsent} />
        <SubmitButton
          pending={pending}
          label={submitLabel ?? (withFiles ? "Submit Registration" : "Submit Enquiry")}
          pendingLabel={withFiles ? "Processing..." : "Submitting..."}
        />
      </fetcher.Form>
    </div>
  );
}
