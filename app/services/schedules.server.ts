import { inTransaction } from "~db/client.server";
import { deleteScheduleRow, getSchedule, insertSchedule, UnknownCourseError, updateScheduleRow, type Schedule } from "~/models/schedule.server";
import { scheduleSchema } from "~/schemas/schedule";
import type { StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { forgetBatches } from "./enquiries.server";
import { offerFreedSeats } from "./waitlist.server";
import { invalid, notFound } from "./service-error";
import { parseInput } from "./validation";
import { readPublication } from "./publication.server";

/** Batches (spec §3): staff create, edit and delete them; courseName is always copied from the course. */

const FIELDS = ["course", "startDate", "endDate", "time", "days", "mode", "location", "seats", "totalSeats", "state", "publishAt"] as const;

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

const describe = (s: Schedule) => `${s.courseName}, ${s.startDate} to ${s.endDate} (${s.mode})`;

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

export async function updateSchedule(actor: StaffActor, id: string, input: unknown): Promise<Schedule> {
  const before = await getSchedule(id);
  if (!before) throw notFound("Schedule");
  const values = scheduleValues(input);
  return withCourseCheck(() =>
    inTransaction(async () => {
      const saved = await updateScheduleRow(id, values);
      if (!saved) throw notFound("Schedule");
      await record(actor, "update", "schedule", id, changeSummary(before, saved, FIELDS));
      // Seats raised while people wait: each new seat is offered to the next one on the waitlist.
      return (await offerFreedSeats(id)) ? ((await getSchedule(id)) ?? saved) : saved;
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
