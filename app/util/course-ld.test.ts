import { describe, expect, it } from "vitest";
import { type courseInstanceLd, courseLd, daysOfWeek, isoCourseDuration, isoDuration, sessionMinutes } from "./course-ld";

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
    const instance = ld.hasCourseInstance![0] as ReturnType<typeof courseInstanceLd>;
    expect(instance.courseMode).toBe("Blended");
    expect(instance.courseSchedule).toMatchObject({ duration: "PT3H", repeatFrequency: "Weekly", repeatCount: 9 });
  });
});

describe("isoCourseDuration", () => {
  it("turns a course's length into ISO 8601, or null for text it cannot read", () => {
    expect(isoCourseDuration("4 months")).toBe("P4M");
    expect(isoCourseDuration("6 Weeks")).toBe("P6W");
    expect(isoCourseDuration("1 year")).toBe("P1Y");
    expect(isoCourseDuration("10 days")).toBe("P10D");
    expect(isoCourseDuration("40 hours")).toBe("PT40H");
    for (const text of ["", "self-paced", "3-4 months", "0 weeks", "about 2 months"]) expect(isoCourseDuration(text), text).toBeNull();
  });
});

describe("courseLd without upcoming batches", () => {
  const course = { title: "Cloud", slug: "cloud", description: "Cloud security", image: null, category: "intermediate" };

  it("still has an instance per mode, with the course's length as its workload, and an ISO timeRequired", () => {
    const ld = courseLd("https://example.com", { ...course, duration: "8 weeks", modes: ["online", "offline"] }, []);
    expect(ld.timeRequired).toBe("P8W");
    expect(ld.hasCourseInstance).toEqual([
      { "@type": "CourseInstance", courseMode: "Online", courseWorkload: "P8W" },
      { "@type": "CourseInstance", courseMode: "Onsite", courseWorkload: "P8W" },
    ]);
  });

  it("leaves out what it cannot state validly rather than emitting free text or an empty list", () => {
    const ld = courseLd("https://example.com", { ...course, duration: "self-paced", modes: ["online"] }, []);
    expect(ld).not.toHaveProperty("timeRequired");
    expect(ld).not.toHaveProperty("hasCourseInstance");
  });
});
