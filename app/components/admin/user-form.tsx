import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithSchema } from "~/lib/form-submission";
import { Form, useNavigation } from "react-router";
import { userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { LinkButton, SubmitButton } from "./buttons";
import { ErrorBanner } from "./error-banner";
import { FormActions, SelectField, TextField } from "./form-field";

const ROLE_OPTIONS = [
  { value: "editor", label: "Editor" },
  { value: "admin", label: "Admin" },
] as const;

/** Add / Edit User (spec §2): Name, Email, Password, Role, Cancel, Save User. */
export function UserForm({
  mode,
  lastResult,
  defaultValue,
  backTo,
  roleLocked = false,
}: {
  mode: "create" | "edit";
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: { name: string; email: string; role: string };
  backTo: string;
  /** Your own role cannot be changed here (the server keeps it too), so the last admin cannot lock everyone out. */
  roleLocked?: boolean;
}) {
  const navigation = useNavigation();
  const schema = mode === "create" ? userCreateSchema : userUpdateSchema;
  const [form, fields] = useForm<{ name: string; email: string; password?: string; role: string }>({
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: defaultValue ?? { role: "editor" },
    onValidate: ({ formData }) => parseWithSchema(formData, schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <ErrorBanner message={form.errors?.[0]} />
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
