import { AUDIT_ENTITY_LABELS, AUDIT_ENTITY_TYPES } from "~/schemas/values";
import { Form, Link, useLocation } from "react-router";
import type { AuditFilterParam } from "~/web/audit-log-query";
import { BUTTON_STYLES } from "./buttons";
import { SelectField, TextField } from "./form-field";

export type AuditFilterValues = Partial<Record<AuditFilterParam, string>>;

const ENTITY_OPTIONS = AUDIT_ENTITY_TYPES.map((t) => ({ value: t, label: AUDIT_ENTITY_LABELS[t] }));

/**
 * The audit log's filters as a plain GET form: without JavaScript the browser sends it, with it React
 * Router runs the same navigation. Applying a filter starts again at page 1 (the form has no page field).
 */
export function AuditLogFilters({
  values,
  errors,
  users,
}: {
  values: AuditFilterValues;
  errors: AuditFilterValues;
  users: { userId: string; userName: string }[];
}) {
  const { search } = useLocation();
  const userOptions = users.map((u) => ({ value: u.userId, label: u.userName || u.userId }));
  // A user id from a shared link whose person is not in the list still shows as selected.
  if (values.user && !users.some((u) => u.userId === values.user)) userOptions.push({ value: values.user, label: "Unknown user" });
  return (
    // key: a new URL (Clear, Back) resets the fields to the URL's filter.
    <Form
      key={search}
      method="get"
      action="/admin/audit-log"
      role="search"
      aria-label="Filter the audit log"
      className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      preventScrollReset
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          id="audit-user"
          label="User"
          name="user"
          placeholder="All users"
          options={userOptions}
          defaultValue={values.user ?? ""}
          errors={errors.user}
        />
        <SelectField
          id="audit-entity-type"
          label="Entity type"
          name="entityType"
          placeholder="All types"
          options={ENTITY_OPTIONS}
          defaultValue={values.entityType ?? ""}
          errors={errors.entityType}
        />
        <TextField id="audit-from" label="From" name="from" type="date" defaultValue={values.from ?? ""} errors={errors.from} />
        <TextField id="audit-to" label="To" name="to" type="date" defaultValue={values.to ?? ""} errors={errors.to} />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button type="submit" className={BUTTON_STYLES.primary}>
          Apply
        </button>
        <Link to="/admin/audit-log" className={BUTTON_STYLES.secondary} preventScrollReset>
          Clear
        </Link>
        <p className="text-xs text-slate-600">Dates are days in Hyderabad (IST); both days are included.</p>
      </div>
    </Form>
  );
}
