import { Form, Link, useLocation } from "react-router";
import { cleanText } from "~/schemas/fields";
import type { EnquiryFilterParam } from "~/web/enquiry-list-query";
import { DELIVERY_MODE_LABELS, DELIVERY_MODES, ENQUIRY_FORM_LABELS, ENQUIRY_FORMS, FOLLOW_UP_FILTER_LABELS, FOLLOW_UP_FILTERS } from "~/schemas/values";
import { BUTTON_STYLES } from "./buttons";
import { SelectField, TextField } from "./form-field";

export type EnquiryFilterOptions = {
  staff: { id: string; name: string }[];
  courses: string[];
  /** Every batch, as staff name it ("SOC Analyst Training Program, starts Jan 5, 2027 (Online)"). */
  batches: { id: string; label: string }[];
  sources: string[];
};

/**
 * The enquiry list's filters as a plain GET form (works without JavaScript; kept in the URL). The tab and the
 * search ride along as hidden fields; applying starts again at page 1.
 */
export function EnquiryFilters({ values, options }: { values: Partial<Record<EnquiryFilterParam, string>>; options: EnquiryFilterOptions }) {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  // Read from the address as typed, so cleaned like any text before it goes back into the page.
  const param = (key: string) => cleanText(params.get(key) ?? "", false);
  const kept = (["status", "q", "sort", "view"] as const).filter((k) => param(k));
  const assignees = [{ value: "mine", label: "Mine" }, { value: "none", label: "Unassigned" }, ...options.staff.map((u) => ({ value: u.id, label: u.name }))];
  const clear = new URLSearchParams(kept.map((k) => [k, param(k)]));
  const open = Object.keys(values).length > 0;
  return (
    <details open={open} className="mb-4 rounded-lg border border-slate-200 bg-white shadow-sm">
      <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-slate-800">Filters{open ? ` (${Object.keys(values).length} set)` : ""}</summary>
      {/* key: a new URL (Clear, Back) resets the fields to the URL's filter. */}
      <Form
        key={search}
        method="get"
        action="/admin/enquiries"
        role="search"
        aria-label="Filter enquiries"
        className="border-t border-slate-200 p-4"
        preventScrollReset
      >
        {kept.map((k) => (
          <input key={k} type="hidden" name={k} value={param(k)} />
        ))}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField id="filter-assignee" label="Assigned to" name="assignee" placeholder="Anyone" options={assignees} defaultValue={values.assignee ?? ""} />
          <SelectField
            id="filter-follow-up"
            label="Follow-up"
            name="followUp"
            placeholder="Any"
            options={FOLLOW_UP_FILTERS.map((v) => ({ value: v, label: FOLLOW_UP_FILTER_LABELS[v] }))}
            defaultValue={values.followUp ?? ""}
          />
          <SelectField
            id="filter-course"
            label="Course"
            name="course"
            placeholder="All courses"
            options={options.courses.map((c) => ({ value: c, label: c }))}
            defaultValue={values.course ?? ""}
          />
          <SelectField
            id="filter-batch"
            label="Batch"
            name="batch"
            placeholder="All batches"
            options={options.batches.map((b) => ({ value: b.id, label: b.label }))}
            defaultValue={values.batch ?? ""}
          />
          <SelectField
            id="filter-mode"
            label="Mode"
            name="mode"
            placeholder="All modes"
            options={DELIVERY_MODES.map((m) => ({ value: m, label: DELIVERY_MODE_LABELS[m] }))}
            defaultValue={values.mode ?? ""}
          />
          <SelectField
            id="filter-source"
            label="Source"
            name="source"
            placeholder="All sources"
            options={options.sources.map((s) => ({ value: s, label: s }))}
            defaultValue={values.source ?? ""}
          />
          <SelectField
            id="filter-form"
            label="Sent from"
            name="form"
            placeholder="Any form"
            options={ENQUIRY_FORMS.map((f) => ({ value: f, label: ENQUIRY_FORM_LABELS[f] }))}
            defaultValue={values.form ?? ""}
          />
          <TextField id="filter-from" label="Received from" name="from" type="date" defaultValue={values.from ?? ""} />
          <TextField id="filter-to" label="Received to" name="to" type="date" defaultValue={values.to ?? ""} />
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <button type="submit" className={BUTTON_STYLES.primary}>
            Apply filters
          </button>
          <Link to={`/admin/enquiries${clear.size ? `?${clear}` : ""}`} className={BUTTON_STYLES.secondary} preventScrollReset>
            Clear filters
          </Link>
          <p className="text-xs text-slate-600">Dates are days in Hyderabad (IST); both days are included.</p>
        </div>
      </Form>
    </details>
  );
}
