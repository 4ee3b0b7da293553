import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { isServiceError, type ServiceError } from "~/services/service-error";
import { EDIT_CONFLICT_CODE } from "~/schemas/write-guard";
import type { EditConflict } from "./edit-conflict";
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
export type FormFailureData = { result: SubmissionResult<string[]> | null; message?: string | null; notice?: string | null; conflict?: EditConflict };

/** How a form names its fields to a person (its labels) and, for choices, the text of a value (a course id as its title). */
export type FieldLabels = { labels: Record<string, string>; valueText?: Record<string, Record<string, string>> };

const asTyped = (value: unknown): string => {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "on" : "";
  if (Array.isArray(value)) return value.map(asTyped).join(", ");
  return String(value);
};
const ticked = (v: string) => ["on", "true", "1", "yes"].includes(v.trim().toLowerCase());

/**
 * A save refused because the record changed since the form was drawn (edit_conflict): the form is drawn again from
 * what is stored now (the loaders run again), and beside it the message and what this person had typed that differs
 * from it, so nothing they chose is lost silently.
 */
export function editConflictShown(error: ServiceError, form: FormData, { labels, valueText = {} }: FieldLabels): EditConflict {
  const now = (error.current ?? {}) as Record<string, unknown>;
  const yours: EditConflict["yours"] = [];
  for (const [name, label] of Object.entries(labels)) {
    const sent = form.getAll(name).filter((v): v is string => typeof v === "string");
    const indexed = [...form.keys()].filter((k) => k.startsWith(`${name}[`)).map((k) => String(form.get(k) ?? ""));
    const typed = (sent.length ? sent : indexed).map((v) => v.trim()).join(", ");
    const stored = now[name];
    // A field the form did not send says nothing, but an unticked checkbox is sent as nothing at all.
    if (!sent.length && !indexed.length && typeof stored !== "boolean") continue;
    const same = typeof stored === "boolean" ? ticked(typed) === stored : typed === asTyped(stored).trim();
    if (same || !(name in now)) continue;
    const shown = typeof stored === "boolean" ? (ticked(typed) ? "Yes" : "No") : (valueText[name]?.[typed] ?? typed);
    // A long text (a syllabus, a description) is named, not repeated in full.
    yours.push({ label, value: !shown ? "(empty)" : shown.length > 300 ? `${shown.slice(0, 297)}...` : shown });
  }
  return { message: error.message, yours };
}

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

/**
 * formFailure as the `{ result }` action data most forms read; a save refused because the record changed meanwhile
 * answers `{ conflict }` instead (editConflictShown, with the form's `fields` labels), and no typed values: the form
 * is drawn from what is stored now.
 */
export function formFailureData(
  error: unknown,
  form: FormData,
  failedMessage: string,
  opts: { hideFields?: string[]; what?: string; fields?: FieldLabels } = {},
) {
  if (isServiceError(error) && error.code === EDIT_CONFLICT_CODE) {
    return data({ result: null, conflict: editConflictShown(error, form, opts.fields ?? { labels: {} }) } satisfies FormFailureData, { status: 409 });
  }
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
