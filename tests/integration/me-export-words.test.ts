import { beforeAll, describe, expect, it } from "vitest";
import { insertCourse } from "~/models/course.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { exportMyData, personalCopy } from "~/services/privacy-me.server";
import { createMeLink } from "~/infra/privacy-mail.server";
import { enquiryReference } from "~/util/enquiry-reference";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";

/**
 * The /me download as the person reads it (issue 37.10): every time in Hyderabad, ISO 8601 with +05:30, and none of
 * the database's ids, references between rows or version counters.
 */
await startOutboxReceivers();
useTestDatabase();

const visitor = { user: null, ip: "203.0.113.77" };
let course = "";

beforeAll(async () => {
  course = (await insertCourse({ title: "Export Words Course", category: "beginner", description: "The person's own copy" })).title;
});

function walk(value: unknown, visit: (key: string, v: unknown) => void, key = "") {
  visit(key, value);
  if (Array.isArray(value)) value.forEach((v) => walk(v, visit, key));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, visit, k);
}

describe("the person's copy of their data", () => {
  it("gives Hyderabad times and no internal ids or versions", async () => {
    const mine = await submitEnquiry(
      visitor,
      { fullName: "Kavya Export", email: "kavya.export@example.com", phone: "98111 22334", preferredCourse: course, preferredMode: "online" },
      { channel: "home" },
    );
    await drainOutbox();
    const { url } = await createMeLink("enquiry", mine.id, "kavya.export@example.com");
    const data = await exportMyData(visitor, { token: new URL(url).searchParams.get("token")! });
    const text = JSON.stringify(data);
    expect(text).not.toContain(mine.id);
    const keys: string[] = [];
    const times: string[] = [];
    walk(data, (key, v) => {
      keys.push(key);
      if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v)) times.push(v);
    });
    expect(keys.filter((k) => /^(id|version)$|Id$/.test(k))).toEqual([]);
    expect(times.length).toBeGreaterThan(2);
    for (const t of times) expect(t).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
    // The reference they were given stands in for the id.
    const enquiries = data.enquiries as { fullName: string; preferredCourse: string; reference: string }[];
    expect(enquiries).toHaveLength(1);
    expect(enquiries[0]).toMatchObject({ fullName: "Kavya Export", preferredCourse: course, reference: enquiryReference(mine.id) });
  });

  it("turns a UTC instant into the same instant in Hyderabad", () => {
    expect(personalCopy({ id: "x", at: "2026-11-24T10:30:00.000Z", nested: [{ enquiryId: "y", version: 3, when: "2026-01-01T00:00:00Z" }] })).toEqual({
      at: "2026-11-24T16:00:00+05:30",
      nested: [{ when: "2026-01-01T05:30:00+05:30" }],
    });
  });
});
