import ICAL from "ical.js";

/**
 * Reads a calendar file as a calendar app would, with ical.js: its own VTIMEZONE is registered and each event's
 * recurrence is expanded. Occurrences are given as Hyderabad wall-clock text ("2027-01-05 19:00–21:00") or, for
 * all-day ones, as the day ("2027-01-05"), so a test reads like the schedule staff typed.
 */

export type ReadEvent = {
  uid: string;
  summary: string;
  location: string;
  description: string;
  url: string | null;
  allDay: boolean;
  rrule: string | null;
  /** Every occurrence (at most 400). */
  occurrences: string[];
  /** The first occurrence's length in days, for an all-day event. */
  days: number;
};

const IST_MS = 330 * 60_000;
const istClock = (d: Date) => new Date(d.getTime() + IST_MS).toISOString().slice(0, 16).replace("T", " ");

export function readCalendar(text: string): { calendar: ICAL.Component; events: ReadEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const tz of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(tz);
  const events = calendar.getAllSubcomponents("vevent").map((vevent) => {
    const event = new ICAL.Event(vevent);
    const allDay = event.startDate.isDate;
    const length = event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime();
    const iterator = event.iterator();
    const occurrences: string[] = [];
    for (let next = iterator.next(); next && occurrences.length < 400; next = iterator.next()) {
      if (allDay) occurrences.push(next.toString().slice(0, 10));
      else {
        const start = next.toJSDate();
        occurrences.push(`${istClock(start)}–${istClock(new Date(start.getTime() + length)).slice(11)}`);
      }
    }
    const rrule = vevent.getFirstPropertyValue("rrule");
    return {
      uid: event.uid,
      summary: event.summary,
      location: event.location,
      description: event.description,
      url: (vevent.getFirstPropertyValue("url") as string | null) ?? null,
      allDay,
      rrule: rrule ? rrule.toString() : null,
      occurrences,
      days: Math.round(length / 86_400_000),
    };
  });
  return { calendar, events };
}
