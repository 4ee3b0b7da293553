import { SITE_TIME_ZONE } from "~/config/site";

/**
 * Display formats of spec §9 / DESIGN.md §4.13 ("Jan 5, 2027"; contact queries add the time), en-US.
 * Timestamps (stored in UTC) are shown in the institute's time zone, Asia/Kolkata, whatever zone the
 * server or the browser runs in: both print the same text, so hydration never sees a mismatch.
 * Calendar dates (YYYY-MM-DD: a batch's start and end) are days, not instants, and never shift.
 */
/**
 * A formatter made on first use: making one loads the browser's locale and time-zone data, which costs a phone a
 * long task (~200 ms at 4x CPU slowdown) when done while a page's modules load. Pages that print batch days
 * (formatDate of a YYYY-MM-DD day) never need one.
 */
function lazyFormat(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= new Intl.DateTimeFormat("en-US", options));
}
const dateFormat = /* @__PURE__ */ lazyFormat({ month: "short", day: "numeric", year: "numeric", timeZone: SITE_TIME_ZONE });
const dateTimeFormat = /* @__PURE__ */ lazyFormat({
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: SITE_TIME_ZONE,
});
const isoDayParts = /* @__PURE__ */ lazyFormat({ year: "numeric", month: "2-digit", day: "2-digit", timeZone: SITE_TIME_ZONE });
const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

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
    // A day is printed from its own digits, as en-US does ("Jan 5, 2027"): the same day wherever this runs.
    const m = Number(value.slice(5, 7)) * 3;
    return toDate(`${value}T00:00:00Z`) ? `${MONTHS.slice(m - 3, m)} ${Number(value.slice(8))}, ${Number(value.slice(0, 4))}` : value;
  }
  const d = toDate(value);
  return d ? plainSpaces(dateFormat().format(d)) : value;
}

/** An ISO timestamp → "Jan 5, 2027, 3:04 PM", Hyderabad time. */
export function formatDateTime(value: string): string {
  const d = toDate(value);
  return d ? plainSpaces(dateTimeFormat().format(d)) : value;
}

const shortDateTimeFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: SITE_TIME_ZONE });

/** An ISO timestamp → "Nov 24, 10:30 AM" (Hyderabad time), with the year only when it is not this year's: for tight list cells. */
export function formatShortDateTime(value: string, now: Date = new Date()): string {
  const d = toDate(value);
  if (!d) return value;
  return siteToday(d).slice(0, 4) === siteToday(now).slice(0, 4) ? plainSpaces(shortDateTimeFormat.format(d)) : formatDateTime(value);
}

/** The calendar day (YYYY-MM-DD) in Hyderabad at the given instant: what "today" means for batches. */
export function siteToday(now: Date = new Date()): string {
  const parts = Object.fromEntries(
    isoDayParts()
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const offsetParts = /* @__PURE__ */ lazyFormat({
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZone: SITE_TIME_ZONE,
});

/** Minutes the site's time zone is ahead of UTC at this instant (330 for Hyderabad). */
function siteOffsetMinutes(at: number): number {
  const p = Object.fromEntries(
    offsetParts()
      .formatToParts(new Date(at))
      .map((x) => [x.type, x.value]),
  );
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
}

/** The UTC instant (ISO) at which a Hyderabad calendar day (YYYY-MM-DD) begins: for "from"/"to" date filters. */
export function siteDayStartUtc(day: string): string {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  return new Date(midnightUtc - siteOffsetMinutes(midnightUtc) * 60_000).toISOString();
}

/** The day after a YYYY-MM-DD day. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * A date-time typed by staff to an ISO UTC instant: "2026-11-24T10:30" (a datetime-local field) is Hyderabad
 * time; a value with Z or an offset (the API) is taken as it says. Null for anything else or an impossible date.
 */
export function siteDateTimeToUtc(value: string): string | null {
  const local = LOCAL_DATE_TIME.exec(value);
  if (local) {
    const [, day, h, m, s] = local;
    if (Number(h) > 23 || Number(m) > 59 || Number(s ?? 0) > 59) return null;
    const start = Date.parse(siteDayStartUtc(day));
    if (Number.isNaN(start) || !new Date(`${day}T00:00:00Z`).toISOString().startsWith(day)) return null;
    return new Date(start + ((Number(h) * 60 + Number(m)) * 60 + Number(s ?? 0)) * 1000).toISOString();
  }
  if (!WITH_ZONE.test(value)) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * An ISO instant as "2026-11-24 10:30" in Hyderabad time: for exports, where a spreadsheet sorts it as text and
 * reads it as a date, and a lead at 02:00 IST stays on its day (the header says IST).
 */
export function siteDateTimeText(iso: string | null | undefined): string {
  return iso ? utcToSiteInput(iso).replace("T", " ") : "";
}

/** An ISO instant as a datetime-local field's value in Hyderabad time ("2026-11-24T10:30"). */
export function utcToSiteInput(iso: string): string {
  const p = Object.fromEntries(
    offsetParts()
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/**
 * An instant as an ISO 8601 time in Hyderabad ("2026-11-24T16:00:00+05:30"), for what a person reads of their own
 * data. India keeps one offset all year, so the time is the UTC one moved by 5 h 30 min; null for what is not a time.
 */
export function siteIsoTime(value: string | Date): string | null {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(ms)) return null;
  const local = new Date(ms + 330 * 60_000).toISOString().slice(0, 19);
  return `${local}+05:30`;
}
