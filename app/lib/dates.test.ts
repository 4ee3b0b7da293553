import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "./dates";

describe("formatDate", () => {
  it("shows a calendar date as month abbreviation, day and year", () => {
    expect(formatDate("2027-01-05")).toBe("Jan 5, 2027");
    expect(formatDate("2026-12-31")).toBe("Dec 31, 2026");
  });

  it("shows the UTC day of a timestamp, whatever the local time zone", () => {
    expect(formatDate("2027-01-05T23:59:59.000Z")).toBe("Jan 5, 2027");
    expect(formatDate("2027-01-06T00:00:00.000Z")).toBe("Jan 6, 2027");
  });

  it("returns unreadable input unchanged", () => {
    expect(formatDate("soon")).toBe("soon");
  });
});

describe("formatDateTime", () => {
  it("adds hour and minute in the en-US style with plain spaces", () => {
    expect(formatDateTime("2027-01-05T15:04:00.000Z")).toBe("Jan 5, 2027, 3:04 PM");
    expect(formatDateTime("2027-01-05T00:30:00.000Z")).toBe("Jan 5, 2027, 12:30 AM");
  });

  it("returns unreadable input unchanged", () => {
    expect(formatDateTime("")).toBe("");
  });
});
