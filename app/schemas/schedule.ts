import * as z from "zod/mini";
import { DELIVERY_MODES } from "./public-values";
import { calendarDate, choice, requiredText, wholeNumber } from "./fields";
import { publicationFields } from "./publication";
import { feeLabelField, optionalFee } from "./fee";

export const scheduleSchema = z
  .object({
    course: requiredText("Course is required", 36, "Course"),
    startDate: calendarDate("Start date is required"),
    endDate: calendarDate("End date is required"),
    time: requiredText("Time is required", 100, "Time"),
    days: requiredText("Days are required", 100, "Days"),
    mode: choice(DELIVERY_MODES, "Mode is required"),
    location: requiredText("Location is required", 200, "Location"),
    seats: z._default(wholeNumber(0, "Available seats must be 0 or more"), 0),
    totalSeats: wholeNumber(1, "Total seats must be at least 1"),
    fee: optionalFee,
    feeLabel: feeLabelField,
    ...publicationFields,
  })
  // Checks beyond the spec (DESIGN.md §4.5).
  .check(
    z.superRefine((v, ctx) => {
      if (v.totalSeats >= 1 && v.seats > v.totalSeats) {
        ctx.addIssue({ code: "custom", path: ["seats"], message: "Available seats cannot exceed total seats" });
      }
      if (v.endDate < v.startDate) {
        ctx.addIssue({ code: "custom", path: ["endDate"], message: "End date cannot be before the start date" });
      }
    }),
    // Rules JSON Schema cannot state, for the OpenAPI document (the course's existence is the service's check).
    z.describe(
      "Also checked: both dates are real days, endDate is not before startDate, seats is at most totalSeats, and course is the id of an existing course (400 naming the field otherwise).",
    ),
  );

export const SCHEDULE_DEFAULTS = { mode: "online", seats: 20, totalSeats: 30 } as const;
export const SCHEDULE_LOAD_FAILED = "Failed to load schedules. Please try again.";
export const SCHEDULE_SAVE_FAILED = "Failed to save schedule. Please try again.";
export const SCHEDULE_DELETE_FAILED = "Failed to delete schedule. Please try again.";
