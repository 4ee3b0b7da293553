import type { SubmissionResult } from "@conform-to/react";
import type { Course } from "~/models/course.server";
import type { StaffActor } from "~/services/actor";
import { saveCourse, type CourseSubmission } from "~/services/courses.server";
import { isServiceError } from "~/services/service-error";
import {
  courseSchema,
  COURSE_FIELD_LABELS,
  COURSE_SAVE_FAILED,
  IMAGE_MAX_BYTES,
  IMAGE_SIZE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  SYLLABUS_MAX_BYTES,
  SYLLABUS_SIZE_MESSAGE,
  SYLLABUS_TYPE_MESSAGE,
} from "~/schemas/course";
import { formToObject, readApiBody, refuseFileParts, safeBody } from "./api-body.server";
import { cleanedReply, parseWithSchema, replyWithErrors } from "./form-submission";
import { editConflictShown } from "./admin-actions.server";
import type { EditConflict } from "./edit-conflict";
import { EDIT_CONFLICT_CODE } from "~/schemas/write-guard";
import { BadMultipartError, discardUploads, isMultipart, parseMultipart, RequestTooLargeError, type UploadRule } from "~/infra/uploads.server";

/**
 * A course save as it arrives over HTTP, for the course form (its no-JavaScript post and its progress-reporting
 * upload) and for the API: multipart with the image and syllabus file streamed to disk and checked by content,
 * or a plain form / JSON body. The rules of the save itself are app/services/courses.server.ts.
 */

/** A course image; images inserted in the syllabus editor follow the same rule. */
export const COURSE_IMAGE_RULE: UploadRule = {
  field: "image",
  kind: "image",
  maxBytes: IMAGE_MAX_BYTES,
  sizeMessage: IMAGE_SIZE_MESSAGE,
  typeMessage: IMAGE_TYPE_MESSAGE,
};
export const COURSE_SYLLABUS_RULE: UploadRule = {
  field: "syllabusFile",
  kind: "syllabus",
  maxBytes: SYLLABUS_MAX_BYTES,
  sizeMessage: SYLLABUS_SIZE_MESSAGE,
  typeMessage: SYLLABUS_TYPE_MESSAGE,
};
export const COURSE_UPLOAD_RULES: UploadRule[] = [COURSE_IMAGE_RULE, COURSE_SYLLABUS_RULE];

/**
 * A course save is at most one image, one syllabus file and the text fields. Refusing beyond that here,
 * below the server's general multipart cap, answers 413 before any other limit is reached.
 */
export const COURSE_MULTIPART_MAX_BYTES = IMAGE_MAX_BYTES + SYLLABUS_MAX_BYTES + 1024 * 1024;

/** The course form's post: its FormData (for conform's replies) and the submission for the service. */
export async function receiveCourseForm(request: Request): Promise<{ form: FormData; submission: CourseSubmission }> {
  if (!isMultipart(request)) {
    const form = await request.formData();
    return { form, submission: { fields: formToObject(form), files: [] } };
  }
  const { formData, files, errors, errorKinds } = await parseMultipart(safeBody(request), COURSE_UPLOAD_RULES, { maxBytes: COURSE_MULTIPART_MAX_BYTES });
  return { form: formData, submission: { fields: formToObject(formData), files, fileErrors: errors, fileErrorKinds: errorKinds } };
}

/** An API course save: multipart with files, or a JSON / form body when no file is sent. */
export async function receiveCourseApiBody(request: Request): Promise<CourseSubmission> {
  if (!isMultipart(request)) return { fields: await readApiBody(request), files: [] };
  const { formData, files, errors, errorKinds, unexpectedFiles } = await parseMultipart(safeBody(request), COURSE_UPLOAD_RULES, {
    maxBytes: COURSE_MULTIPART_MAX_BYTES,
  });
  if (unexpectedFiles.length) {
    await discardUploads(files);
    refuseFileParts(unexpectedFiles);
  }
  return { fields: formToObject(formData), files, fileErrors: errors, fileErrorKinds: errorKinds };
}

/** Told to the user when a form came back (validation or a highlight button without JavaScript) after files were chosen. */
export const FILES_NOT_KEPT = "Files are kept only when the course is saved: choose the image or syllabus file again.";

export type CourseFormOutcome =
  | { ok: true; course: Course }
  | { ok: false; status: number; result: SubmissionResult<string[]> | null; message: string | null; notice: string | null; conflict?: EditConflict };

/**
 * The Add/Edit Course form's post, for its no-JavaScript action and its progress-reporting upload endpoint:
 * receive, then either redraw the form (a highlight added or removed without JavaScript) or save through the
 * service and translate its answer.
 */
export async function submitCourseForm(request: Request, actor: StaffActor, id: string | null): Promise<CourseFormOutcome> {
  let received: Awaited<ReturnType<typeof receiveCourseForm>>;
  try {
    received = await receiveCourseForm(request);
  } catch (error) {
    if (error instanceof RequestTooLargeError || error instanceof BadMultipartError)
      return { ok: false, status: error.status, result: null, message: error.message, notice: null };
    throw error;
  }
  const { form, submission } = received;
  keepLastHighlight(form);
  const parsed = parseWithSchema(form, courseSchema);
  if (parsed.status === undefined) {
    // A highlight add/remove without JavaScript: not an error, just the form again with the list changed.
    await discardUploads(submission.files);
    return { ok: false, status: 200, result: cleanedReply(parsed.reply()), message: null, notice: submission.files.length ? FILES_NOT_KEPT : null };
  }
  try {
    return { ok: true, course: await saveCourse(actor, id, submission) };
  } catch (error) {
    return { ok: false, ...courseFormFailure(error, form, submission.files.length > 0) };
  }
}

type CourseFormFailure = { status: number; result: SubmissionResult<string[]> | null; message: string | null; notice: string | null; conflict?: EditConflict };

/**
 * What the course form shows when the save was refused or failed: the typed values, the messages, and whether files
 * must be chosen again; refused because the course changed meanwhile, the form is drawn again from what it holds now
 * with what was typed beside it.
 */
function courseFormFailure(error: unknown, form: FormData, hadFiles: boolean): CourseFormFailure {
  const notice = hadFiles ? FILES_NOT_KEPT : null;
  if (isServiceError(error, "forbidden")) throw new Response(error.message, { status: 403 });
  if (isServiceError(error) && error.code === EDIT_CONFLICT_CODE) {
    return { status: 409, result: null, message: null, notice, conflict: editConflictShown(error, form, { labels: COURSE_FIELD_LABELS }) };
  }
  if (isServiceError(error) && ["invalid", "tooLarge", "unsupportedType"].includes(error.kind)) {
    return { status: 400, result: replyWithErrors(form, error.fields), message: error.message, notice };
  }
  if (isServiceError(error, "notFound"))
    return { status: 404, result: replyWithErrors(form, {}, { formErrors: [COURSE_SAVE_FAILED] }), message: COURSE_SAVE_FAILED, notice: null };
  console.error("[admin] saving a course failed:", error);
  return { status: 500, result: replyWithErrors(form, {}, { formErrors: [COURSE_SAVE_FAILED] }), message: COURSE_SAVE_FAILED, notice };
}

/** The last highlight cannot be removed (spec §5): a remove button posted for the only entry is ignored. */
function keepLastHighlight(formData: FormData) {
  const raw = formData.get("__intent__");
  if (typeof raw !== "string") return;
  try {
    const intent = JSON.parse(raw) as { type?: string; payload?: { name?: string } };
    const count = [...formData.keys()].filter((k) => /^highlights\[\d+\]$/.test(k)).length;
    if (intent.type === "remove" && intent.payload?.name === "highlights" && count <= 1) formData.delete("__intent__");
  } catch {
    formData.delete("__intent__");
  }
}
