import { REVIEW_TYPE_LABELS, REVIEW_TYPES } from "~/schemas/values";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithSchema } from "~/web/form-submission";
import { Form } from "react-router";
import { REVIEW_DEFAULTS, reviewSchema } from "~/schemas/review";
import { LinkButton, SubmitButton } from "./buttons";
import { ErrorBanner } from "./error-banner";
import { CheckboxField, FormActions, SelectField, TextAreaField, TextField } from "./form-field";
import { PublicationFields, publicationDefaults } from "./publication-fields";

type ReviewFormValues = {
  name?: string;
  position?: string;
  image?: string;
  rating?: number | string;
  course?: string;
  review?: string;
  type?: string;
  linkedin?: string | null;
  videoThumbnail?: string | null;
  approved?: boolean;
  state?: string;
  publishAt?: string | null;
};

const RATINGS = [5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: `${n} star${n === 1 ? "" : "s"}` }));
const TYPES = REVIEW_TYPES.map((value) => ({ value, label: REVIEW_TYPE_LABELS[value] }));

/**
 * The add/edit review form (spec §2). The Video Thumbnail URL field shows only while the type is Video;
 * that is done in CSS (:has), so it works the same with and without JavaScript.
 */
export function ReviewForm({
  defaultValue,
  lastResult,
  cancelTo,
  courseTitles,
}: {
  defaultValue?: ReviewFormValues;
  lastResult: SubmissionResult<string[]> | undefined;
  cancelTo: string;
  courseTitles: string[];
}) {
  const [form, fields] = useForm({
    id: "review-form",
    lastResult,
    defaultValue: {
      ...defaultValue,
      linkedin: defaultValue?.linkedin ?? "",
      videoThumbnail: defaultValue?.videoThumbnail ?? "",
      rating: String(defaultValue?.rating ?? REVIEW_DEFAULTS.rating),
      type: defaultValue?.type ?? REVIEW_DEFAULTS.type,
      // A new review starts unapproved (DESIGN.md §4.3).
      approved: (defaultValue?.approved ?? REVIEW_DEFAULTS.approved) ? "on" : undefined,
      ...publicationDefaults(defaultValue),
    },
    onValidate: ({ formData }) => parseWithSchema(formData, reviewSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const field = (name: Exclude<keyof typeof fields, "approved">) => ({
    id: fields[name].id,
    name: fields[name].name,
    errors: fields[name].errors,
    defaultValue: (fields[name].initialValue as string | undefined) ?? "",
  });
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      <ErrorBanner message={form.errors?.[0]} className="mb-4" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField {...field("name")} label="Student Name" required autoComplete="off" />
        <TextField {...field("position")} label="Position/Title" placeholder="SOC Analyst at Company" required />
        {/* Text, not type=url: these fields also take a site path such as /images/a.png, which is no absolute URL. */}
        <TextField {...field("image")} label="Profile Image URL" type="text" inputMode="url" placeholder="https://..." required className="sm:col-span-2" />
        <SelectField {...field("rating")} label="Rating" options={RATINGS} required />
        <TextField {...field("course")} label="Course" list="review-course-titles" required />
        <datalist id="review-course-titles">
          {courseTitles.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <TextAreaField {...field("review")} label="Review Text" rows={5} required className="sm:col-span-2" />
        <SelectField {...field("type")} label="Review Type" options={TYPES} />
        <TextField {...field("linkedin")} label="LinkedIn Profile" type="text" inputMode="url" placeholder="https://www.linkedin.com/in/..." />
        <div className="hidden sm:col-span-2 [form:has(select[name=type]_option[value=video]:checked)_&]:block">
          <TextField
            {...field("videoThumbnail")}
            label="Video Thumbnail URL"
            type="text"
            inputMode="url"
            placeholder="https://..."
            hint="Used for video reviews."
          />
        </div>
        <CheckboxField
          id={fields.approved.id}
          name={fields.approved.name}
          label="Approved for display"
          defaultChecked={fields.approved.initialValue === "on"}
          errors={fields.approved.errors}
          className="sm:col-span-2"
        />
        <PublicationFields state={field("state")} publishAt={field("publishAt")} className="sm:col-span-2" />
      </div>
      <FormActions>
        <LinkButton to={cancelTo} variant="secondary" preventScrollReset>
          Cancel
        </LinkButton>
        <SubmitButton pendingText="Saving...">Save Review</SubmitButton>
      </FormActions>
    </Form>
  );
}
