import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { isServiceError } from "~/services/service-error";
import { redirectWithFlash } from "./flash.server";
import { replyWithErrors } from "./form-submission";
import { retryAfterHeaders } from "~/infra/rate-limit.server";

/**
 * How back-office actions translate a service's answer into HTTP (the rules themselves live in app/services).
 * Forms: a refused save shows the form again with the spec's messages; anything unexpected is logged and the
 * screen's own failure message (spec §8) is shown. One-click actions (status, approve, delete): a redirect to
 * the list with a notice or the red banner.
 */

/** A rule that is not about this form's input (the wrong role) is a 403 page, never a message in the form. */
function rethrowForbidden(error: unknown) {
  if (isServiceError(error, "forbidden")) throw new Response(error.message, { status: 403, statusText: "Forbidden" });
}

export type FormFailure = { status: number; result: SubmissionResult<string[]>; headers?: HeadersInit };

/**
 * What every back-office form's action answers when it did not save: conform's reply (`result`, with the typed
 * values and the messages; null when there is nothing to show again); the course form adds its banner `message` and a `notice` about files to choose again.
 * The status is the service error's own (app/services/service-error.ts): the form and the API translate it once.
 */
export type FormFailureData = { result: SubmissionResult<string[]> | null; message?: string | null; notice?: string | null };

export function formFailure(error: unknown, form: FormData, failedMessage: string, opts: { hideFields?: string[]; what?: string } = {}): FormFailure {
  rethrowForbidden(error);
  const hideFields = opts.hideFields;
  if (isServiceError(error)) {
    switch (error.kind) {
      case "invalid":
      case "tooLarge":
      case "unsupportedType": {
        // A refusal with a name of its own (a wrong current password) also shows in the banner (spec §8).
        const formErrors = Object.keys(error.fields).length && error.code === "invalid_input" ? [] : [error.message];
        return { status: error.status, result: replyWithErrors(form, error.fields, { hideFields, formErrors }) };
      }
      case "unauthorized": // a wrong e-mail or password: the rule's message, never which of the two
        return { status: error.status, result: replyWithErrors(form, {}, { hideFields, formErrors: [error.message] }) };
      case "conflict":
        return { status: error.status, result: replyWithErrors(form, error.fields, { hideFields, formErrors: [error.message] }) };
      case "tooMany":
        return {
          status: error.status,
          result: replyWithErrors(form, {}, { hideFields, formErrors: [error.message] }),
          headers: retryAfterHeaders({ retryAfter: error.retryAfter ?? 60 }),
        };
      case "notFound":
        return { status: error.status, result: replyWithErrors(form, {}, { hideFields, formErrors: [failedMessage] }) };
      default:
        break;
    }
  }
  console.error(`[admin] saving ${opts.what ?? "a form"} failed:`, error);
  return { status: 500, result: replyWithErrors(form, {}, { hideFields, formErrors: [failedMessage] }) };
}

/** formFailure as the `{ result }` action data most forms read. */
export function formFailureData(error: unknown, form: FormData, failedMessage: string, opts: { hideFields?: string[]; what?: string } = {}) {
  const failure = formFailure(error, form, failedMessage, opts);
  return data({ result: failure.result } satisfies FormFailureData, { status: failure.status, headers: failure.headers });
}

/** Runs a one-click write and goes back to the list with its notice, or with the spec's failure message in the red banner. */
export async function actAndReturn(request: Request, back: string, failedMessage: string, work: () => Promise<string>): Promise<Response> {
  let notice: string;
  try {
    notice = await work();
  } catch (error) {
    rethrowForbidden(error);
    if (!isServiceError(error)) console.error(`[admin] ${request.method} ${new URL(request.url).pathname} failed:`, error);
    return redirectWithFlash(request, back, { kind: "error", message: failedMessage });
  }
  return redirectWithFlash(request, back, { kind: "notice", message: notice });
}
