import { describe, expect, it } from "vitest";
import { readCalendar } from "../../tests/helpers/ical";
import { buildCalendar, calendarFileName, escapeText, foldLine, readDays, readTime, type CalendarBatch } from "./ics.server";

const ORIGIN = "https://academy.example";
const batch = (over: Partial<CalendarBatch> = {}): CalendarBatch => ({
  id: "b1",
  courseName: "SOC Analyst Training Program",
  startDate: "2027-01-04", // a Monday
  endDate: "2027-01-17",
  time: "7:00 PM - 9:00 PM",
  days: "Mon, Wed, Fri",
  mode: "online",
  location: "Live online (Zoom)",
  updatedAt: "2026-11-20T10:15:30.123Z",
  url: `${ORIGIN}/courses/soc-analyst-training-program`,
  ...over,
});
const one = (b: CalendarBatch) => readCalendar(buildCalendar([b], ORIGIN)).events[0];

describe("readDays", () => {
  it.each([
    ["Mon, Wed, Fri", ["MO", "WE", "FR"]],
    ["Tue, Thu", ["TU", "TH"]],
    ["Tue, Thu, Sat", ["TU", "TH", "SA"]],
    ["Sat, Sun", ["SA", "SU"]],
    ["Sat & Sun", ["SA", "SU"]],
    ["Saturday and Sunday", ["SA", "SU"]],
    ["Weekends", ["SA", "SU"]],
    ["Weekdays", ["MO", "TU", "WE", "TH", "FR"]],
    ["Mon to Fri", ["MO", "TU", "WE", "TH", "FR"]],
    ["Mon-Fri", ["MO", "TU", "WE", "TH", "FR"]],
    ["Monday – Thursday", ["MO", "TU", "WE", "TH"]],
    ["Fri to Mon", ["MO", "FR", "SA", "SU"]],
    ["Daily", ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]],
    ["every day", ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]],
    ["Mon/Wed", ["MO", "WE"]],
  ])("%s → %j", (text, days) => {
    expect(readDays(text)).toEqual(days);
  });

  it.each(["Flexible", "To be announced", "Alternate days", "", "Mon to", "3 days a week"])("%j is not read", (text) => {
    expect(readDays(text)).toBeNull();
  });
});

describe("readTime", () => {
  it.each([
    ["7:00 PM - 9:00 PM", [19, 0, 21, 0]],
    ["6:30 PM - 9:30 PM", [18, 30, 21, 30]],
    ["10:00 AM - 1:00 PM", [10, 0, 13, 0]],
    ["7 AM - 9 AM", [7, 0, 9, 0]],
    ["7 - 9 PM", [19, 0, 21, 0]],
    ["11 - 1 PM", [11, 0, 13, 0]],
    ["19:00-21:00", [19, 0, 21, 0]],
    ["10.00 AM – 1.00 PM IST", [10, 0, 13, 0]],
    ["6:30 pm to 8:30 pm", [18, 30, 20, 30]],
    ["12:00 PM - 2:00 PM", [12, 0, 14, 0]],
  ])("%s", (text, [h1, m1, h2, m2]) => {
    expect(readTime(text)).toEqual({ start: { hour: h1, minute: m1 }, end: { hour: h2, minute: m2 } });
  });

  it.each(["Evening", "9 PM - 7 PM", "13 PM - 2 PM", "7:75 PM - 9 PM", "11 PM - 1 AM", "Flexible timings"])("%j is not read", (text) => {
    expect(readTime(text)).toBeNull();
  });
});

describe("text", () => {
  it("escapes backslash, semicolon, comma and line breaks, and drops other controls", () => {
    expect(escapeText("a\\b;c,d\r\ne\nf\u0007g")).toBe("a\\\\b\\;c\\,d\\ne\\nfg");
  });

  it("folds U+2028, U+2029 and NEL to \\n: no content line ends inside a value", () => {
    expect(escapeText("a\u2028b\u2029c\u0085d")).toBe("a\\nb\\nc\\nd");
    const text = buildCalendar([batch({ courseName: "SOC\u2028DTSTART:19700101T000000Z", mode: "offline", location: "Hall\u2029B" })], ORIGIN);
    expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
    expect(text).toContain("SUMMARY:SOC\\nDTSTART:19700101T000000Z");
    expect(text).toContain("LOCATION:Hall\\nB");
    expect(text.split("\r\n")).not.toContain("DTSTART:19700101T000000Z");
  });

  it("folds at 75 octets without splitting a character", () => {
    const line = `DESCRIPTION:${"ह".repeat(60)}`; // 3 octets each
    const folded = foldLine(line);
    for (const part of folded.split("\r\n")) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(
      folded
        .split("\r\n")
        .slice(1)
        .every((p) => p.startsWith(" ")),
    ).toBe(true);
    expect(folded.replaceAll("\r\n ", "")).toBe(line);
    expect(foldLine("SHORT:x")).toBe("SHORT:x");
  });

  it("names the download after the course and start date", () => {
    expect(calendarFileName({ courseName: "SOC Analyst: L1 & L2 (Weekend)", startDate: "2027-01-04" })).toBe("soc-analyst-l1-l2-weekend-2027-01-04.ics");
    expect(calendarFileName({ courseName: "साइबर", startDate: "2027-01-04" })).toBe("batch-2027-01-04.ics");
  });
});

describe("buildCalendar", () => {
  it("writes a PUBLISH calendar with an IST time zone, CRLF lines of at most 75 octets", () => {
    const text = buildCalendar([batch({ courseName: `Very long course title ${"x".repeat(80)}, with; specials` })], ORIGIN);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const lines = text.split("\r\n");
    expect(lines.slice(0, 5)).toEqual(["BEGIN:VCALENDAR", "VERSION:2.0", lines[2], "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]);
    expect(lines[2]).toMatch(/^PRODID:-\/\/.+\/\/EN$/);
    const { calendar, events } = readCalendar(text);
    const tz = calendar.getFirstSubcomponent("vtimezone")!;
    expect(tz.getFirstPropertyValue("tzid")).toBe("Asia/Kolkata");
    expect(tz.getFirstSubcomponent("standard")!.getFirstPropertyValue("tzname")).toBe("IST");
    expect(events[0].summary).toBe(`Very long course title ${"x".repeat(80)}, with; specials`);
  });

  it("Mon, Wed, Fri at 7:00 PM - 9:00 PM: weekly, in IST, until the end date", () => {
    const e = one(batch());
    expect(e.uid).toBe("b1@academy.example");
    expect(e.allDay).toBe(false);
    expect(e.rrule).toBe("FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20270117T182959Z");
    expect(e.occurrences).toEqual([
      "2027-01-04 19:00–21:00",
      "2027-01-06 19:00–21:00",
      "2027-01-08 19:00–21:00",
      "2027-01-11 19:00–21:00",
      "2027-01-13 19:00–21:00",
      "2027-01-15 19:00–21:00",
    ]);
    expect(e.location).toBe("Online");
    expect(e.url).toBe(`${ORIGIN}/courses/soc-analyst-training-program`);
    expect(e.description).toContain("Days: Mon, Wed, Fri");
    expect(e.description).toContain("Time: 7:00 PM - 9:00 PM");
    expect(e.description).toContain(`Course page: ${ORIGIN}/courses/soc-analyst-training-program`);
  });

  it("starts on the first matching day and keeps the last day (Tue, Thu, 6:30 PM - 9:30 PM, offline)", () => {
    const e = one(
      batch({
        days: "Tue, Thu",
        time: "6:30 PM - 9:30 PM",
        startDate: "2027-01-04",
        endDate: "2027-01-14",
        mode: "offline",
        location: "HITEC City campus, Hyderabad",
      }),
    );
    expect(e.occurrences).toEqual(["2027-01-05 18:30–21:30", "2027-01-07 18:30–21:30", "2027-01-12 18:30–21:30", "2027-01-14 18:30–21:30"]);
    expect(e.location).toBe("HITEC City campus, Hyderabad");
  });

  it("Sat & Sun mornings and Mon to Fri mornings", () => {
    expect(one(batch({ days: "Sat & Sun", time: "10:00 AM - 1:00 PM", startDate: "2027-01-01", endDate: "2027-01-10" })).occurrences).toEqual([
      "2027-01-02 10:00–13:00",
      "2027-01-03 10:00–13:00",
      "2027-01-09 10:00–13:00",
      "2027-01-10 10:00–13:00",
    ]);
    expect(one(batch({ days: "Mon to Fri", time: "7 - 9 AM", startDate: "2027-01-07", endDate: "2027-01-12" })).occurrences).toEqual([
      "2027-01-07 07:00–09:00",
      "2027-01-08 07:00–09:00",
      "2027-01-11 07:00–09:00",
      "2027-01-12 07:00–09:00",
    ]);
  });

  it("a time it cannot read: all-day events on the days", () => {
    const e = one(batch({ time: "Evenings (to be confirmed)", days: "Weekdays", startDate: "2027-01-08", endDate: "2027-01-12" }));
    expect(e.allDay).toBe(true);
    expect(e.rrule).toBe("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20270112");
    expect(e.occurrences).toEqual(["2027-01-08", "2027-01-11", "2027-01-12"]);
    expect(e.days).toBe(1);
  });

  it("days it cannot read: one all-day span from the start to the end date", () => {
    const e = one(batch({ days: "Alternate days", startDate: "2027-01-04", endDate: "2027-02-28" }));
    expect(e.allDay).toBe(true);
    expect(e.rrule).toBeNull();
    expect(e.occurrences).toEqual(["2027-01-04"]);
    expect(e.days).toBe(56);
    expect(e.description).toContain("Days: Alternate days");
  });

  it("no listed day between the dates: one all-day span", () => {
    const e = one(batch({ days: "Sun", startDate: "2027-01-04", endDate: "2027-01-05" }));
    expect([e.allDay, e.rrule, e.occurrences, e.days]).toEqual([true, null, ["2027-01-04"], 2]);
  });

  it("a feed holds one event per batch, with a name, and an empty one is still a calendar", () => {
    const text = buildCalendar([batch(), batch({ id: "b2", mode: "hybrid", location: "HITEC City campus and online" })], ORIGIN, "CyberSOC Academy batches");
    const { calendar, events } = readCalendar(text);
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("CyberSOC Academy batches");
    expect(events.map((e) => [e.uid, e.location])).toEqual([
      ["b1@academy.example", "Online"],
      ["b2@academy.example", "HITEC City campus and online"],
    ]);
    expect(readCalendar(buildCalendar([], ORIGIN)).events).toEqual([]);
  });

  it("is the same text for the same batch (stable UID and DTSTAMP from the batch's last change)", () => {
    expect(buildCalendar([batch()], ORIGIN)).toBe(buildCalendar([batch()], ORIGIN));
    expect(buildCalendar([batch()], ORIGIN)).toContain("\r\nDTSTAMP:20261120T101530Z\r\n");
  });
});
