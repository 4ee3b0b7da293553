import type { AppLoadContext } from "react-router";
import { data } from "react-router";
import { CONTACT_FAILED } from "~/schemas/contact";
import {
  ENQUIRY_FAILED,
  ENQUIRY_FILE_COUNT_MESSAGE,
  ENQUIRY_FILE_MAX_BYTES,
  ENQUIRY_FILE_SIZE_MESSAGE,
  ENQUIRY_FILE_TYPE_MESSAGE,
  ENQUIRY_MAX_FILES,
} from "~/schemas/enquiry";
import type { Actor } from "~/services/actor";
import { submitContactQuery } from "~/services/contact-queries.server";
import { ATTACHMENT_FIELD, enquiryConfirmation, submitEnquiry, type EnquiryChannel } from "~/services/enquiry-submissions.server";
import { admitFormSubmission } from "~/services/form-throttle.server";
import { isServiceError } from "~/services/service-error";
import { enquiryWaitlistStatus, offerHours } from "~/services/waitlist.server";
import { waitlistPlaceText } from "~/util/waitlist-text";
import { visitorActor } from "./actor.server";
import { formToObject } from "./api-body.server";
import { leadSourceFromCookieHeader } from "~/util/lead-source";
import { replyWithErrors } from "./form-submission";
import { retryAfterHeaders } from "~/infra/rate-limit.server";
import { HONEYPOT_FIELD, type SiteFormResult } from "./site-forms";
import {
  BadMultipartError,
  discardUploads,
  isMultipart,
  parseMultipart,
  RequestTooLargeError,
  type StoredUpload,
  type UploadRule,
} from "~/infra/uploads.server";

/**
 * The public forms' actions (enquiry and contact) for the home page, /enquiry and /contact: HTTP in, the
 * services (app/services) for the rules, the forms' answer out. The attempt is counted against the per-IP
 * limit before anything else, so an upload flood is refused before a file is stored or decoded. A reply
 * that says success is sent only after the row has committed.
 */

export const ENQUIRY_UPLOAD_RULE: UploadRule = {
  field: ATTACHMENT_FIELD,
  kind: "attachment",
  maxBytes: ENQUIRY_FILE_MAX_BYTES,
  maxFiles: ENQUIRY_MAX_FILES,
  sizeMessage: ENQUIRY_FILE_SIZE_MESSAGE,
  typeMessage: ENQUIRY_FILE_TYPE_MESSAGE,
  countMessage: ENQUIRY_FILE_COUNT_MESSAGE,
};
/** Three full-size files plus the text fields; anything bigger is refused before it is read. */
const ENQUIRY_MAX_BODY = ENQUIRY_MAX_FILES * ENQUIRY_FILE_MAX_BYTES + 512 * 1024;
export const REATTACH_MESSAGE = "Please attach your files again.";

export function isBot(formData: FormData): boolean {
  const trap = formData.get(HONEYPOT_FIELD);
  return typeof trap === "string" && trap.trim() !== "";
}

type Intent = SiteFormResult["intent"];

function success(intent: Intent, done?: SiteFormResult["done"]) {
  return { intent, status: "success", submission: { initialValue: null }, ...(done ? { done } : {}) } satisfies SiteFormResult;
}

function failure(intent: Intent, status: number, result: Omit<SiteFormResult, "intent" | "status">, headers?: HeadersInit) {
  return data({ intent, status: "error", ...result } satisfies SiteFormResult, { status, headers });
}

/**
 * The form's answer when the service refused or failed: the spec's messages per field and the typed values
 * back. Files never come back: a refused file has its message, and files sent with a form refused for
 * another reason must be attached again.
 */
function refused(intent: Intent, error: unknown, form: FormData, failureMessage: string | undefined, hadFiles = false) {
  if (isServiceError(error, "invalid")) {
    const { [ATTACHMENT_FIELD]: fileError, ...fields } = error.fields;
    return failure(intent, 400, { submission: replyWithErrors(form, fields), fileError: fileError ?? (hadFiles ? REATTACH_MESSAGE : undefined) });
  }
  if (isServiceError(error, "tooMany")) {
    return failure(intent, 429, { submission: replyWithErrors(form, {}), formError: error.message }, retryAfterHeaders({ retryAfter: error.retryAfter ?? 60 }));
  }
  console.error(`Failed to store ${intent === "enquiry" ? "an enquiry" : "a contact query"}`, error);
  return failure(intent, 500, { submission: replyWithErrors(form, {}), formError: failureMessage });
}

/**
 * Counts the attempt; when over the limit, answers 429 with what was typed (read without storing any file).
 * Returns null when the submission may go on.
 */
async function throttled(intent: Intent, actor: Actor, read: () => Promise<FormData>) {
  try {
    await admitFormSubmission(actor, intent);
    return null;
  } catch (error) {
    if (!isServiceError(error, "tooMany")) throw error;
    const form = await read().catch(() => new FormData());
    return refused(intent, error, form, undefined);
  }
}

/** The contact form. The home page has read the body already (to tell its two forms apart). */
export async function contactAction(request: Request, context: AppLoadContext, read: () => Promise<FormData> = () => request.formData()) {
  const actor = visitorActor(context);
  const limited = await throttled("contact", actor, read);
  if (limited) return limited;
  const form = await read();
  if (isBot(form)) return success("contact");
  try {
    // The home page's form or /contact's: the consent rows say which.
    await submitContactQuery(actor, formToObject(form), { channel: new URL(request.url).pathname === "/" ? "home" : "contact-page" });
  } catch (error) {
    return refused("contact", error, form, CONTACT_FAILED);
  }
  return success("contact");
}

/**
 * The enquiry form. On /enquiry (`channel: "enquiry-page"`) the body is multipart and up to three files are
 * stored; the home page's form has no file field. `failureMessage` is what a failed insert shows (the home page shows none).
 */
export async function enquiryAction(
  request: Request,
  context: AppLoadContext,
  opts: { channel: Exclude<EnquiryChannel, "api">; failureMessage?: string; read?: () => Promise<FormData> },
) {
  const actor = visitorActor(context);
  const multipart = opts.channel === "enquiry-page" && isMultipart(request);
  // Over the limit, the files of a multipart body are skipped unread: only the text fields come back.
  const readTextOnly = opts.read ?? (() => (multipart ? parseMultipart(request, []).then((r) => r.formData) : request.formData()));
  const limited = await throttled("enquiry", actor, readTextOnly);
  if (limited) return limited;

  let form: FormData;
  let files: StoredUpload[] = [];
  let fileError: string | undefined;
  if (opts.read) form = await opts.read();
  else if (multipart) {
    try {
      const parsed = await parseMultipart(request, [ENQUIRY_UPLOAD_RULE], { maxBytes: ENQUIRY_MAX_BODY });
      form = parsed.formData;
      files = parsed.files;
      fileError = parsed.errors[ATTACHMENT_FIELD];
    } catch (error) {
      if (error instanceof RequestTooLargeError) return failure("enquiry", 413, { submission: { initialValue: null }, fileError: ENQUIRY_FILE_SIZE_MESSAGE });
      if (error instanceof BadMultipartError)
        return failure("enquiry", 400, { submission: { initialValue: null }, formError: opts.failureMessage ?? ENQUIRY_FAILED });
      throw error;
    }
  } else form = await request.formData();

  if (isBot(form)) {
    await discardUploads(files);
    return success("enquiry");
  }
  let saved;
  try {
    const source = leadSourceFromCookieHeader(request.headers.get("Cookie"));
    saved = await submitEnquiry(actor, formToObject(form), { channel: opts.channel, files, fileError, source });
  } catch (error) {
    return refused("enquiry", error, form, opts.failureMessage, files.length > 0);
  }
  const confirmation = await enquiryConfirmation(saved);
  // Joined a full batch's waitlist: say so, with the place and how a freed seat reaches them (not "registered").
  const place = saved.scheduleId && !confirmation.title ? await enquiryWaitlistStatus(saved.id) : null;
  if (place?.status === "waiting")
    return success("enquiry", { ...confirmation, title: "You are on the waitlist", text: waitlistPlaceText(place, offerHours()) });
  return success("enquiry", confirmation);
}
