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
    // Seats left are counted from enrolments (app/services/schedules.server.ts), never typed: a value an older page or
    // client still sends is checked (the API document says a whole number, 0 or more) and then ignored.
    seats: z
      .optional(wholeNumber(0, "Available seats must be 0 or more"))
      .check(
        z.describe(
          "Ignored (accepted so older clients keep working): seats left are counted from enrolments and open waitlist offers. Set totalSeats; the record answers seats and seatsTaken.",
        ),
      ),
    totalSeats: wholeNumber(1, "Total seats must be at least 1"),
    fee: optionalFee,
    feeLabel: feeLabelField,
    ...publicationFields,
  })
  // Checks beyond the spec (DESIGN.md §4.5).
  .check(
    z.superRefine((v, ctx) => {
      if (v.endDate < v.startDate) {
        ctx.addIssue({ code: "custom", path: ["endDate"], message: "End date cannot be before the start date" });
      }
    }),
    // Rules JSON Schema cannot state, for the OpenAPI document (the course's existence is the service's check).
    z.describe(
      "Also checked: both dates are real days, endDate is not before startDate, course is the id of an existing course, and totalSeats is not below the seats taken (400 naming the field otherwise).",
    ),
  );

/** A new batch has every seat left (the spec's default of 20 left of 30 described a typed number, now counted). */
export const SCHEDULE_DEFAULTS = { mode: "online", totalSeats: 30 } as const;

/** "Total Seats cannot be below the 24 seats taken": lowering the total under what enrolments and offers hold. */
export const totalBelowTaken = (taken: number) => `Total Seats cannot be below the ${taken} ${taken === 1 ? "seat" : "seats"} taken`;
export const SCHEDULE_LOAD_FAILED = "Failed to load schedules. Please try again.";
export const SCHEDULE_SAVE_FAILED = "Failed to save schedule. Please try again.";
export const SCHEDULE_DELETE_FAILED = "Failed to delete schedule. Please try again.";

/** The schedule form's fields by their labels (a refused save lists what was typed by these). */
export const SCHEDULE_FIELD_LABELS = {
  course: "Course",
  startDate: "Start Date",
  endDate: "End Date",
  time: "Time",
  days: "Days",
  mode: "Mode",
  location: "Location",
  totalSeats: "Total Seats",
  fee: "Batch fee (₹)",
  feeLabel: "Fee label",
  state: "Publication",
} as const;
