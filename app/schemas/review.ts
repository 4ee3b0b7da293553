import * as z from "zod/mini";
import { choice, flag, optionalUrl, preprocess, requiredText, requiredUrl } from "./fields";

export const reviewSchema = z.object({
  name: requiredText("Student name is required", 100, "Student name"),
  position: requiredText("Position is required", 150, "Position"),
  image: requiredUrl("Profile image URL is required", "Profile image URL"),
  rating: preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v)) : v),
    z.number({ error: "Rating is required" }).check(
      z.refine(Number.isInteger, { message: "Rating must be a whole number from 1 to 5", abort: true }),
      z.minimum(1, "Rating must be from 1 to 5"),
      z.maximum(5, "Rating must be from 1 to 5"),
    ),
  ),
  course: requiredText("Course is required", 200, "Course"),
  review: requiredText("Review text is required", 5000, "Review text"),
  type: preprocess((v) => (v === undefined || v === null || v === "" ? "text" : v), choice(["text", "video"] as const, "Review type must be text or video")),
  linkedin: optionalUrl("LinkedIn profile"),
  videoThumbnail: optionalUrl("Video thumbnail URL"),
  approved: flag(false),
});
export type ReviewValues = z.infer<typeof reviewSchema>;

export const REVIEW_DEFAULTS = { rating: 5, type: "text", approved: false } as const;
export const REVIEW_LOAD_FAILED = "Failed to load reviews. Please try again.";
export const REVIEW_APPROVE_FAILED = "Failed to approve review. Please try again.";
export const REVIEW_SAVE_FAILED = "Failed to save review. Please try again.";
export const REVIEW_DELETE_FAILED = "Failed to delete review. Please try again.";
