import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertSchedule } from "~/models/schedule.server";
import * as dashboard from "~/routes/admin.dashboard";
import { useTestDatabase } from "../helpers/db";
import { makeRequest, run, staffCookie } from "./admin-route-helpers";

useTestDatabase();

const batch = { time: "6:30 PM - 9:30 PM", days: "Mon, Wed, Fri", mode: "online" as const, location: "Online", seats: 20, totalSeats: 30 };

beforeAll(async () => {
  const course = (await insertCourse({ title: "Dashboard Course", category: "beginner", description: "For the dashboard" })).id;
  await insertSchedule({ ...batch, course, startDate: "2030-01-06", endDate: "2030-03-10" });
  await insertSchedule({ ...batch, course, startDate: "2030-01-06", endDate: "2030-03-11" });
  await insertSchedule({ ...batch, course, startDate: "2029-01-06", endDate: "2029-03-11" });
});

afterEach(() => vi.useRealTimers());

async function activeSchedulesAt(instant: string): Promise<number> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(instant));
  const cookie = await staffCookie("editor");
  const out = await run(dashboard.loader, makeRequest("/admin/dashboard", { cookie }));
  expect(out.status).toBe(200);
  return (out.body as { counts: { activeSchedules: number } }).counts.activeSchedules;
}

// The institute is in Hyderabad (UTC+05:30): its day begins at 18:30 UTC the evening before.
describe("dashboard Active Schedules (end date today or later)", () => {
  it("counts a batch ending today, Hyderabad time, late in the evening", async () => {
    // 23:29 on 10 March in Hyderabad: the batch ending that day is still active.
    expect(await activeSchedulesAt("2030-03-10T17:59:00.000Z")).toBe(2);
  });

  it("no longer counts it once the day is over in Hyderabad, although it is still 10 March in UTC", async () => {
    // 00:30 on 11 March in Hyderabad, 19:00 on 10 March in UTC.
    expect(await activeSchedulesAt("2030-03-10T19:00:00.000Z")).toBe(1);
  });
});

describe("dashboard set-up warnings", () => {
  it("warns that links point to localhost while PUBLIC_URL is unset (as in this test run)", async () => {
    const cookie = await staffCookie("admin");
    const out = await run(dashboard.loader, makeRequest("/admin/dashboard", { cookie }));
    expect((out.body as { publicUrlMissing: string | null }).publicUrlMissing).toBe("http://localhost:3000");
  });
});
