import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithSchema } from "~/web/form-submission";
import { Form, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/admin_.login";
import { ErrorBanner } from "~/components/admin/error-banner";
import { TextField } from "~/components/admin/form-field";
import { SITE } from "~/config/site";
import { authenticateStaff } from "~/web/auth.server";
import { formFailureData } from "~/web/admin-actions.server";
import { createUserSession, hasUserSession } from "~/web/session.server";
import { LOGIN_FAILED, loginSchema } from "~/schemas/login";
import { passActionHeaders } from "~/web/action-headers";

export const meta: Route.MetaFunction = () => [{ title: `Sign in · Admin · ${SITE.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  if (await hasUserSession(request)) throw redirect("/admin/courses");
  return null;
}

export const headers = passActionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  // The form strategy reads the body itself; keep a copy for the form's answer.
  const form = await request.clone().formData();
  try {
    const user = await authenticateStaff(request, context);
    return createUserSession(request, user, "/admin/courses");
  } catch (error) {
    return formFailureData(error, form, LOGIN_FAILED, { hideFields: ["password"], what: "a sign-in" });
  }
}

export default function AdminLogin() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    onValidate: ({ formData }) => parseWithSchema(formData, loginSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const signingIn = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";

  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 px-4 py-12">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-2xl sm:p-8">
        <p className="text-center text-sm font-semibold tracking-wide text-accent-600 uppercase">{SITE.name}</p>
        <h1 className="mt-1 text-center text-2xl font-bold text-brand-900">Admin sign in</h1>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <ErrorBanner message={form.errors?.[0]} />
          <TextField
            label="Email"
            required
            autoComplete="username"
            errors={fields.email.errors}
            {...getInputProps(fields.email, { type: "email" })}
            key={fields.email.key}
          />
          <TextField
            label="Password"
            required
            autoComplete="current-password"
            errors={fields.password.errors}
            {...getInputProps(fields.password, { type: "password" })}
            key={fields.password.key}
          />
          <button
            type="submit"
            disabled={signingIn}
            className="w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70"
          >
            {signingIn ? "Signing in..." : "Sign In"}
          </button>
        </Form>
      </div>
    </main>
  );
}
