import { REVIEW_TYPE_LABELS, REVIEW_TYPES } from "~/schemas/values";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithSchema } from "~/web/form-submission";
import { Form } from "react-router";
import { REVIEW_DEFAULTS, reviewSchema } from "~/schemas/review";
import { LinkButton, SubmitButton } from "./buttons";
import { conformFieldIds, FormErrorSummary } from "./form-error-summary";
import { WriteGuardFields } from "./write-guard-fields";
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
  guard,
}: {
  defaultValue?: ReviewFormValues;
  lastResult: SubmissionResult<string[]> | null | undefined;
  cancelTo: string;
  courseTitles: string[];
  /** Editing: the version the form is drawn from and its one-time key. */
  guard?: { version: number; formKey: string };
}) {
  const [form, fields] = useForm({
    id: "review-form",
    lastResult: lastResult ?? undefined,
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
    // A chosen photo stands for the image URL (the server stores it and uses its address).
    onValidate: ({ formData }) => parseWithSchema(withPhotoAsImage(formData), reviewSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const field = (name: Exclude<keyof typeof fields, "approved">) => ({
    id: fields[name].id,
    name: fields[name].name,
    errors: fields[name].errors,
    defaultValue: (fields[name].initialValue as string | undefined) ?? "",
  });
  // The course is chosen from the catalogue; a review saved before with another name keeps it as a choice.
  const current = (fields.course.initialValue as string | undefined) ?? "";
  const courses = [...courseTitles, ...(current && !courseTitles.includes(current) ? [current] : [])].map((t) => ({ value: t, label: t }));
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} preventScrollReset>
      {guard ? <WriteGuardFields version={guard.version} formKey={guard.formKey} form="review" /> : null}
      <div className="mb-4 empty:hidden">
        <FormErrorSummary id="review-form-errors" errors={form.allErrors} idFor={conformFieldIds(fields)} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField {...field("name")} label="Student Name" required autoComplete="off" />
        <TextField {...field("position")} label="Position/Title" placeholder="SOC Analyst at Company" required />
        {/* Text, not type=url: these fields also take a site path such as /images/a.png, which is no absolute URL. */}
        <TextField
          {...field("image")}
          label="Profile Image URL"
          type="text"
          inputMode="url"
          placeholder="https://..."
          hint="Or upload a photo below: it replaces this address."
          className="sm:col-span-2"
        />
        <div className="sm:col-span-2">
          <label htmlFor="review-photo" className="block text-sm font-medium text-slate-700">
            Upload a photo
          </label>
          <input
            id="review-photo"
            type="file"
            name="photo"
            accept="image/jpeg,image/png,image/gif,image/webp,image/avif"
            aria-describedby="review-photo-hint"
            className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700"
          />
          <p id="review-photo-hint" className="mt-1 text-xs text-slate-600">
            JPG, PNG, GIF, WebP or AVIF, less than 5 MB.
          </p>
        </div>
        <SelectField {...field("rating")} label="Rating" options={RATINGS} required />
        <SelectField {...field("course")} label="Course" options={courses} placeholder="Select a course" required />
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

/** The form's data with a chosen photo standing in for the image address, for the browser-side check. */
function withPhotoAsImage(formData: FormData): FormData {
  const photo = formData.get("photo");
  if (!(photo instanceof File) || photo.size === 0 || String(formData.get("image") ?? "").trim()) return formData;
  const copy = new FormData();
  for (const [k, v] of formData) copy.append(k, v);
  copy.set("image", "/uploaded-photo");
  return copy;
}
