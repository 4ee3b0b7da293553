import { SITE } from "~/config/site";
import { DELIVERY_MODE_LABELS, type DeliveryMode } from "~/schemas/public-values";

/**
 * Calendar files (iCalendar, RFC 5545) for batches: one batch (`/schedules/<id>.ics`, the enrolment e-mail's
 * attachment) or every upcoming public batch (`/schedules.ics`). Written by hand: the format is a few lines of
 * text, and the only hard parts (escaping, folding, the recurrence) are ours to decide either way.
 *
 * A batch's `time` and `days` are free text typed by staff ("7:00 PM - 9:00 PM", "Mon, Wed, Fri", "Sat & Sun",
 * "Mon to Fri", "Weekdays"). The event is as exact as the text allows:
 * - days and time both read: a weekly event on those days at that time (Hyderabad time, Asia/Kolkata), from the
 *   first such day on or after the start date until the end of the end date;
 * - days read, time not: an all-day event on those days, weekly, over the same span;
 * - days not read (or no such day between the start and end dates): one all-day event from the start date to the
 *   end date, both included.
 * The description always carries the days and time as typed, so nothing staff wrote is lost.
 */

export type CalendarBatch = {
  id: string;
  courseName: string;
  startDate: string;
  endDate: string;
  time: string;
  days: string;
  mode: DeliveryMode;
  location: string;
  updatedAt: string;
  /** The course's public page (absolute URL). */
  url: string;
};

export const ICS_CONTENT_TYPE = "text/calendar; charset=utf-8";
export const TIME_ZONE = "Asia/Kolkata";
const PRODID = `-//${SITE.name}//Batch calendar//EN`;

// ------------------------------------------------------------------ reading the free text

const WEEK = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEK)[number];

const DAY_WORDS: Record<string, Weekday> = {};
for (const [i, names] of [
  ["mon", "monday", "mondays"],
  ["tue", "tues", "tuesday", "tuesdays"],
  ["wed", "weds", "wednesday", "wednesdays"],
  ["thu", "thur", "thurs", "thursday", "thursdays"],
  ["fri", "friday", "fridays"],
  ["sat", "saturday", "saturdays"],
  ["sun", "sunday", "sundays"],
].entries()) {
  for (const n of names) DAY_WORDS[n] = WEEK[i];
}
const GROUPS: Record<string, Weekday[]> = {
  weekdays: ["MO", "TU", "WE", "TH", "FR"],
  weekday: ["MO", "TU", "WE", "TH", "FR"],
  weekends: ["SA", "SU"],
  weekend: ["SA", "SU"],
  daily: [...WEEK],
  everyday: [...WEEK],
  alldays: [...WEEK],
};
/** Words that join or decorate a list of days and carry no day themselves. */
const FILLER = new Set(["and", "every", "only", "on", "days", "day", "batch", "classes"]);

/**
 * "Mon, Wed, Fri" → MO,WE,FR; "Sat & Sun", "Weekends" → SA,SU; "Mon to Fri", "Mon-Fri", "Weekdays" → MO…FR;
 * "Daily" → every day. Null when any word is not a day (then the caller falls back to an all-day span).
 */
export function readDays(text: string): Weekday[] | null {
  const t = text
    .toLowerCase()
    .replace(/\b(every|all)\s+days?\b/g, " alldays ")
    .replace(/\bweek\s*-?\s*(days?|ends?)\b/g, (_m, w: string) => ` week${w.startsWith("d") ? "days" : "ends"} `)
    .replace(/\s*(?:-|–|—|\bto\b|\bthrough\b|\bthru\b)\s*/g, " ~ ")
    .replace(/[,&/+;|.()]/g, " ");
  const words = t.split(/\s+/).filter(Boolean);
  const found = new Set<Weekday>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === "~") {
      const from = DAY_WORDS[words[i - 1]];
      const to = DAY_WORDS[words[i + 1]];
      if (!from || !to) return null;
      for (let d = WEEK.indexOf(from); ; d = (d + 1) % 7) {
        found.add(WEEK[d]);
        if (WEEK[d] === to) break;
      }
      continue;
    }
    if (DAY_WORDS[w]) found.add(DAY_WORDS[w]);
    else if (GROUPS[w]) GROUPS[w].forEach((d) => found.add(d));
    else if (!FILLER.has(w)) return null;
  }
  return found.size ? WEEK.filter((d) => found.has(d)) : null;
}

export type ClockTime = { hour: number; minute: number };

const CLOCK = String.raw`(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?`;
const TIME_RANGE = new RegExp(String.raw`^\s*${CLOCK}\s*(?:-|–|—|to)\s*${CLOCK}\s*(?:ist|\(ist\))?\s*$`, "i");

function to24(hour: number, meridiem: string | undefined): number | null {
  if (!meridiem) return hour <= 23 ? hour : null;
  if (hour < 1 || hour > 12) return null;
  const pm = meridiem.toLowerCase().startsWith("p");
  return (hour % 12) + (pm ? 12 : 0);
}

/**
 * "7:00 PM - 9:00 PM", "6:30 pm to 9:30 pm", "7 - 9 PM" (the end's AM/PM also for the start when that keeps it
 * before the end), "19:00-21:00", "10.00 AM – 1.00 PM IST". Null when it is not such a range on one day.
 */
export function readTime(text: string): { start: ClockTime; end: ClockTime } | null {
  const m = TIME_RANGE.exec(text);
  if (!m) return null;
  const [, h1, m1 = "00", ap1, h2, m2 = "00", ap2] = m;
  const endHour = to24(Number(h2), ap2);
  let startHour = to24(Number(h1), ap1 ?? ap2);
  if (startHour !== null && endHour !== null && !ap1 && ap2 && startHour * 60 + Number(m1) >= endHour * 60 + Number(m2)) {
    // "11 - 1 PM": the start is in the morning.
    startHour = to24(Number(h1), ap2.toLowerCase().startsWith("p") ? "am" : "pm");
  }
  const start = { hour: startHour ?? -1, minute: Number(m1) };
  const end = { hour: endHour ?? -1, minute: Number(m2) };
  if (start.hour < 0 || end.hour < 0 || start.minute > 59 || end.minute > 59) return null;
  if (start.hour * 60 + start.minute >= end.hour * 60 + end.minute) return null;
  return { start, end };
}

// ------------------------------------------------------------------ dates

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
/** "2027-01-05" → "20270105" */
const basicDate = (day: string) => day.replaceAll("-", "");
const basicTime = (t: ClockTime) => `${pad(t.hour)}${pad(t.minute)}00`;
function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
const weekdayOf = (day: string): Weekday => WEEK[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7];
/** An instant as UTC basic format: "20270105T133000Z". */
const utcStamp = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** The first day on or after `from`, up to `until`, that is one of `days`; null when there is none. */
function firstOn(days: Weekday[], from: string, until: string): string | null {
  for (let d = from, i = 0; d <= until && i < 7; d = addDays(d, 1), i++) if (days.includes(weekdayOf(d))) return d;
  return null;
}

// ------------------------------------------------------------------ writing

/**
 * TEXT values (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks escaped; other controls dropped.
 * Unicode's line and paragraph separators (U+2028, U+2029) and NEL (U+0085) are line breaks too: raw, a reader
 * may end the content line there, and what follows would be read as a property of its own.
 */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?|[\u0085\u2028\u2029]/g, "\n")
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "")
      .replace(/[\\;,]/g, (c) => `\\${c}`)
      .replace(/\n/g, "\\n")
  );
}

/** Lines of at most 75 octets (§3.1): longer ones go on after CRLF and a space, never splitting a character. */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const out: string[] = [];
  let current = "";
  let size = 0;
  let limit = 75;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (size + n > limit) {
      out.push(current);
      current = "";
      size = 0;
      limit = 74; // the leading space counts
    }
    current += ch;
    size += n;
  }
  out.push(current);
  return out.join("\r\n ");
}

const VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  `TZID:${TIME_ZONE}`,
  "BEGIN:STANDARD",
  "DTSTART:19700101T000000",
  "TZOFFSETFROM:+0530",
  "TZOFFSETTO:+0530",
  "TZNAME:IST",
  "END:STANDARD",
  "END:VTIMEZONE",
];

function locationOf(b: Pick<CalendarBatch, "mode" | "location">): string {
  return b.mode === "online" ? "Online" : b.location;
}

function describe(b: CalendarBatch): string {
  return [
    `${b.courseName}: ${DELIVERY_MODE_LABELS[b.mode] ?? b.mode} batch at ${SITE.name}.`,
    `Days: ${b.days}`,
    `Time: ${b.time} (Hyderabad time, IST)`,
    `Location: ${locationOf(b)}`,
    `Course page: ${b.url}`,
  ].join("\n");
}

/** When, as iCalendar lines: timed weekly, all-day weekly, or one all-day span (see the rules at the top). */
export function whenLines(b: Pick<CalendarBatch, "startDate" | "endDate" | "time" | "days">): string[] {
  const days = readDays(b.days);
  const first = days ? firstOn(days, b.startDate, b.endDate) : null;
  if (days && first) {
    const time = readTime(b.time);
    const byDay = `BYDAY=${days.join(",")}`;
    if (time) {
      // UNTIL is UTC when DTSTART has a time zone: the end date's last second in Hyderabad.
      const until = utcStamp(`${b.endDate}T23:59:59+05:30`);
      return [
        `DTSTART;TZID=${TIME_ZONE}:${basicDate(first)}T${basicTime(time.start)}`,
        `DTEND;TZID=${TIME_ZONE}:${basicDate(first)}T${basicTime(time.end)}`,
        `RRULE:FREQ=WEEKLY;${byDay};UNTIL=${until}`,
      ];
    }
    return [
      `DTSTART;VALUE=DATE:${basicDate(first)}`,
      `DTEND;VALUE=DATE:${basicDate(addDays(first, 1))}`,
      `RRULE:FREQ=WEEKLY;${byDay};UNTIL=${basicDate(b.endDate)}`,
    ];
  }
  return [`DTSTART;VALUE=DATE:${basicDate(b.startDate)}`, `DTEND;VALUE=DATE:${basicDate(addDays(b.endDate, 1))}`];
}

function eventLines(b: CalendarBatch, host: string): string[] {
  return [
    "BEGIN:VEVENT",
    `UID:${b.id}@${host}`,
    `DTSTAMP:${utcStamp(b.updatedAt)}`,
    `LAST-MODIFIED:${utcStamp(b.updatedAt)}`,
    ...whenLines(b),
    `SUMMARY:${escapeText(b.courseName)}`,
    `LOCATION:${escapeText(locationOf(b))}`,
    `DESCRIPTION:${escapeText(describe(b))}`,
    `URL:${b.url}`,
    "STATUS:CONFIRMED",
    "TRANSP:OPAQUE",
    "END:VEVENT",
  ];
}

/**
 * A VCALENDAR with one VEVENT per batch (none is a valid, empty calendar). `origin` is the site's public
 * origin: its host makes the stable UIDs. `name` names a feed for calendar apps that subscribe to it.
 */
export function buildCalendar(batches: CalendarBatch[], origin: string, name?: string): string {
  const host = new URL(origin).hostname;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${PRODID}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...(name ? [`NAME:${escapeText(name)}`, `X-WR-CALNAME:${escapeText(name)}`, `X-WR-TIMEZONE:${TIME_ZONE}`] : []),
    ...VTIMEZONE,
    ...batches.flatMap((b) => eventLines(b, host)),
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

/** "soc-analyst-training-program-2027-01-05.ics": the download's name, from the course and start date. */
export function calendarFileName(b: Pick<CalendarBatch, "courseName" | "startDate">): string {
  const slug = b.courseName
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return `${slug || "batch"}-${b.startDate}.ics`;
}
