import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithSchema } from "~/web/form-submission";
import { Form, useNavigation } from "react-router";
import { changePasswordSchema, PASSWORD_MISMATCH, setPasswordSchema } from "~/schemas/user";
import { LinkButton, SubmitButton } from "./buttons";
import { ErrorBanner } from "./error-banner";
import { FormActions, TextField } from "./form-field";

/**
 * Current, New and Confirm New Password (spec §2). The current password is asked for your own account only:
 * an admin setting another user's password does not know theirs (DESIGN.md §4.6). With JavaScript the schema
 * runs in the browser first, so "New passwords do not match" shows without a request; the service runs it again.
 */
export function ChangePasswordForm({ lastResult, backTo, own }: { lastResult?: SubmissionResult<string[]> | null; backTo: string; own: boolean }) {
  const navigation = useNavigation();
  const [form, fields] = useForm<{ currentPassword?: string; newPassword: string; confirmPassword: string }>({
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    onValidate: ({ formData }) => parseWithSchema(formData, own ? changePasswordSchema : setPasswordSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const mismatch = fields.confirmPassword.errors?.includes(PASSWORD_MISMATCH) ? PASSWORD_MISMATCH : undefined;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <ErrorBanner message={form.errors?.[0] ?? mismatch} />
      {own ? (
        <TextField
          label="Current Password"
          required
          autoComplete="current-password"
          errors={fields.currentPassword.errors}
          {...getInputProps(fields.currentPassword, { type: "password" })}
        />
      ) : null}
      <TextField
        label="New Password"
        required
        autoComplete="new-password"
        hint="At least 8 characters."
        errors={fields.newPassword.errors}
        {...getInputProps(fields.newPassword, { type: "password" })}
      />
      <TextField
        label="Confirm New Password"
        required
        autoComplete="new-password"
        errors={fields.confirmPassword.errors}
        {...getInputProps(fields.confirmPassword, { type: "password" })}
      />
      <FormActions>
        <LinkButton to={backTo} variant="secondary" preventScrollReset>
          Cancel
        </LinkButton>
        <SubmitButton pendingText="Updating...">Update Password</SubmitButton>
      </FormActions>
    </Form>
  );
}
