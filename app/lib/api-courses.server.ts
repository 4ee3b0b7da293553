import { courseSchema, IMAGE_MAX_BYTES, SYLLABUS_MAX_BYTES } from "~/schemas/course";
import { createCourse, getCourse, updateCourse, type Course, type CourseInput } from "~/models/course.server";
import { COURSE_MODES, COURSE_UPLOAD_RULES, removeReplacedFiles } from "./admin/course-save.server";
import { ApiError, fieldErrors, invalid, notFound, type Fields } from "./api.server";
import { formToObject, isMultipartRequest, readBody, safeBody } from "./api-body.server";
import { discardUploads, parseMultipart, type StoredUpload } from "./uploads.server";

/**
 * Course saves over the API (spec §7): multipart/form-data with the files in `image` and `syllabusFile`
 * and the lists as indexed entries, or a JSON body when no file is sent. Files are streamed to disk and
 * checked by content before anything is saved; a failed save leaves no new file behind, and files a save
 * replaced or removed are deleted only after the row no longer names them. The upload rules, the modes and
 * the clean-up are the Manage Courses screen's own (app/lib/admin/course-save.server.ts).
 */

const FILE_REFERENCE_MESSAGE: Record<"image" | "syllabusFile", string> = {
  image: "Image must be an uploaded file, or empty to remove it",
  syllabusFile: "Syllabus file must be an uploaded file, or empty to remove it",
};

/**
 * A course save is at most one image, one syllabus file and the text fields. Refusing beyond that here,
 * below the server's general multipart cap, answers 413 before any other limit is reached.
 */
export const COURSE_MULTIPART_MAX_BYTES = IMAGE_MAX_BYTES + SYLLABUS_MAX_BYTES + 1024 * 1024;

type Received = { input: Record<string, unknown>; files: StoredUpload[] };

async function receive(request: Request): Promise<Received> {
  if (!isMultipartRequest(request)) return { input: await readBody(request), files: [] };
  const { formData, files, errors, errorKinds } = await parseMultipart(safeBody(request), COURSE_UPLOAD_RULES, { maxBytes: COURSE_MULTIPART_MAX_BYTES });
  const input = formToObject(formData);
  if (Object.keys(errors).length) {
    // parseMultipart kept none of the files; report the text fields' problems alongside the file's.
    const checked = courseSchema.safeParse(input);
    const fields: Fields = { ...(checked.success ? {} : fieldErrors(checked.error)), ...errors };
    const tooLarge = Object.values(errorKinds).includes("size");
    throw new ApiError(tooLarge ? 413 : 415, tooLarge ? "payload_too_large" : "unsupported_media_type", Object.values(errors)[0], fields);
  }
  return { input, files };
}

/**
 * What the row's image or syllabus file becomes: a new upload wins; an absent value, or the current value
 * sent back, keeps the current one; "" or null removes it. Like the screens, never any other URL: a client
 * cannot point a course at (and later delete) a file it did not upload.
 */
function fileReference(field: "image" | "syllabusFile", input: Record<string, unknown>, files: StoredUpload[], current: string | null): string | null | Error {
  const upload = files.find((f) => f.field === field);
  if (upload) return upload.url;
  const value = input[field];
  if (value === undefined) return current;
  if (value === null || value === "") return null;
  if (typeof value === "string" && value.trim() === current) return current;
  return new Error(FILE_REFERENCE_MESSAGE[field]);
}

function toInput(input: Record<string, unknown>, files: StoredUpload[], current: Course | null): CourseInput {
  const parsed = courseSchema.safeParse(input);
  const fields: Fields = parsed.success ? {} : fieldErrors(parsed.error);
  const image = fileReference("image", input, files, current?.image ?? null);
  const syllabusFile = fileReference("syllabusFile", input, files, current?.syllabusFile ?? null);
  if (image instanceof Error) fields.image = image.message;
  if (syllabusFile instanceof Error) fields.syllabusFile = syllabusFile.message;
  if (!parsed.success || Object.keys(fields).length) throw invalid(fields);
  const values = parsed.data;
  const newSyllabus = files.find((f) => f.field === "syllabusFile");
  return {
    ...values,
    // The screen offers these modes only; anything else is dropped the same way.
    modes: values.modes.filter((m) => (COURSE_MODES as readonly string[]).includes(m)),
    duration: values.duration ?? "",
    syllabus: values.syllabus ?? "",
    image: image as string | null,
    syllabusFile: syllabusFile as string | null,
    // A new file without a chosen download name keeps the name it was uploaded with.
    syllabusFileName: values.syllabusFileName ?? newSyllabus?.originalName ?? (current && syllabusFile ? current.syllabusFileName : ""),
  };
}

export async function createCourseFromRequest(request: Request): Promise<Course> {
  const { input, files } = await receive(request);
  try {
    return await createCourse(toInput(input, files, null));
  } catch (error) {
    await discardUploads(files);
    throw error;
  }
}

export async function updateCourseFromRequest(request: Request, id: string): Promise<Course> {
  const current = await getCourse(id);
  if (!current) throw notFound("Course");
  const { input, files } = await receive(request);
  let saved: Course | null;
  try {
    saved = await updateCourse(id, toInput(input, files, current));
  } catch (error) {
    await discardUploads(files);
    throw error;
  }
  if (!saved) {
    await discardUploads(files);
    throw notFound("Course");
  }
  await removeReplacedFiles(current, saved);
  return saved;
}
