import { DELIVERY_MODES, DELIVERY_MODE_LABELS } from "~/schemas/values";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithSchema } from "~/web/form-submission";
import { Form } from "react-router";
import { SCHEDULE_DEFAULTS, scheduleSchema } from "~/schemas/schedule";
import { LinkButton, SubmitButton } from "./buttons";
import { conformFieldIds, FormErrorSummary } from "./form-error-summary";
import { FormActions, SelectField, TextField } from "./form-field";
import { PublicationFields, publicationDefaults } from "./publication-fields";
import { WriteGuardFields } from "./write-guard-fields";

type ScheduleFormValues = {
  course?: string;
  startDate?: string;
  endDate?: string;
  time?: string;
  days?: string;
  mode?: string;
  location?: string;
  totalSeats?: number | string;
  fee?: number | string | null;
  feeLabel?: string;
  state?: string;
  publishAt?: string | null;
};

const MODE_OPTIONS = DELIVERY_MODES.map((m) => ({ value: m, label: DELIVERY_MODE_LABELS[m] }));

/**
 * The add/edit schedule form (spec §2). The same schema checks it in the browser (conform) and in the
 * action; without JavaScript the action's reply re-renders it with the messages and the typed values.
 * Available Seats is shown, not typed: the seats left are counted from enrolments and open waitlist offers, and
 * Total Seats is the one number staff set. An edit carries the version it was drawn from and a key of its own.
 */
export function ScheduleForm({
  courses,
  defaultValue,
  lastResult,
  cancelTo,
  seats,
  guard,
}: {
  courses: { id: string; title: string }[];
  defaultValue?: ScheduleFormValues;
  lastResult: SubmissionResult<string[]> | null | undefined;
  cancelTo: string;
  /** Editing: the batch's seats as counted now. */
  seats?: { left: number; taken: number };
  guard?: { version: number; formKey: string };
}) {
  const [form, fields] = useForm({
    id: "schedule-form",
    lastResult,
    defaultValue: {
      ...defaultValue,
      mode: defaultValue?.mode ?? SCHEDULE_DEFAULTS.mode,
      totalSeats: String(defaultValue?.totalSeats ?? SCHEDULE_DEFAULTS.totalSeats),
      fee: defaultValue?.fee ? String(defaultValue.fee) : "",
      feeLabel: defaultValue?.feeLabel ?? "",
      ...publicationDefaults(defaultValue),
    },
    onValidate: ({ formData }) => parseWithSchema(formData, scheduleSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const field = (name: keyof typeof fields) => ({
    id: fields[name].id,
    name: fields[name].name,
    errors: fields[name].errors,
    defaultValue: (fields[name].initialValue as string | undefined) ?? "",
  });
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      {guard ? <WriteGuardFields version={guard.version} formKey={guard.formKey} form="schedule" /> : null}
      <div className="mb-4 empty:hidden">
        <FormErrorSummary id="schedule-form-errors" errors={form.allErrors} idFor={conformFieldIds(fields)} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          {...field("course")}
          label="Course"
          required
          className="sm:col-span-2"
          placeholder="Select a course"
          options={courses.map((c) => ({ value: c.id, label: c.title }))}
        />
        <TextField {...field("startDate")} label="Start Date" type="date" required />
        <TextField {...field("endDate")} label="End Date" type="date" required />
        <TextField {...field("time")} label="Time" placeholder="6:30 PM - 9:30 PM" required />
        <TextField {...field("days")} label="Days" placeholder="Mon, Wed, Fri" required />
        <SelectField {...field("mode")} label="Mode" required options={MODE_OPTIONS} />
        <TextField {...field("location")} label="Location" placeholder="HITEC City campus, Hyderabad" required />
        <div>
          <p className="text-sm font-semibold text-slate-800">Available Seats</p>
          <p className="mt-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800" data-testid="seats-left">
            {seats ? `${seats.left} left (${seats.taken} taken)` : "All of the Total Seats"}
          </p>
          <p className="mt-1 text-xs text-slate-600">Counted from enrolments and open waitlist offers; change Total Seats to add or remove seats.</p>
        </div>
        <TextField {...field("totalSeats")} label="Total Seats" type="number" min={1} inputMode="numeric" required />
        <TextField
          {...field("fee")}
          label="Batch fee (₹)"
          hint="Optional, e.g. an early-bird price. Empty: the course's fee."
          inputMode="numeric"
          placeholder="e.g. 39000"
        />
        <TextField {...field("feeLabel")} label="Fee label" hint="Shown with the batch fee." placeholder="Early-bird" maxLength={60} />
        <PublicationFields state={field("state")} publishAt={field("publishAt")} className="sm:col-span-2" />
      </div>
      <FormActions>
        <LinkButton to={cancelTo} variant="secondary" preventScrollReset>
          Cancel
        </LinkButton>
        <SubmitButton pendingText="Saving...">Save Schedule</SubmitButton>
      </FormActions>
    </Form>
  );
}
