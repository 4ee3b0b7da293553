import * as z from "zod/mini";
import { choice, flag, preprocess, requiredText } from "./fields";
import { optionalUrl, requiredUrl } from "./url-fields";
import { oneOf, REVIEW_TYPES } from "./values";
import { publicationFields } from "./publication";

export const reviewSchema = z.object({
  name: requiredText("Student name is required", 100, "Student name"),
  position: requiredText("Position is required", 150, "Position"),
  image: requiredUrl("Profile image URL is required", "Profile image URL"),
  rating: preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v)) : v),
    z
      .int({ error: (issue) => (issue.input === undefined || Number.isNaN(issue.input) ? "Rating is required" : "Rating must be a whole number from 1 to 5") })
      .check(z.minimum(1, "Rating must be from 1 to 5"), z.maximum(5, "Rating must be from 1 to 5")),
  ),
  course: requiredText("Course is required", 200, "Course"),
  review: requiredText("Review text is required", 5000, "Review text", "multi"),
  type: z._default(
    preprocess((v) => (v === null || v === "" ? "text" : v), choice(REVIEW_TYPES, `Review type must be one of ${oneOf(REVIEW_TYPES)}`)),
    "text",
  ),
  linkedin: optionalUrl("LinkedIn profile"),
  videoThumbnail: optionalUrl("Video thumbnail URL"),
  approved: flag(false),
  ...publicationFields,
});

export const REVIEW_DEFAULTS = { rating: 5, type: "text", approved: false } as const;
export const REVIEW_LOAD_FAILED = "Failed to load reviews. Please try again.";
export const REVIEW_APPROVE_FAILED = "Failed to approve review. Please try again.";
export const REVIEW_SAVE_FAILED = "Failed to save review. Please try again.";
export const REVIEW_DELETE_FAILED = "Failed to delete review. Please try again.";

/** The review form's fields by their labels (a refused save lists what was typed by these). */
export const REVIEW_FIELD_LABELS = {
  name: "Student Name",
  position: "Position/Title",
  image: "Profile Image URL",
  rating: "Rating",
  course: "Course",
  review: "Review Text",
  type: "Review Type",
  linkedin: "LinkedIn Profile",
  videoThumbnail: "Video Thumbnail URL",
  approved: "Approved for display",
  state: "Publication",
} as const;
