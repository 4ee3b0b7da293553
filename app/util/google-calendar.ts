import { daysOfWeek } from "./course-ld";

/**
 * An "Add to Google Calendar" link for a batch (issue 27, item 7): Google's event template URL, for phones where an
 * .ics download is awkward. Like the .ics file (app/util/ics.server.ts), as exact as the batch's free text allows:
 * a clock time read from "7:00 PM - 9:00 PM" makes a timed event in Hyderabad time on the first class day,
 * repeating weekly on the days read from "Mon, Wed, Fri" until the end date; otherwise one all-day span.
 */
export type CalendarBatch = { courseName: string; startDate: string; endDate: string; time: string; days: string; mode: string; location: string };

const RRULE_DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const DAY_URLS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

const compact = (day: string) => day.replaceAll("-", "");
function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
/** Monday 0 … Sunday 6. */
const weekday = (day: string) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;

function clock(h: string, m: string | undefined, ampm: string): string {
  const hour = (Number(h) % 12) + (/p/i.test(ampm) ? 12 : 0);
  return `${String(hour).padStart(2, "0")}${(m ?? "00").padStart(2, "0")}00`;
}

export function googleCalendarUrl(batch: CalendarBatch, courseUrl?: string): string {
  const days = daysOfWeek(batch.days)
    .map((url) => DAY_URLS.findIndex((d) => url.endsWith(d)))
    .filter((i) => i >= 0);
  const time = /(\d{1,2})(?::(\d{2}))?\s*([AaPp][Mm])\s*[-–to]+\s*(\d{1,2})(?::(\d{2}))?\s*([AaPp][Mm])/.exec(batch.time);
  const params = new URLSearchParams({ action: "TEMPLATE", text: batch.courseName });
  let first = batch.startDate;
  if (days.length) for (let i = 0; i < 7 && !days.includes(weekday(first)); i++) first = addDays(first, 1);
  if (time && first <= batch.endDate) {
    params.set("dates", `${compact(first)}T${clock(time[1], time[2], time[3])}/${compact(first)}T${clock(time[4], time[5], time[6])}`);
    params.set("ctz", "Asia/Kolkata");
    if (days.length) params.set("recur", `RRULE:FREQ=WEEKLY;BYDAY=${days.map((d) => RRULE_DAYS[d]).join(",")};UNTIL=${compact(batch.endDate)}T235959Z`);
  } else {
    params.set("dates", `${compact(batch.startDate)}/${compact(addDays(batch.endDate, 1))}`);
  }
  params.set("details", [`${batch.days}, ${batch.time} (Hyderabad time)`, courseUrl].filter(Boolean).join("\n"));
  params.set("location", batch.mode === "online" ? "Online" : batch.location);
  return `https://calendar.google.com/calendar/render?${params}`;
}
