import { DELIVERY_MODES } from "~/schemas/values";
import { inTransaction } from "~db/client.server";
import { mediaImagesIn } from "~/util/syllabus-images";
import { deleteMediaUrl, discardUploads, type StoredUpload, type UploadErrorKind } from "~/infra/uploads.server";
import { deleteCourseRow, getCourse, getCourseBySlug, insertCourse, updateCourseRow, type Course, type CourseInput } from "~/models/course.server";
import { listUpcomingSchedules, scheduleIdsOfCourse, type Schedule } from "~/models/schedule.server";
import { stillReferenced } from "~/models/upload-references.server";
import { forgetBatches } from "./enquiries.server";
import { courseSchema } from "~/schemas/course";
import { isTrueFlag } from "~/schemas/fields";
import type { StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { notFound, ServiceError, type FieldMessages } from "./service-error";
import { fieldErrors, parseInput } from "./validation";
import { writeGuardSchema } from "~/schemas/write-guard";
import { changedMeanwhile, guardedWrite, type GuardedRecord } from "./write-guard.server";
import { readPublication } from "./publication.server";

/**
 * The course catalogue: the Add/Edit Course save with its image and syllabus file, and delete. The same rules
 * serve the course form (with or without JavaScript) and the API's multipart or JSON saves.
 */

/** A course save as received: the text fields, the files already streamed to disk and checked, and any file refused. */
export type CourseSubmission = {
  fields: Record<string, unknown>;
  files: StoredUpload[];
  fileErrors?: FieldMessages;
  fileErrorKinds?: Record<string, UploadErrorKind>;
};

const FILE_REFERENCE_MESSAGE: Record<"image" | "syllabusFile", string> = {
  image: "Image must be an uploaded file, or empty to remove it",
  syllabusFile: "Syllabus file must be an uploaded file, or empty to remove it",
};

/** The fields the audit log tells about, by their labels on the course form. */
const FIELDS = {
  title: "Title",
  category: "Category",
  duration: "Duration",
  description: "Description",
  featured: "Featured",
  highlights: "Highlights",
  modes: "Modes",
  image: "Course Image",
  syllabus: "Course Syllabus Content",
  syllabusFile: "Syllabus file",
  syllabusFileName: "Syllabus file name",
  fee: "Fee (₹)",
  feeIncludesGst: "GST included",
  state: "Publication",
  publishAt: "Publish at",
} as const;

/**
 * What the row's image or syllabus file becomes. A new upload wins; a remove request (the form's Remove
 * checkbox, or "" / null in the API) clears it; nothing, or the current value sent back, keeps it. Never any
 * other URL: nobody can point a course at (and later delete) a file they did not upload.
 */
function fileReference(field: "image" | "syllabusFile", s: CourseSubmission, current: string | null): string | null | Error {
  const upload = s.files.find((f) => f.field === field);
  if (upload) return upload.url;
  const removeFlag = field === "image" ? s.fields.removeImage : s.fields.removeSyllabusFile;
  if (isTrueFlag(removeFlag)) return null;
  const value = s.fields[field];
  if (value === undefined) return current;
  if (value === null || value === "") return null;
  if (typeof value === "string" && value.trim() === current) return current;
  return new Error(FILE_REFERENCE_MESSAGE[field]);
}

/** The checked row values, or a ServiceError naming every problem (a refused file first, as the form shows it). */
function toCourseInput(s: CourseSubmission, current: Course | null): CourseInput {
  const parsed = courseSchema.safeParse(s.fields);
  const fields: FieldMessages = { ...(s.fileErrors ?? {}) };
  const image = fileReference("image", s, current?.image ?? null);
  const syllabusFile = fileReference("syllabusFile", s, current?.syllabusFile ?? null);
  if (image instanceof Error) fields.image ??= image.message;
  if (syllabusFile instanceof Error) fields.syllabusFile ??= syllabusFile.message;
  const all = { ...fields, ...(parsed.success ? {} : fieldErrors(parsed.error)) };
  if (!parsed.success || Object.keys(fields).length) {
    const kinds = Object.values(s.fileErrorKinds ?? {});
    const kind = kinds.includes("size") ? "tooLarge" : kinds.length ? "unsupportedType" : "invalid";
    throw new ServiceError(kind, Object.values(fields)[0] ?? Object.values(all)[0], all);
  }
  const v = parsed.data;
  const newSyllabus = s.files.find((f) => f.field === "syllabusFile");
  return {
    title: v.title,
    category: v.category,
    description: v.description,
    duration: v.duration ?? "",
    featured: v.featured,
    highlights: v.highlights,
    // Only the modes the form offers; anything else is dropped.
    modes: v.modes.filter((m) => (DELIVERY_MODES as readonly string[]).includes(m)),
    // Not on the course form: kept unless a save (the API) sends the list.
    schedules: s.fields.schedules === undefined ? undefined : v.schedules,
    syllabus: v.syllabus ?? "",
    image: image as string | null,
    syllabusFile: syllabusFile as string | null,
    // A new file without a chosen download name keeps the name it was uploaded with.
    syllabusFileName: v.syllabusFileName ?? newSyllabus?.originalName ?? (current && syllabusFile ? current.syllabusFileName : ""),
    // Left out (an API client written before fees): kept; null or "" clears it.
    fee: v.fee === undefined ? (current?.fee ?? null) : v.fee,
    feeIncludesGst: s.fields.feeIncludesGst === undefined && current ? current.feeIncludesGst : v.feeIncludesGst,
    publication: readPublication(v),
  };
}

/** A course under the write rule (write-guard.server.ts): "This course was changed by … at … IST. Here is what it holds now." */
const courseRecord = (id: string): GuardedRecord<Course> => ({
  thing: "course",
  scope: "course",
  read: () => getCourse(id),
  notFoundName: "Course",
  answer: (now) => now,
});

/**
 * Add Course (id null) or Edit Course. The files were stored before this is called; the row (and, on edit,
 * the batches' copy of the title) is written in one transaction with its audit row. An edit drawn from an older
 * version (a colleague's save, a scheduled publish since) is refused with what the course holds now; a repeat of the
 * same form post changes nothing. When anything fails, or nothing is saved, every file of this save is removed
 * again; files the save replaced or removed are deleted only after the commit.
 */
export async function saveCourse(actor: StaffActor, id: string | null, submission: CourseSubmission): Promise<Course> {
  try {
    if (!id) {
      const input = toCourseInput(submission, null);
      return await inTransaction(async () => {
        const course = await insertCourse(input, { createdBy: actor.user.name });
        await record(actor, "create", "course", course.id, course.title);
        return course;
      });
    }
    const guard = parseInput(writeGuardSchema, submission.fields);
    const found = await getCourse(id);
    if (!found) throw notFound("Course");
    // A mistake in what was sent is reported before a stale version (the form can be corrected, then saved again).
    toCourseInput(submission, found);
    const target = courseRecord(id);
    let replaced: Course | null = null;
    const saved = await guardedWrite(
      target,
      guard,
      async (existing) => {
        const input = toCourseInput(submission, existing);
        const course =
          (await updateCourseRow(existing.id, input, { version: existing.version, updatedBy: actor.user.name })) ?? (await changedMeanwhile(target));
        await record(actor, "update", "course", course.id, changeSummary(existing, course, FIELDS));
        replaced = existing;
        return course;
      },
      (before) => before,
    );
    if (replaced) await removeReplacedFiles(replaced, saved);
    // A repeated post saved nothing: the files it brought are not the course's.
    else await discardUploads(submission.files);
    return saved;
  } catch (error) {
    await discardUploads(submission.files);
    throw error;
  }
}

/** Deletes the course and its batches, then every file it named that no other row names. */
export async function deleteCourse(actor: StaffActor, id: string): Promise<Course> {
  const deleted = await inTransaction(async () => {
    // Its batches go with it; enquiries stop naming them.
    await forgetBatches(await scheduleIdsOfCourse(id));
    const course = await deleteCourseRow(id);
    if (!course) throw notFound("Course");
    await record(actor, "delete", "course", id, course.title);
    return course;
  });
  await deleteUnreferenced([deleted.image, deleted.syllabusFile, ...mediaImagesIn(deleted.syllabus)]);
  return deleted;
}

/** After the row is saved: files the course no longer names (image, syllabus file, syllabus images), unless another row names them. */
async function removeReplacedFiles(before: Course, after: Course) {
  const gone: string[] = [];
  if (before.image && before.image !== after.image) gone.push(before.image);
  if (before.syllabusFile && before.syllabusFile !== after.syllabusFile) gone.push(before.syllabusFile);
  const still = new Set(mediaImagesIn(after.syllabus));
  for (const url of mediaImagesIn(before.syllabus)) if (!still.has(url) && url !== after.image) gone.push(url);
  await deleteUnreferenced(gone);
}

const uploadId = (url: string) => /\/([a-f0-9]{32})\.[a-z0-9]+$/.exec(url)?.[1];

async function deleteUnreferenced(urls: (string | null | undefined)[]) {
  const candidates = urls.filter((url): url is string => typeof url === "string" && uploadId(url) !== undefined);
  if (!candidates.length) return;
  // The row is already saved: a failed check keeps the files (the orphan sweep looks again later).
  const kept = await stillReferenced(candidates.map((url) => uploadId(url)!)).catch((e: unknown) => {
    console.error("Checking which course files are still used failed:", e);
    return new Set(candidates.map((url) => uploadId(url)!));
  });
  const gone = candidates.filter((url) => !kept.has(uploadId(url)!));
  await Promise.all(gone.map((url) => deleteMediaUrl(url).catch((e) => console.error("Removing", url, "failed:", e))));
}

/**
 * A course's public page: a published course and its upcoming public batches for anyone; an unpublished one only
 * for signed-in staff, as a preview (with every batch of it). `isStaff` is asked only when the course is not
 * public, so a visitor's request never reads a session. Null: Not Found for this viewer.
 */
export async function coursePage(slug: string, isStaff: () => Promise<boolean>): Promise<{ course: Course; batches: Schedule[]; preview: boolean } | null> {
  const published = await getCourseBySlug(slug);
  const course = published ?? ((await isStaff()) ? await getCourseBySlug(slug, "staff") : null);
  if (!course) return null;
  const batches = await listUpcomingSchedules({ course: course.id, audience: published ? "public" : "staff" });
  return { course, batches, preview: !published };
}
