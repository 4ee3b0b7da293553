import { describe, expect, it } from "vitest";
import { courseLd, daysOfWeek, isoDuration, sessionMinutes } from "./course-ld";

describe("sessionMinutes", () => {
  it("reads the clock times of a batch", () => {
    expect(sessionMinutes("6:30 PM - 9:30 PM")).toBe(180);
    expect(sessionMinutes("7:00 AM - 9:00 AM")).toBe(120);
    expect(sessionMinutes("11:30 AM - 1 PM")).toBe(90);
  });
  it("gives null for free text", () => {
    expect(sessionMinutes("evenings")).toBeNull();
  });
});

describe("isoDuration", () => {
  it("writes ISO 8601 durations", () => {
    expect(isoDuration(180)).toBe("PT3H");
    expect(isoDuration(90)).toBe("PT1H30M");
    expect(isoDuration(45)).toBe("PT45M");
  });
});

describe("daysOfWeek", () => {
  it("lists named days and expands ranges", () => {
    expect(daysOfWeek("Mon, Wed, Fri")).toEqual(["https://schema.org/Monday", "https://schema.org/Wednesday", "https://schema.org/Friday"]);
    expect(daysOfWeek("Mon to Fri")).toHaveLength(5);
    expect(daysOfWeek("Sat, Sun")).toEqual(["https://schema.org/Saturday", "https://schema.org/Sunday"]);
    expect(daysOfWeek("weekends")).toEqual([]);
  });
});

describe("courseLd", () => {
  it("carries what Google's course info result requires", () => {
    const ld = courseLd(
      "https://example.com",
      { title: "SOC Analyst", slug: "soc-analyst", description: "Learn SOC work", image: null, duration: "4 months", category: "beginner" },
      [{ startDate: "2027-01-05", endDate: "2027-03-05", time: "6:30 PM - 9:30 PM", days: "Mon, Wed", mode: "hybrid", location: "Campus", seats: 6 }],
    );
    expect(ld["@type"]).toBe("Course");
    expect(ld.provider.name).toBeTruthy();
    expect(ld.offers[0].category).toBe("Paid");
    const instance = ld.hasCourseInstance[0];
    expect(instance.courseMode).toBe("Blended");
    expect(instance.courseSchedule).toMatchObject({ duration: "PT3H", repeatFrequency: "Weekly", repeatCount: 9 });
  });
});
