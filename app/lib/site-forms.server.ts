import { parseWithSchema } from "~/lib/form-submission";
import { data } from "react-router";
import { HONEYPOT_FIELD } from "~/components/ui/field";
import { createContactQuery } from "~/models/contact-query.server";
import { createEnquiry } from "~/models/enquiry.server";
import { CONTACT_FAILED, contactSchema } from "~/schemas/contact";
import {
  ENQUIRY_FAILED,
  ENQUIRY_FILE_COUNT_MESSAGE,
  ENQUIRY_FILE_MAX_BYTES,
  ENQUIRY_FILE_SIZE_MESSAGE,
  ENQUIRY_FILE_TYPE_MESSAGE,
  ENQUIRY_MAX_FILES,
  enquiryFormSchema,
} from "~/schemas/enquiry";
import { consumeFormAttempt, RATE_LIMIT_MESSAGE, retryAfterHeaders } from "./rate-limit.server";
import {
  BadMultipartError,
  discardUploads,
  isMultipart,
  parseMultipart,
  RequestTooLargeError,
  type StoredUpload,
  type UploadRule,
} from "./uploads.server";
import type { SiteFormResult } from "./site-forms";

/**
 * The public forms' actions (enquiry and contact), shared by the home page and /enquiry and /contact.
 * Order: drop bots, validate, count against the rate limit, then store in one insert. A reply that says
 * success is sent only after the insert has committed.
 */

export const ATTACHMENT_FIELD = "filePaths";

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

function success(intent: Intent) {
  return { intent, status: "success", submission: { initialValue: null } } satisfies SiteFormResult;
}

function failure(intent: Intent, status: number, result: Omit<SiteFormResult, "intent" | "status">, headers?: HeadersInit) {
  return data({ intent, status: "error", ...result } satisfies SiteFormResult, { status, headers });
}

export async function contactAction(formData: FormData, clientIp: string) {
  if (isBot(formData)) return success("contact");
  const submission = parseWithSchema(formData, contactSchema);
  if (submission.status !== "success") return failure("contact", 400, { submission: submission.reply() });
  const limit = await consumeFormAttempt(clientIp, "contact");
  if (!limit.ok) {
    return failure("contact", 429, { submission: submission.reply(), formError: RATE_LIMIT_MESSAGE }, retryAfterHeaders(limit));
  }
  try {
    await createContactQuery(submission.value);
  } catch (error) {
    console.error("Failed to store a contact query", error);
    return failure("contact", 500, { submission: submission.reply(), formError: CONTACT_FAILED });
  }
  return success("contact");
}

/**
 * The enquiry form. `withAttachments` (the /enquiry page) reads a multipart body and stores up to three files;
 * the home page's form has no file field. `failureMessage` is what a failed insert shows (the home page shows none).
 */
export async function enquiryAction(
  request: Request,
  clientIp: string,
  opts: { withAttachments: boolean; failureMessage?: string; formData?: FormData },
) {
  let formData: FormData;
  let files: StoredUpload[] = [];
  let fileError: string | undefined;
  if (opts.formData) formData = opts.formData;
  else if (opts.withAttachments && isMultipart(request)) {
    try {
      const parsed = await parseMultipart(request, [ENQUIRY_UPLOAD_RULE], { maxBytes: ENQUIRY_MAX_BODY });
      formData = parsed.formData;
      files = parsed.files;
      fileError = parsed.errors[ATTACHMENT_FIELD];
    } catch (error) {
      if (error instanceof RequestTooLargeError) {
        return failure("enquiry", 413, { submission: { initialValue: null }, fileError: ENQUIRY_FILE_SIZE_MESSAGE });
      }
      if (error instanceof BadMultipartError) {
        return failure("enquiry", 400, { submission: { initialValue: null }, formError: opts.failureMessage ?? ENQUIRY_FAILED });
      }
      throw error;
    }
  } else formData = await request.formData();

  if (isBot(formData)) {
    await discardUploads(files);
    return success("enquiry");
  }
  const submission = parseWithSchema(formData, enquiryFormSchema);
  if (submission.status !== "success" || fileError) {
    // Nothing is half-saved: files that came with an invalid form are removed, and the visitor is told to re-attach.
    const hadFiles = files.length > 0;
    await discardUploads(files);
    return failure("enquiry", 400, { submission: submission.reply(), fileError: fileError ?? (hadFiles ? REATTACH_MESSAGE : undefined) });
  }
  const limit = await consumeFormAttempt(clientIp, "enquiry");
  if (!limit.ok) {
    await discardUploads(files);
    return failure("enquiry", 429, { submission: submission.reply(), formError: RATE_LIMIT_MESSAGE }, retryAfterHeaders(limit));
  }
  try {
    await createEnquiry({ ...submission.value, filePaths: files.map((f) => f.storedName) });
  } catch (error) {
    console.error("Failed to store an enquiry", error);
    await discardUploads(files);
    return failure("enquiry", 500, { submission: submission.reply(), formError: opts.failureMessage });
  }
  return success("enquiry");
}
