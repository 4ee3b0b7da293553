/**
 * Display formats of spec §9 / DESIGN.md §4.13 ("Jan 5, 2027"; contact queries add the time), en-US.
 * Always formatted in UTC: the server render and the browser's hydration then print the same text
 * whatever time zone either machine runs in, so React never sees a mismatch.
 */
const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
});

function toDate(value: string): Date | null {
  // A bare calendar date (YYYY-MM-DD) is read as that day, not as a local midnight.
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(d.getTime()) ? null : d;
}

// Newer ICU data puts a narrow no-break space before AM/PM; browsers and Node may differ, so use a plain space.
const plainSpaces = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

/** "2027-01-05" or an ISO timestamp → "Jan 5, 2027". Unreadable input is returned as it is. */
export function formatDate(value: string): string {
  const d = toDate(value);
  return d ? plainSpaces(dateFormat.format(d)) : value;
}

/** An ISO timestamp → "Jan 5, 2027, 3:04 PM" (UTC). */
export function formatDateTime(value: string): string {
  const d = toDate(value);
  return d ? plainSpaces(dateTimeFormat.format(d)) : value;
}
