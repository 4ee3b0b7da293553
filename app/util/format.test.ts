import { describe, expect, it } from "vitest";
import { formatDate, seatFillPercent } from "./format";

describe("formatDate", () => {
  it("shows calendar dates in the short en-US form whatever the time zone", () => {
    expect(formatDate("2027-01-05")).toBe("Jan 5, 2027");
    expect(formatDate("2026-12-31")).toBe("Dec 31, 2026");
  });
  it("leaves text that is not a date alone", () => {
    expect(formatDate("soon")).toBe("soon");
  });
});

describe("seatFillPercent", () => {
  it("fills by the share of seats taken", () => {
    expect(seatFillPercent(6, 30)).toBe(80);
    expect(seatFillPercent(30, 30)).toBe(0);
    expect(seatFillPercent(0, 25)).toBe(100);
  });
  it("stays within 0 to 100 for odd data", () => {
    expect(seatFillPercent(40, 30)).toBe(0);
    expect(seatFillPercent(-1, 30)).toBe(100);
    expect(seatFillPercent(5, 0)).toBe(0);
  });
});
