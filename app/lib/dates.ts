import { SITE_TIME_ZONE } from "~/config/site";

/**
 * Display formats of spec §9 / DESIGN.md §4.13 ("Jan 5, 2027"; contact queries add the time), en-US.
 * Timestamps (stored in UTC) are shown in the institute's time zone, Asia/Kolkata, whatever zone the
 * server or the browser runs in: both print the same text, so hydration never sees a mismatch.
 * Calendar dates (YYYY-MM-DD: a batch's start and end) are days, not instants, and never shift.
 */
const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: SITE_TIME_ZONE });
const calendarDateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: SITE_TIME_ZONE,
});
const isoDayParts = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: SITE_TIME_ZONE });

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

function toDate(value: string): Date | null {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

// Newer ICU data puts a narrow no-break space before AM/PM; browsers and Node may differ, so use a plain space.
const plainSpaces = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

/** "2027-01-05" → "Jan 5, 2027"; an ISO timestamp → its day in Hyderabad. Unreadable input is returned as it is. */
export function formatDate(value: string): string {
  if (CALENDAR_DATE.test(value)) {
    // Read as that day at UTC midnight and printed in UTC: the same day, wherever this runs.
    const d = toDate(`${value}T00:00:00Z`);
    return d ? plainSpaces(calendarDateFormat.format(d)) : value;
  }
  const d = toDate(value);
  return d ? plainSpaces(dateFormat.format(d)) : value;
}

/** An ISO timestamp → "Jan 5, 2027, 3:04 PM", Hyderabad time. */
export function formatDateTime(value: string): string {
  const d = toDate(value);
  return d ? plainSpaces(dateTimeFormat.format(d)) : value;
}

/** The calendar day (YYYY-MM-DD) in Hyderabad at the given instant: what "today" means for batches. */
export function siteToday(now: Date = new Date()): string {
  const parts = Object.fromEntries(isoDayParts.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}
