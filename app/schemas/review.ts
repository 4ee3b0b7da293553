import { z } from "zod";
import { choice, flag, optionalUrl, requiredText, requiredUrl } from "./fields";

export const reviewSchema = z.object({
  name: requiredText("Student name is required", 100, "Student name"),
  position: requiredText("Position is required", 150, "Position"),
  image: requiredUrl("Profile image URL is required", "Profile image URL"),
  rating: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v)) : v),
    z.number({ error: "Rating is required" }).int("Rating must be a whole number from 1 to 5").min(1, "Rating must be from 1 to 5").max(5, "Rating must be from 1 to 5"),
  ),
  course: requiredText("Course is required", 200, "Course"),
  review: requiredText("Review text is required", 5000, "Review text"),
  type: z.preprocess((v) => (v === undefined || v === null || v === "" ? "text" : v), choice(["text", "video"] as const, "Review type must be text or video")),
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
