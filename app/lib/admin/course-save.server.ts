import { parseWithSchema } from "~/lib/form-submission";
import type { SubmissionResult } from "@conform-to/react";
import {
  BadMultipartError,
  deleteMediaUrl,
  discardUploads,
  isMultipart,
  parseMultipart,
  RequestTooLargeError,
  type StoredUpload,
  type UploadRule,
} from "~/lib/uploads.server";
import { createCourse, updateCourse, type Course, type CourseInput } from "~/models/course.server";
import { stillReferenced } from "~/models/upload-references.server";
import {
  COURSE_SAVE_FAILED,
  courseSchema,
  IMAGE_MAX_BYTES,
  IMAGE_SIZE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  SYLLABUS_MAX_BYTES,
  SYLLABUS_SIZE_MESSAGE,
  SYLLABUS_TYPE_MESSAGE,
} from "~/schemas/course";
import { mediaImagesIn } from "./syllabus-images";

export const COURSE_UPLOAD_RULES: UploadRule[] = [
  { field: "image", kind: "image", maxBytes: IMAGE_MAX_BYTES, sizeMessage: IMAGE_SIZE_MESSAGE, typeMessage: IMAGE_TYPE_MESSAGE },
  { field: "syllabusFile", kind: "syllabus", maxBytes: SYLLABUS_MAX_BYTES, sizeMessage: SYLLABUS_SIZE_MESSAGE, typeMessage: SYLLABUS_TYPE_MESSAGE },
];

/** Told to the user when a form came back (validation or a highlight button without JavaScript) after files were chosen. */
export const FILES_NOT_KEPT = "Files are kept only when the course is saved: choose the image or syllabus file again.";

export const COURSE_MODES = ["online", "offline", "hybrid"] as const;

export type CourseSaveOutcome =
  | { ok: true; course: Course }
  | { ok: false; status: number; result: SubmissionResult<string[]> | null; message: string | null; notice: string | null };

/**
 * The Add/Edit Course save, shared by the form's action (no JavaScript) and the upload endpoint the
 * form uses with JavaScript (for the progress bar). Files are streamed to disk and checked by content;
 * the row is written in one statement (one transaction on update); when anything fails, every file this
 * request stored is removed again, and a replaced or removed file is deleted only after the row is saved.
 */
export async function saveCourse(request: Request, existing: Course | null): Promise<CourseSaveOutcome> {
  let formData: FormData;
  let files: StoredUpload[] = [];
  let fileErrors: Record<string, string> = {};
  try {
    if (isMultipart(request)) {
      const parsed = await parseMultipart(request, COURSE_UPLOAD_RULES);
      ({ formData, files } = parsed);
      fileErrors = parsed.errors;
    } else {
      formData = await request.formData();
    }
  } catch (error) {
    if (error instanceof RequestTooLargeError || error instanceof BadMultipartError) {
      return { ok: false, status: error.status, result: null, message: error.message, notice: null };
    }
    throw error;
  }

  keepLastHighlight(formData);
  const submission = parseWithSchema(formData, courseSchema);
  try {
    if (submission.status !== "success" || Object.keys(fileErrors).length) {
      const notice = files.length > 0 ? FILES_NOT_KEPT : null;
      await discardUploads(files);
      files = [];
      // A highlight add/remove without JavaScript: not an error, just the form again with the list changed.
      if (submission.status === undefined) {
        return { ok: false, status: 200, result: submission.reply(), message: null, notice };
      }
      const schemaErrors = submission.status === "error" ? (submission.error ?? {}) : {};
      const fieldErrors: Record<string, string[]> = { ...Object.fromEntries(Object.entries(schemaErrors).filter((e): e is [string, string[]] => Array.isArray(e[1]))), ...toLists(fileErrors) };
      const result = submission.reply({ fieldErrors, formErrors: [] });
      const first = Object.values(fileErrors)[0] ?? Object.values(fieldErrors).flat().find(Boolean) ?? COURSE_SAVE_FAILED;
      return { ok: false, status: 400, result, message: first, notice };
    }

    const v = submission.value;
    const image = files.find((f) => f.field === "image");
    const syllabusFile = files.find((f) => f.field === "syllabusFile");
    const removeImage = formData.get("removeImage") === "on";
    const removeSyllabusFile = formData.get("removeSyllabusFile") === "on";
    const modes = formData.getAll("modes").filter((m): m is (typeof COURSE_MODES)[number] => (COURSE_MODES as readonly string[]).includes(String(m)));
    const input: CourseInput = {
      title: v.title,
      category: v.category,
      description: v.description,
      duration: v.duration ?? "",
      featured: v.featured,
      highlights: v.highlights,
      modes,
      syllabus: v.syllabus ?? "",
      // Never a URL from the browser: only a file this request stored, the stored one, or none.
      image: image ? image.url : removeImage ? null : (existing?.image ?? null),
      syllabusFile: syllabusFile ? syllabusFile.url : removeSyllabusFile ? null : (existing?.syllabusFile ?? null),
      syllabusFileName: syllabusFile ? syllabusFile.originalName : removeSyllabusFile ? "" : (existing?.syllabusFileName ?? ""),
    };
    const course = existing ? await updateCourse(existing.id, input) : await createCourse(input);
    if (!course) {
      await discardUploads(files);
      return { ok: false, status: 404, result: submission.reply({ formErrors: [COURSE_SAVE_FAILED] }), message: COURSE_SAVE_FAILED, notice: null };
    }
    if (existing) await removeReplacedFiles(existing, course);
    return { ok: true, course };
  } catch (error) {
    await discardUploads(files);
    console.error("[admin] saving a course failed:", error);
    // Typed values come back (passwords aside there is nothing to hide); chosen files are gone.
    const result = submission.reply({ formErrors: [COURSE_SAVE_FAILED] });
    return { ok: false, status: 500, result, message: COURSE_SAVE_FAILED, notice: files.length ? FILES_NOT_KEPT : null };
  }
}

function toLists(errors: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [v]]));
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

/** After the row is saved: files the course no longer names are deleted (image, syllabus file, syllabus images), unless another row names them. */
export async function removeReplacedFiles(before: Course, after: Course) {
  const gone: string[] = [];
  if (before.image && before.image !== after.image) gone.push(before.image);
  if (before.syllabusFile && before.syllabusFile !== after.syllabusFile) gone.push(before.syllabusFile);
  const still = new Set(mediaImagesIn(after.syllabus));
  for (const url of mediaImagesIn(before.syllabus)) if (!still.has(url) && url !== after.image) gone.push(url);
  await deleteUnreferenced(gone);
}

/** Every file a deleted course named, unless another row names it too. */
export async function removeCourseFiles(course: Course) {
  await deleteUnreferenced([course.image, course.syllabusFile, ...mediaImagesIn(course.syllabus)]);
}

const uploadId = (url: string) => /\/([a-f0-9]{32})\.[a-z0-9]+$/.exec(url)?.[1];

async function deleteUnreferenced(urls: (string | null | undefined)[]) {
  const candidates = urls.filter((url): url is string => typeof url === "string" && uploadId(url) !== undefined);
  if (!candidates.length) return;
  // The row is already saved: a failed check keeps the files (the orphan sweep looks again later).
  const kept = await stillReferenced(candidates.map((url) => uploadId(url)!)).catch((e: unknown) => {
    console.error("[admin] checking which files are still used failed:", e);
    return new Set(candidates.map((url) => uploadId(url)!));
  });
  const gone = candidates.filter((url) => !kept.has(uploadId(url)!));
  await Promise.all(gone.map((url) => deleteMediaUrl(url).catch((e) => console.error("[admin] removing", url, "failed:", e))));
}
