import { COURSE_CATEGORIES, COURSE_CATEGORY_LABELS, DELIVERY_MODES } from "~/schemas/values";
import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type Submission,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithSchema } from "~/web/form-submission";
import { useEffect, useRef, useState } from "react";
import { Form, useNavigate, useNavigation } from "react-router";
import { COURSE_SAVE_FAILED, courseSchema } from "~/schemas/course";
import { BUTTON_STYLES, LinkButton } from "./buttons";
import { CourseImageField, SyllabusFileField } from "./course-file-fields";
import { conformFieldIds, FormErrorSummary } from "./form-error-summary";
import { ErrorBanner, NoticeBanner } from "./error-banner";
import { CheckboxField, FormActions, SelectField, TextAreaField, TextField } from "./form-field";
import { PublicationFields, publicationDefaults } from "./publication-fields";
import { postWithProgress } from "./post-with-progress";
import { SyllabusField } from "./syllabus-field";
import { WriteGuardFields } from "./write-guard-fields";
import type { EditConflict } from "~/web/edit-conflict";

export type CourseFormCourse = {
  title: string;
  category: string;
  description: string;
  duration: string;
  featured: boolean;
  highlights: string[];
  modes: string[];
  syllabus: string;
  image: string | null;
  syllabusFile: string | null;
  syllabusFileName: string;
  fee?: number | null;
  feeIncludesGst?: boolean;
  state?: string;
  publishAt?: string | null;
};

export type CourseActionData = { result: SubmissionResult<string[]> | null; message: string | null; notice: string | null };
/** The form's fields as the browser holds them (the schema's input types are `unknown` because of its preprocessing). */
type CourseFormShape = {
  title: string;
  category: string;
  description: string;
  duration: string;
  featured?: string;
  highlights: string[];
  modes: string[];
  syllabus: string;
  fee: string;
  feeIncludesGst: string;
  state: string;
  publishAt: string;
};
type SaveAnswer = { ok: true; id: string } | ({ ok: false; conflict?: EditConflict } & CourseActionData);

const CATEGORY_OPTIONS = COURSE_CATEGORIES.map((value) => ({ value, label: COURSE_CATEGORY_LABELS[value] }));
const MODE_OPTIONS: string[] = [...DELIVERY_MODES];
const GST_OPTIONS = [
  { value: "true", label: "GST included in the fee" },
  { value: "false", label: "Plus GST" },
];
const DEFAULT_SYLLABUS_FILE_NAME = "course-syllabus.pdf";

/**
 * Add / Edit Course (spec §2). A multipart form POST to the route's action, which works without
 * JavaScript (the highlight buttons are submit buttons that come back with the list changed). With
 * JavaScript, conform validates first, highlight buttons change the list in place, and the save goes
 * through XMLHttpRequest to /admin/courses/save so the button can show "Uploading... N%".
 */
export function CourseForm({
  course,
  actionData,
  backTo,
  saveUrl,
  guard,
  onConflict,
}: {
  course: CourseFormCourse | null;
  actionData?: CourseActionData;
  backTo: string;
  saveUrl: string;
  /** Editing: the version the form is drawn from and its one-time key. */
  guard?: { version: number; formKey: string };
  /** The save was refused because the course changed meanwhile (the parent shows it and draws the form anew). */
  onConflict?: (conflict: EditConflict) => void;
}) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [answer, setAnswer] = useState<CourseActionData | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [hasFiles, setHasFiles] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const shown = answer ?? (navigation.state === "idle" ? actionData : undefined);
  // Without JavaScript the action renders the form again (a highlight button, an error): the fields outside
  // conform come back as they were sent, not as the course was saved. Empty values are left out of a reply.
  const sent = actionData?.result?.initialValue;
  const sentSyllabus = sent ? (typeof sent.syllabus === "string" ? sent.syllabus : "") : undefined;
  const [form, fields] = useForm<CourseFormShape>({
    id: "course-form",
    lastResult: shown?.result ?? undefined,
    defaultValue: {
      title: course?.title ?? "",
      category: course?.category ?? "",
      description: course?.description ?? "",
      duration: course?.duration ?? "",
      featured: course?.featured ? "on" : undefined,
      highlights: course?.highlights.length ? course.highlights : [""],
      modes: course?.modes ?? [],
      syllabus: course?.syllabus ?? "",
      fee: course?.fee ? String(course.fee) : "",
      feeIncludesGst: course?.feeIncludesGst === false ? "false" : "true",
      ...publicationDefaults(course ?? undefined),
    },
    onValidate: ({ formData }) => parseWithSchema(formData, courseSchema) as unknown as Submission<CourseFormShape>,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    async onSubmit(event, { formData }) {
      event.preventDefault();
      const files = ["image", "syllabusFile"].some((name) => {
        const f = formData.get(name);
        return f instanceof File && f.size > 0;
      });
      setHasFiles(files);
      setProgress(0);
      setAnswer(null);
      abort.current = new AbortController();
      try {
        const { data } = await postWithProgress<SaveAnswer>(saveUrl, formData, setProgress, abort.current.signal);
        if (data?.ok) {
          // The list revalidates when a dialog closes (admin.courses shouldRevalidate) and shows the saved row.
          await navigate(backTo, { preventScrollReset: true });
          return;
        }
        if (data?.conflict && onConflict) {
          onConflict(data.conflict);
          return;
        }
        setAnswer({ result: data?.result ?? null, message: data?.message || COURSE_SAVE_FAILED, notice: data?.notice ?? null });
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return;
        // Spec §8: the server's message if sent (above), else the error's own message, else the default.
        setAnswer({ result: null, message: (error instanceof Error && error.message) || COURSE_SAVE_FAILED, notice: null });
      } finally {
        setProgress(null);
      }
    },
  });

  const highlights = fields.highlights.getFieldList();
  const saving = progress !== null || (navigation.state === "submitting" && navigation.formMethod?.toLowerCase() === "post");
  const saveLabel = progress !== null && hasFiles && progress < 100 ? `Uploading... ${progress}%` : saving ? "Saving..." : "Save Course";
  const fileError = (name: string) => form.allErrors[name]?.[0];

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-5">
      {guard ? <WriteGuardFields version={guard.version} formKey={guard.formKey} form="course" /> : null}
      <FormErrorSummary id="course-form-errors" errors={form.allErrors} formError={shown?.message} idFor={conformFieldIds(fields)} />
      {/* A refused syllabus image: said beside the editor's upload dialog, which keeps the focus for another try. */}
      <ErrorBanner message={uploadError} />
      <NoticeBanner message={shown?.notice} />
      <TextField label="Title" required errors={fields.title.errors} {...getInputProps(fields.title, { type: "text" })} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Category"
          required
          placeholder="Select a category"
          options={CATEGORY_OPTIONS}
          errors={fields.category.errors}
          {...getSelectProps(fields.category)}
        />
        <TextField label="Duration" placeholder="e.g. 3 months" errors={fields.duration.errors} {...getInputProps(fields.duration, { type: "text" })} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Fee (₹)"
          hint="Whole rupees, e.g. 45000. Empty: the site says Fee on request."
          inputMode="numeric"
          placeholder="e.g. 45000"
          errors={fields.fee.errors}
          {...getInputProps(fields.fee, { type: "text" })}
        />
        <SelectField label="GST" options={GST_OPTIONS} errors={fields.feeIncludesGst.errors} {...getSelectProps(fields.feeIncludesGst)} />
      </div>
      <TextAreaField label="Description" required rows={4} errors={fields.description.errors} {...getTextareaProps(fields.description)} />
      <CourseImageField current={course?.image ?? null} removeRequested={sent?.removeImage === "on"} serverError={fileError("image")} />

      <fieldset>
        <legend className="mb-1 text-sm font-semibold text-slate-800">Highlights</legend>
        <ul className="space-y-2">
          {highlights.map((h, index) => (
            <li key={h.key} className="flex gap-2">
              <label htmlFor={h.id} className="sr-only">
                Highlight {index + 1}
              </label>
              <input
                {...getInputProps(h, { type: "text" })}
                key={undefined}
                placeholder="e.g. Hands-on labs with a real SIEM"
                className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
              />
              {highlights.length > 1 ? (
                <button {...form.remove.getButtonProps({ name: fields.highlights.name, index })} className={BUTTON_STYLES.secondary}>
                  Remove<span className="sr-only"> highlight {index + 1}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
        {fields.highlights.errors ? <p className="mt-1 text-sm font-medium text-red-700">{fields.highlights.errors[0]}</p> : null}
        <button {...form.insert.getButtonProps({ name: fields.highlights.name, defaultValue: "" })} className={`mt-2 ${BUTTON_STYLES.ghost}`}>
          + Add Highlight
        </button>
      </fieldset>

      <fieldset>
        <legend className="mb-1 text-sm font-semibold text-slate-800">Modes</legend>
        <div className="flex flex-wrap gap-4">
          {getCollectionProps(fields.modes, { type: "checkbox", options: MODE_OPTIONS }).map((props) => (
            <label key={props.key} className="flex items-center gap-2 text-sm capitalize text-slate-800">
              <input {...props} key={undefined} className="size-4 accent-brand-700" />
              {props.value}
            </label>
          ))}
        </div>
      </fieldset>

      <SyllabusField defaultValue={sentSyllabus ?? course?.syllabus ?? ""} onUploadError={setUploadError} />
      <SyllabusFileField
        current={course?.syllabusFile ?? null}
        // An empty stored name gets the spec's default too (§3), not only a missing one.
        currentName={course?.syllabusFileName || DEFAULT_SYLLABUS_FILE_NAME}
        removeRequested={sent?.removeSyllabusFile === "on"}
        serverError={fileError("syllabusFile")}
      />
      <CheckboxField
        label="Featured course"
        hint="Featured courses are shown first on the home and courses pages."
        {...getInputProps(fields.featured, { type: "checkbox" })}
      />
      <PublicationFields
        state={{ id: fields.state.id, name: fields.state.name, errors: fields.state.errors, defaultValue: fields.state.initialValue ?? "" }}
        publishAt={{ id: fields.publishAt.id, name: fields.publishAt.name, errors: fields.publishAt.errors, defaultValue: fields.publishAt.initialValue ?? "" }}
      />

      {progress !== null && hasFiles ? (
        <div
          className="h-2 overflow-hidden rounded-full bg-slate-200"
          role="progressbar"
          aria-label="Upload progress"
          aria-valuenow={progress}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="h-full bg-brand-700 transition-all" style={{ width: `${progress}%` }} />
        </div>
      ) : null}
      <FormActions>
        <LinkButton to={backTo} variant="secondary" preventScrollReset>
          Cancel
        </LinkButton>
        <button type="submit" disabled={saving} className={BUTTON_STYLES.primary}>
          {saveLabel}
        </button>
      </FormActions>
    </Form>
  );
}
