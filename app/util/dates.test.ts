import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, siteToday } from "./dates";

// Hyderabad is UTC+05:30 all year: 18:30 UTC is midnight there.
describe("formatDate", () => {
  it("shows a calendar date as month abbreviation, day and year", () => {
    expect(formatDate("2027-01-05")).toBe("Jan 5, 2027");
    expect(formatDate("2026-12-31")).toBe("Dec 31, 2026");
  });

  it("prints a day from its digits exactly as en-US Intl does, without making a formatter", () => {
    const intl = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
    for (let t = Date.UTC(1999, 0, 1); t < Date.UTC(2041, 0, 1); t += 86_400_000 * 3) {
      const day = new Date(t).toISOString().slice(0, 10);
      expect(formatDate(day), day).toBe(intl.format(new Date(t)).replace(/[\u202f\u00a0]/g, " "));
    }
  });

  it("never shifts a calendar date (a batch's start or end), which is a day and not an instant", () => {
    expect(formatDate("2027-01-01")).toBe("Jan 1, 2027");
    expect(formatDate("2027-12-31")).toBe("Dec 31, 2027");
  });

  it("shows the day a timestamp falls on in Hyderabad, not in UTC", () => {
    expect(formatDate("2027-01-05T18:29:59.000Z")).toBe("Jan 5, 2027");
    // Midnight in Hyderabad, still the evening before in UTC.
    expect(formatDate("2027-01-05T18:30:00.000Z")).toBe("Jan 6, 2027");
    expect(formatDate("2027-01-05T23:59:59.000Z")).toBe("Jan 6, 2027");
    // Just after midnight UTC it is already morning in Hyderabad, the same day.
    expect(formatDate("2027-01-06T00:00:00.000Z")).toBe("Jan 6, 2027");
    expect(formatDate("2026-12-31T20:00:00.000Z")).toBe("Jan 1, 2027");
  });

  it("returns unreadable input unchanged", () => {
    expect(formatDate("soon")).toBe("soon");
    expect(formatDate("")).toBe("");
  });
});

describe("formatDateTime", () => {
  it("adds hour and minute in the en-US style with plain spaces, Hyderabad time", () => {
    expect(formatDateTime("2027-01-05T09:34:00.000Z")).toBe("Jan 5, 2027, 3:04 PM");
    expect(formatDateTime("2027-01-05T00:30:00.000Z")).toBe("Jan 5, 2027, 6:00 AM");
  });

  it("moves to the next day at midnight in Hyderabad, 18:30 UTC", () => {
    expect(formatDateTime("2027-01-05T18:29:00.000Z")).toBe("Jan 5, 2027, 11:59 PM");
    expect(formatDateTime("2027-01-05T18:30:00.000Z")).toBe("Jan 6, 2027, 12:00 AM");
    expect(formatDateTime("2027-01-05T23:59:00.000Z")).toBe("Jan 6, 2027, 5:29 AM");
    expect(formatDateTime("2027-01-06T00:00:00.000Z")).toBe("Jan 6, 2027, 5:30 AM");
  });

  it("returns unreadable input unchanged", () => {
    expect(formatDateTime("")).toBe("");
  });
});

describe("siteToday", () => {
  it("is the calendar day in Hyderabad", () => {
    expect(siteToday(new Date("2027-01-05T12:00:00.000Z"))).toBe("2027-01-05");
    expect(siteToday(new Date("2027-01-05T18:29:59.999Z"))).toBe("2027-01-05");
    expect(siteToday(new Date("2027-01-05T18:30:00.000Z"))).toBe("2027-01-06");
    expect(siteToday(new Date("2026-12-31T19:00:00.000Z"))).toBe("2027-01-01");
    expect(siteToday(new Date("2027-01-06T00:00:00.000Z"))).toBe("2027-01-06");
  });
});
