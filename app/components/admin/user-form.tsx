import { USER_ROLE_LABELS, USER_ROLES } from "~/schemas/values";
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithSchema } from "~/web/form-submission";
import { Form, useNavigation } from "react-router";
import { userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { LinkButton, SubmitButton } from "./buttons";
import { conformFieldIds, FormErrorSummary } from "./form-error-summary";
import { WriteGuardFields } from "./write-guard-fields";
import { FormActions, SelectField, TextField } from "./form-field";

const ROLE_OPTIONS = USER_ROLES.map((value) => ({ value, label: USER_ROLE_LABELS[value] }));

/** Add / Edit User (spec §2): Name, Email, Password, Role, Cancel, Save User. */
export function UserForm({
  mode,
  lastResult,
  defaultValue,
  backTo,
  roleLocked = false,
  askCurrentPassword = false,
  guard,
}: {
  mode: "create" | "edit";
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: { name: string; email: string; role: string };
  backTo: string;
  /** Your own role cannot be changed here (the server keeps it too), so the last admin cannot lock everyone out. */
  roleLocked?: boolean;
  /** Your own account: a new password here needs your current one (the server checks it). */
  askCurrentPassword?: boolean;
  /** Editing: the version the form is drawn from and its one-time key (a password change alone needs no version). */
  guard?: { version: number; formKey: string };
}) {
  const navigation = useNavigation();
  const schema = mode === "create" ? userCreateSchema : userUpdateSchema;
  const [form, fields] = useForm<{ name: string; email: string; password?: string; currentPassword?: string; role: string }>({
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: defaultValue ?? { role: "editor" },
    onValidate: ({ formData }) => parseWithSchema(formData, schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      {guard ? <WriteGuardFields version={guard.version} formKey={guard.formKey} form="user" /> : null}
      <FormErrorSummary id="user-form-errors" errors={form.allErrors} idFor={conformFieldIds(fields)} />
      <TextField label="Name" required autoComplete="off" errors={fields.name.errors} {...getInputProps(fields.name, { type: "text" })} />
      <TextField label="Email" required autoComplete="off" errors={fields.email.errors} {...getInputProps(fields.email, { type: "email" })} />
      <TextField
        label="Password"
        required={mode === "create"}
        autoComplete="new-password"
        hint={mode === "edit" ? "Leave empty to keep the current password. At least 8 characters." : "At least 8 characters."}
        errors={fields.password.errors}
        {...getInputProps(fields.password, { type: "password" })}
      />
      {askCurrentPassword ? (
        <TextField
          label="Current Password"
          autoComplete="current-password"
          hint="Needed only when you set a new password for your own account."
          errors={fields.currentPassword.errors}
          {...getInputProps(fields.currentPassword, { type: "password" })}
        />
      ) : null}
      <SelectField
        label="Role"
        errors={fields.role.errors}
        options={ROLE_OPTIONS}
        disabled={roleLocked}
        hint={roleLocked ? "You cannot change your own role." : undefined}
        {...getSelectProps(fields.role)}
      />
      <FormActions>
        <LinkButton to={backTo} variant="secondary" preventScrollReset>
          Cancel
        </LinkButton>
        <SubmitButton pendingText="Saving...">Save User</SubmitButton>
      </FormActions>
    </Form>
  );
}
