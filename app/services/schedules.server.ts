import { inTransaction } from "~db/client.server";
import {
  countSeatsTaken,
  deleteScheduleRow,
  getSchedule,
  insertSchedule,
  listSchedules,
  recountSeats,
  UnknownCourseError,
  updateScheduleRow,
  type Schedule,
  type ScheduleFilter,
} from "~/models/schedule.server";
import { listBatchRoster, type RosterLine } from "~/models/roster.server";
import type { Page } from "~/models/paging.server";
import { countWaiting } from "~/models/waitlist.server";
import { scheduleSchema, totalBelowTaken } from "~/schemas/schedule";
import { writeGuardSchema } from "~/schemas/write-guard";
import type { StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { forgetBatches } from "./enquiries.server";
import { batchWaitlist, offerFreedSeats } from "./waitlist.server";
import { changedMeanwhile, guardedWrite, type GuardedRecord } from "./write-guard.server";
import type { WaitlistLine } from "~/models/waitlist.server";
import { invalid, notFound } from "./service-error";
import { parseInput } from "./validation";
import { DELIVERY_MODE_LABELS, type DeliveryMode } from "~/schemas/values";
import { formatDate } from "~/util/dates";
import { readPublication } from "./publication.server";

/**
 * Batches (spec §3): staff create, edit and delete them; courseName is always copied from the course. Capacity is
 * one number staff set (Total Seats); the seats left are counted from enrolments and open waitlist offers and
 * changed only by the seat operations (app/models/schedule.server.ts), never taken from a form or the API.
 */

/** The fields the audit log tells about, by their labels on the schedule form (the course by its title, not its id). */
const FIELDS = {
  courseName: "Course",
  startDate: "Start Date",
  endDate: "End Date",
  time: "Time",
  days: "Days",
  mode: "Mode",
  location: "Location",
  seats: "Seats left",
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
  // A seats sent (an older page or client) is ignored: the seats left are counted, never taken from a write.
  const { state, publishAt, seats: _ignored, ...values } = parseInput(scheduleSchema, input);
  return { ...values, publication: readPublication({ state, publishAt }) };
}

const describe = (s: Schedule) =>
  `${s.courseName}, ${formatDate(s.startDate)} to ${formatDate(s.endDate)} (${DELIVERY_MODE_LABELS[s.mode as DeliveryMode] ?? s.mode})`;

export type ScheduleRow = Schedule & { waiting: number };

/** The admin list's page of batches in date order (coming ones soonest first, then ended ones), each with how many wait on its waitlist (one grouped count for the page). */
export async function listSchedulesForStaff(filter: ScheduleFilter): Promise<Page<ScheduleRow>> {
  const page = await listSchedules({ ...filter, order: "start" });
  const waiting = await countWaiting(page.data.map((s) => s.id));
  return { ...page, data: page.data.map((s) => ({ ...s, waiting: waiting.get(s.id) ?? 0 })) };
}

export async function createSchedule(actor: StaffActor, input: unknown): Promise<Schedule> {
  const values = scheduleValues(input);
  return withCourseCheck(() =>
    inTransaction(async () => {
      const schedule = await insertSchedule(values, { createdBy: actor.user.name });
      await record(actor, "create", "schedule", schedule.id, describe(schedule));
      return schedule;
    }),
  );
}

/** A batch under the write rule (write-guard.server.ts): "This batch was changed by … at … IST. Here is what it holds now." */
const batchRecord = (id: string): GuardedRecord<Schedule> => ({
  thing: "batch",
  scope: "schedule",
  read: () => getSchedule(id),
  notFoundName: "Schedule",
  answer: (now) => now,
});

/**
 * Saves a batch, refused when drawn from an older version (a seat taken or given back since counts: the form showed
 * the seats as they were). A changed total recounts the seats left in the same transaction: below the seats taken
 * it is refused, naming the count; raised while people wait, each new seat is offered to the next one on the
 * waitlist, in order, and the answer names who (`offeredTo`), so the screen can say so.
 */
export async function updateSchedule(actor: StaffActor, id: string, input: unknown): Promise<Schedule & { offeredTo: string[] }> {
  const values = scheduleValues(input);
  const target = batchRecord(id);
  return withCourseCheck(() =>
    guardedWrite(
      target,
      parseInput(writeGuardSchema, input),
      async (before) => {
        if (!(await updateScheduleRow(id, values, { version: before.version, updatedBy: actor.user.name }))) await changedMeanwhile(target);
        if (values.totalSeats !== before.totalSeats) {
          // The row is locked by the write above: no seat is taken or given back until this commits.
          const taken = (await countSeatsTaken(id)).total;
          if (values.totalSeats < taken) throw invalid({ totalSeats: totalBelowTaken(taken) });
          await recountSeats(id, taken);
        }
        const offeredTo = await offerFreedSeats(id);
        const saved = (await getSchedule(id))!;
        const offers = offeredTo.length ? `; ${seatsOffered(offeredTo)}` : "";
        await record(actor, "update", "schedule", id, `${changeSummary(before, saved, FIELDS)}${offers}`);
        return { ...saved, offeredTo };
      },
      (before) => ({ ...before, offeredTo: [] }),
    ),
  );
}

/** "2 seats offered: Keerthi Rao, Arjun Das": who the waitlist offered a batch's new seats to, in order. */
export function seatsOffered(names: string[]): string {
  return `${names.length} ${names.length === 1 ? "seat" : "seats"} offered: ${names.join(", ")}`;
}

/** A batch's staff screen: the batch, who holds its seats (the roster) and its waitlist in order. */
export async function batchForStaff(id: string): Promise<{
  schedule: Schedule;
  roster: RosterLine[];
  /** Seats held that the roster does not name: open waitlist offers, enrolments staff may not see, seats taken before enrolments were recorded here. */
  heldOtherwise: { offered: number; hidden: number; before: number };
  waitlist: WaitlistLine[];
}> {
  const schedule = await getSchedule(id);
  if (!schedule) throw notFound("Schedule");
  const [roster, taken, waitlist] = await Promise.all([listBatchRoster(id), countSeatsTaken(id), batchWaitlist(id)]);
  return { schedule, roster: roster.lines, heldOtherwise: { offered: taken.offered, hidden: roster.hidden, before: taken.before }, waitlist };
}

export async function deleteSchedule(actor: StaffActor, id: string): Promise<void> {
  await inTransaction(async () => {
    const schedule = await getSchedule(id);
    if (!schedule || !(await deleteScheduleRow(id))) throw notFound("Schedule");
    await forgetBatches([id]);
    await record(actor, "delete", "schedule", id, describe(schedule));
  });
}
