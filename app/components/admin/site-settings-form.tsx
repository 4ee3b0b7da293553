import { Form } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { SITE_SETTING_FIELDS, SITE_SETTING_GROUPS, SITE_SETTING_KEYS, type SiteSettingGroup, type SiteSettings } from "~/schemas/site-settings";
import { SubmitButton } from "./buttons";
import { FormErrorSummary } from "./form-error-summary";
import { settingHint } from "./site-setting-hints";
import { FormActions, SelectField, TextAreaField, TextField } from "./form-field";
import { WriteGuardFields } from "./write-guard-fields";

/**
 * The site settings form, built from the schema's list of fields (app/schemas/site-settings.ts): one fieldset per
 * group, one input per key. A plain form: the server checks it and, on a mistake, shows it again with what was
 * typed and each field's message, with JavaScript on or off.
 */
export function SiteSettingsForm({
  values,
  lastResult,
  formKey,
}: {
  values: SiteSettings & { version: number };
  lastResult?: SubmissionResult<string[]> | null;
  /** This drawing's one-time key; with the settings' version, a stale or repeated save is refused or ignored. */
  formKey: string;
}) {
  const typed = (lastResult?.initialValue ?? null) as Record<string, unknown> | null;
  const errors = lastResult?.error ?? {};
  const groups = Object.keys(SITE_SETTING_GROUPS) as SiteSettingGroup[];
  return (
    <Form method="post" className="space-y-6" noValidate>
      <WriteGuardFields version={values.version} formKey={formKey} form="settings" />
      <FormErrorSummary id="settings-form-errors" errors={errors} idFor={(key) => `setting-${key}`} />
      {groups.map((group) => (
        <fieldset key={group} className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <legend className="px-1 text-base font-bold text-brand-900">{SITE_SETTING_GROUPS[group].title}</legend>
          <p className="text-sm text-slate-600">{SITE_SETTING_GROUPS[group].description}</p>
          {SITE_SETTING_KEYS.filter((key) => SITE_SETTING_FIELDS[key].group === group).map((key) => {
            const f = SITE_SETTING_FIELDS[key];
            const value = String(typed && key in typed ? (typed[key] ?? "") : values[key]);
            const common = {
              label: f.label,
              name: key,
              id: `setting-${key}`,
              hint: settingHint(key, values),
              required: !("optional" in f && f.optional),
              errors: errors[key],
            };
            if (f.input === "select" && "options" in f && f.options)
              return <SelectField key={key} {...common} defaultValue={value} options={f.options.map((o) => ({ value: o, label: o }))} />;
            return f.input === "textarea" ? (
              <TextAreaField key={key} {...common} rows={3} defaultValue={value} />
            ) : (
              <TextField key={key} {...common} type={f.input} step={"step" in f ? f.step : undefined} defaultValue={value} />
            );
          })}
        </fieldset>
      ))}
      <FormActions>
        <SubmitButton pendingText="Saving...">Save Settings</SubmitButton>
      </FormActions>
    </Form>
  );
}
