import type { CourseCategory, DeliveryMode } from "~/schemas/public-values";
import type { DueState } from "~/schemas/fee-values";

/**
 * The badge colours of the site and the back office, from one map: a course level or a batch's mode has the same
 * colour on a course card, on /schedules and in the staff lists. Each pair keeps at least 4.5:1 contrast.
 */
export type BadgeTone = "green" | "yellow" | "blue" | "purple" | "gray" | "red" | "brand" | "teal";

export const BADGE_TONES: Record<BadgeTone, string> = {
  green: "bg-green-100 text-green-800 ring-green-600/20",
  yellow: "bg-amber-100 text-amber-900 ring-amber-600/20",
  blue: "bg-sky-100 text-sky-900 ring-sky-600/20",
  purple: "bg-purple-100 text-purple-800 ring-purple-600/20",
  gray: "bg-slate-100 text-slate-700 ring-slate-500/20",
  red: "bg-red-100 text-red-800 ring-red-600/20",
  brand: "bg-brand-100 text-brand-800 ring-brand-700/20",
  teal: "bg-teal-100 text-teal-800 ring-teal-600/20",
};

export const COURSE_CATEGORY_TONE: Record<CourseCategory, BadgeTone> = { beginner: "green", intermediate: "yellow", advanced: "red" };
export const DUE_STATE_TONE: Record<DueState, BadgeTone> = {
  paid: "green",
  overdue: "red",
  due: "yellow",
  "part-paid": "yellow",
  upcoming: "blue",
  cancelled: "gray",
};
export const DELIVERY_MODE_TONE: Record<DeliveryMode, BadgeTone> = { online: "blue", offline: "purple", hybrid: "teal" };

/** The classes of a value's badge colour; gray for a value the map does not know. */
export function toneClasses<K extends string>(map: Record<K, BadgeTone>, value: string): string {
  return BADGE_TONES[(map as Record<string, BadgeTone>)[value] ?? "gray"];
}
