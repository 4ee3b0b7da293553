import * as z from "zod/mini";
import { choice, flag, optionalText, requiredText, textList } from "./fields";
import { COURSE_CATEGORIES } from "./public-values";
import { publicationFields } from "./publication";
import { optionalFee } from "./fee";

/**
 * A course's text fields. The image and the syllabus file are checked by the upload parser
 * (app/infra/uploads.server.ts) with the messages below.
 */
export const courseSchema = z.object({
  title: requiredText("Title is required", 200, "Title"),
  category: choice(COURSE_CATEGORIES, "Category is required"),
  description: requiredText("Description is required", 5000, "Description", "multi"),
  duration: optionalText(100, "Duration"),
  featured: flag(false),
  highlights: textList(20, 200, "Highlights"),
  modes: textList(5, 50, "Modes"),
  schedules: textList(20, 200, "Schedules"),
  syllabus: optionalText(200_000, "Syllabus", "multi"),
  syllabusFileName: optionalText(255, "Syllabus file name"),
  fee: optionalFee,
  feeIncludesGst: flag(true),
  ...publicationFields,
});

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPE_MESSAGE = "Please select an image file (JPEG, PNG, etc.)";
export const IMAGE_SIZE_MESSAGE = "Image file size should be less than 5MB";
export const SYLLABUS_MAX_BYTES = 10 * 1024 * 1024;
export const SYLLABUS_TYPE_MESSAGE = "Please select a valid syllabus file (PDF, DOC, or DOCX)";
export const SYLLABUS_SIZE_MESSAGE = "Syllabus file size should be less than 10MB";

export const COURSE_LOAD_FAILED = "Failed to load courses. Please try again.";
export const COURSE_SAVE_FAILED = "Failed to save course. Please try again.";
export const COURSE_DELETE_FAILED = "Failed to delete course. Please try again.";

/** The course form's fields by their labels (a refused save lists what was typed by these). */
export const COURSE_FIELD_LABELS = {
  title: "Title",
  category: "Category",
  duration: "Duration",
  fee: "Fee (₹)",
  feeIncludesGst: "GST",
  description: "Description",
  highlights: "Highlights",
  modes: "Modes",
  syllabus: "Course Syllabus Content",
  featured: "Featured course",
  state: "Publication",
} as const;
