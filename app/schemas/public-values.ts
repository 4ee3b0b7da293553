/**
 * The lists a visitor's first screen needs (a batch's mode, a course's level), apart from the staff lists in
 * values.ts, which re-exports them: values.ts is one file in the browser too, and every public page would
 * otherwise load the audit, outbox and waitlist labels with them. Defined here once; import either file.
 */

/** How a course is taught: batches, an enquiry's preferred mode and a course's modes (spec §3, §9: the admin forms also offer hybrid). */
export const DELIVERY_MODES = ["online", "offline", "hybrid"] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const DELIVERY_MODE_LABELS: Record<DeliveryMode, string> = { online: "Online", offline: "Offline", hybrid: "Hybrid" };

export const COURSE_CATEGORIES = ["beginner", "intermediate", "advanced"] as const;
export type CourseCategory = (typeof COURSE_CATEGORIES)[number];
export const COURSE_CATEGORY_LABELS: Record<CourseCategory, string> = { beginner: "Beginner", intermediate: "Intermediate", advanced: "Advanced" };
