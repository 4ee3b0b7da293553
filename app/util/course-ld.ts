import { SITE } from "~/config/site";
import { absoluteUrl, postalAddress } from "./seo";

/**
 * JSON-LD for a course page: a schema.org Course with its provider and offer, and each upcoming batch as a
 * CourseInstance with courseMode and courseSchedule, the properties Google's course info result requires.
 */

export type LdCourse = {
  title: string;
  slug: string;
  description: string;
  image: string | null;
  duration: string;
  category: string;
  modes?: string[];
  /** Whole rupees; null or absent: fee on request (the offer then carries no price). */
  fee?: number | null;
};
/** `price`: the batch's own price in rupees when it has one (an early-bird offer). */
export type LdBatch = { startDate: string; endDate: string; time: string; days: string; mode: string; location: string; seats: number; price?: number | null };

const MODE: Record<string, string> = { online: "Online", offline: "Onsite", hybrid: "Blended" };

/** Minutes between the two clock times of "6:30 PM - 9:30 PM", or null when the text is not two times. */
export function sessionMinutes(time: string): number | null {
  const m = /(\d{1,2})(?::(\d{2}))?\s*([AaPp][Mm])\s*[-–to]+\s*(\d{1,2})(?::(\d{2}))?\s*([AaPp][Mm])/.exec(time);
  if (!m) return null;
  const toMinutes = (h: string, min: string | undefined, ampm: string) => ((Number(h) % 12) + (/p/i.test(ampm) ? 12 : 0)) * 60 + Number(min ?? 0);
  let diff = toMinutes(m[4], m[5], m[6]) - toMinutes(m[1], m[2], m[3]);
  if (diff <= 0) diff += 24 * 60;
  return diff;
}

/** ISO 8601 duration such as PT2H30M. */
export function isoDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h && !m) return "PT0M";
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}`;
}

const UNITS: [RegExp, string, boolean][] = [
  [/^(years?|yrs?)$/, "Y", false],
  [/^(months?|mos?)$/, "M", false],
  [/^(weeks?|wks?)$/, "W", false],
  [/^days?$/, "D", false],
  [/^(hours?|hrs?)$/, "H", true],
];

/** A course's free-text duration ("4 months", "12 weeks", "40 hours") as ISO 8601 ("P4M", "P12W", "PT40H"), or null. */
export function isoCourseDuration(text: string): string | null {
  const m = /^\s*(\d{1,3})\s*([a-z]+)\.?\s*$/i.exec(text);
  if (!m || Number(m[1]) < 1) return null;
  const unit = UNITS.find(([re]) => re.test(m[2].toLowerCase()));
  if (!unit) return null;
  const [, letter, isTime] = unit;
  return `P${isTime ? "T" : ""}${Number(m[1])}${letter}`;
}

const DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const DAY_URLS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map((d) => `https://schema.org/${d}`);

/** Days named in free text such as "Mon, Wed, Fri", "Sat & Sun" or "Mon to Fri". */
export function daysOfWeek(text: string): string[] {
  const found = DAY_NAMES.map((d, i) => ({ i, at: text.search(new RegExp(`\\b${d}`, "i")) })).filter((d) => d.at >= 0);
  if (found.length === 2 && /\bto\b|–|-/i.test(text)) {
    const [a, b] = found.sort((x, y) => x.at - y.at).map((d) => d.i);
    const range: number[] = [];
    for (let i = a; ; i = (i + 1) % 7) {
      range.push(i);
      if (i === b || range.length > 7) break;
    }
    return range.map((i) => DAY_URLS[i]);
  }
  return found.sort((x, y) => x.i - y.i).map((d) => DAY_URLS[d.i]);
}

function weeksBetween(start: string, end: string): number {
  const ms = Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`);
  return Math.max(1, Math.ceil((ms / 86_400_000 + 1) / 7));
}

export function courseInstanceLd(batch: LdBatch) {
  const minutes = sessionMinutes(batch.time);
  const byDay = daysOfWeek(batch.days);
  return {
    "@type": "CourseInstance",
    courseMode: MODE[batch.mode] ?? "Online",
    startDate: batch.startDate,
    endDate: batch.endDate,
    location:
      batch.mode === "online" ? { "@type": "VirtualLocation", name: batch.location } : { "@type": "Place", name: batch.location, address: postalAddress() },
    courseSchedule: {
      "@type": "Schedule",
      ...(minutes ? { duration: isoDuration(minutes) } : {}),
      repeatFrequency: "Weekly",
      repeatCount: weeksBetween(batch.startDate, batch.endDate),
      ...(byDay.length ? { byDay } : {}),
      startDate: batch.startDate,
      endDate: batch.endDate,
    },
    remainingAttendeeCapacity: batch.seats,
    ...(batch.price && batch.price > 0 ? { offers: [{ "@type": "Offer", category: "Paid", price: batch.price, priceCurrency: "INR" }] } : {}),
  };
}

/**
 * With no upcoming batch, the course still says how it is taught: one instance per mode it runs in, with
 * the length of the whole course as its workload (Google accepts courseWorkload in place of a schedule).
 * When the length cannot be read, nothing valid can be said and the instances are left out.
 */
function undatedInstances(course: LdCourse) {
  const workload = isoCourseDuration(course.duration);
  if (!workload) return [];
  const modes = course.modes?.filter((m) => MODE[m]) ?? [];
  return (modes.length ? modes : ["online"]).map((mode) => ({ "@type": "CourseInstance", courseMode: MODE[mode], courseWorkload: workload }));
}

export function courseLd(origin: string, course: LdCourse, batches: LdBatch[]) {
  const url = absoluteUrl(origin, `/courses/${course.slug}`);
  const timeRequired = isoCourseDuration(course.duration);
  const instances = batches.length ? batches.map(courseInstanceLd) : undatedInstances(course);
  return {
    "@context": "https://schema.org",
    "@type": "Course",
    "@id": `${url}#course`,
    name: course.title,
    description: course.description,
    url,
    ...(course.image ? { image: absoluteUrl(origin, course.image) } : {}),
    educationalLevel: course.category,
    inLanguage: "en",
    ...(timeRequired ? { timeRequired } : {}),
    provider: { "@type": "EducationalOrganization", name: SITE.name, url: `${origin}/`, sameAs: `${origin}/` },
    // The course's fee when set (GST as its page says); without one the offer says it is paid and where to enquire.
    offers: [
      {
        "@type": "Offer",
        category: "Paid",
        ...(course.fee && course.fee > 0 ? { price: course.fee, priceCurrency: "INR" } : {}),
        url: absoluteUrl(origin, `/enquiry?course=${encodeURIComponent(course.title)}`),
        availability: "https://schema.org/InStock",
      },
    ],
    ...(instances.length ? { hasCourseInstance: instances } : {}),
  };
}
