import { QUEUE_RUN_MAX } from "~/services/enquiry-lists.server";
import { isServiceError } from "~/services/service-error";
import { BATCH_FULL_CODE, COURSE_CHANGE_CODE } from "~/schemas/enquiry-pipeline";
import { EDIT_CONFLICT_CODE } from "~/schemas/write-guard";
import type { FormRefusal } from "./enquiry-refusal";
import { listHref } from "./list-query";

/**
 * The enquiry details' part of HTTP: the run of calls "Save and open next" carries in its URL and form, and the
 * refusals its forms show in place.
 */

const ID = /^[\w-]{1,36}$/;

/** The ids of a run of calls as the URL (`?run=a,b`) or the form's hidden field carries them: ids only, the last QUEUE_RUN_MAX. */
export function readQueueRun(value: unknown): string[] {
  const text = Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : "";
  return [...new Set(text.split(",").filter((id) => ID.test(id)))].slice(-QUEUE_RUN_MAX);
}

/** The next enquiry's details, over the list they were opened from (else My queue), carrying the run; `anchor`: where the page lands. */
export function nextInQueueHref(id: string, search: string, run: readonly string[], anchor?: string): string {
  const params = new URLSearchParams(listHref("", search).slice(1) || "view=queue");
  const kept = readQueueRun(run.join(","));
  if (kept.length) params.set("run", kept.join(","));
  return `/admin/enquiries/${encodeURIComponent(id)}?${params}${anchor ? `#${anchor}` : ""}`;
}

/** What a refused form had chosen, to show it again: the fields of the details' forms, as posted. */
const CHOICES = ["status", "text", "followUp", "followUpAt", "assigneeId", "scheduleId", "feePlanId", "billingState", "then"] as const;

/**
 * A refused save as its form shows it, with the HTTP status to answer; null when the error is not one shown in the
 * form (the caller redirects with a message instead). Log activity shows every rule's refusal; the single-field
 * forms and the status buttons show a change meanwhile (what was chosen beside what is stored now) and a batch of
 * another course (the question to confirm). A full batch is said under Batch, with "Add a seat" beside it.
 */
export function refusalOf(
  error: unknown,
  form: FormRefusal["form"] | undefined,
  input: Record<string, unknown>,
): { refusal: FormRefusal; status: number } | null {
  if (!form || !isServiceError(error) || error.kind === "notFound") return null;
  if (form !== "log" && error.code !== EDIT_CONFLICT_CODE && error.code !== COURSE_CHANGE_CODE) return null;
  const typed: Record<string, string> = {};
  for (const key of CHOICES) {
    const value = Array.isArray(input[key]) ? (input[key] as unknown[])[0] : input[key];
    if (typeof value === "string") typed[key] = value;
  }
  const fields = error.code === BATCH_FULL_CODE ? { scheduleId: error.message } : error.fields;
  return { refusal: { form, code: error.code, message: error.message, fields, typed }, status: error.status };
}
