import { inTransaction } from "~db/client.server";
import {
  deleteScheduleRow,
  getSchedule,
  insertSchedule,
  listSchedules,
  UnknownCourseError,
  updateScheduleRow,
  type Schedule,
  type ScheduleFilter,
} from "~/models/schedule.server";
import type { Page } from "~/models/paging.server";
import { countWaiting } from "~/models/waitlist.server";
import { scheduleSchema } from "~/schemas/schedule";
import type { StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { forgetBatches } from "./enquiries.server";
import { offerFreedSeats } from "./waitlist.server";
import { invalid, notFound } from "./service-error";
import { parseInput } from "./validation";
import { DELIVERY_MODE_LABELS, type DeliveryMode } from "~/schemas/values";
import { formatDate } from "~/util/dates";
import { readPublication } from "./publication.server";

/** Batches (spec §3): staff create, edit and delete them; courseName is always copied from the course. */

/** The fields the audit log tells about, by their labels on the schedule form (the course by its title, not its id). */
const FIELDS = {
  courseName: "Course",
  startDate: "Start Date",
  endDate: "End Date",
  time: "Time",
  days: "Days",
  mode: "Mode",
  location: "Location",
  seats: "Available Seats",
  totalSeats: "Total Seats",
  fee: "Batch fee (₹)",
  feeLabel: "Fee label",
  state: "Publication",
  publishAt: "Publish at",
} as const;

/** A course id that names no course is the caller's mistake, reported on the course field. */
async function withCourseCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnknownCourseError) throw invalid({ course: error.message });
    throw error;
  }
}

function scheduleValues(input: unknown) {
  const { state, publishAt, ...values } = parseInput(scheduleSchema, input);
  return { ...values, publication: readPublication({ state, publishAt }) };
}

const describe = (s: Schedule) =>
  `${s.courseName}, ${formatDate(s.startDate)} to ${formatDate(s.endDate)} (${DELIVERY_MODE_LABELS[s.mode as DeliveryMode] ?? s.mode})`;

export type ScheduleRow = Schedule & { waiting: number };

/** The admin list's page of batches, each with how many wait on its waitlist (one grouped count for the page). */
export async function listSchedulesForStaff(filter: ScheduleFilter): Promise<Page<ScheduleRow>> {
  const page = await listSchedules(filter);
  const waiting = await countWaiting(page.data.map((s) => s.id));
  return { ...page, data: page.data.map((s) => ({ ...s, waiting: waiting.get(s.id) ?? 0 })) };
}

export async function createSchedule(actor: StaffActor, input: unknown): Promise<Schedule> {
  const values = scheduleValues(input);
  return withCourseCheck(() =>
    inTransaction(async () => {
      const schedule = await insertSchedule(values);
      await record(actor, "create", "schedule", schedule.id, describe(schedule));
      return schedule;
    }),
  );
}

/**
 * Saves a batch. Seats raised while people wait: each new seat is offered to the next one on the waitlist, and the
 * answer names who (`offeredTo`), so the screen can say so.
 */
export async function updateSchedule(actor: StaffActor, id: string, input: unknown): Promise<Schedule & { offeredTo: string[] }> {
  const before = await getSchedule(id);
  if (!before) throw notFound("Schedule");
  const values = scheduleValues(input);
  return withCourseCheck(() =>
    inTransaction(async () => {
      const saved = await updateScheduleRow(id, values);
      if (!saved) throw notFound("Schedule");
      await record(actor, "update", "schedule", id, changeSummary(before, saved, FIELDS));
      const offeredTo = await offerFreedSeats(id);
      return { ...(offeredTo.length ? ((await getSchedule(id)) ?? saved) : saved), offeredTo };
    }),
  );
}

export async function deleteSchedule(actor: StaffActor, id: string): Promise<void> {
  await inTransaction(async () => {
    const schedule = await getSchedule(id);
    if (!schedule || !(await deleteScheduleRow(id))) throw notFound("Schedule");
    await forgetBatches([id]);
    await record(actor, "delete", "schedule", id, describe(schedule));
  });
}
