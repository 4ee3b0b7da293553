import { type DeliveryMode, type PublicationState } from "~/schemas/values";
import { isPublic, PUBLIC_STATE, publicationValues, toPublication, type Audience, type Publication } from "./publication.server";
import { contentChanged } from "./content-version.server";
import { batchKeys } from "./content-keys.server";
import { sql, type Selectable } from "kysely";
import { db, dialect } from "~db/client.server";
import type { SchedulesTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import { siteToday } from "~/util/dates";
import { pageBounds, toPage, type Page, type PageInput } from "./paging.server";
import { nextVersion, versionOf, type VersionedWrite } from "./versioning.server";

export type Schedule = {
  id: string;
  course: string;
  courseName: string;
  startDate: string;
  endDate: string;
  time: string;
  days: string;
  mode: DeliveryMode;
  location: string;
  /** Seats left: counted (totalSeats minus seatsTaken), changed only by the seat operations below. */
  seats: number;
  totalSeats: number;
  /** Enrolled students holding the batch, open waitlist offers and seats taken before enrolments were recorded here. */
  seatsTaken: number;
  /** One more on every change (a form, the API, a publish, a seat taken or given back); who made the stored version. */
  version: number;
  updatedBy: string | null;
  /** The batch's own price in whole rupees (e.g. early-bird), or null: the course's fee. */
  fee: number | null;
  feeLabel: string;
  /** Read from the course: its fee and whether GST is in it (and in the batch's own fee). */
  courseFee: number | null;
  feeIncludesGst: boolean;
  createdAt: string;
  updatedAt: string;
} & Publication;

/** What staff set: never the seats left, which the seat operations count. */
export type ScheduleInput = {
  course: string;
  startDate: string;
  endDate: string;
  time: string;
  days: string;
  mode: DeliveryMode;
  location: string;
  totalSeats: number;
  fee?: number | null;
  feeLabel?: string;
  /** Omitted: published (new rows) or unchanged (updates). */
  publication?: Publication;
};

type ScheduleRow = Selectable<SchedulesTable> & { courseFee: number | null; courseFeeIncludesGst: number | null };

function toSchedule(row: ScheduleRow): Schedule {
  const { courseFee, courseFeeIncludesGst, seatsTakenBefore: _before, ...rest } = row;
  return {
    ...rest,
    mode: row.mode as DeliveryMode,
    seats: Number(row.seats),
    totalSeats: Number(row.totalSeats),
    seatsTaken: Number(row.totalSeats) - Number(row.seats),
    ...versionOf(row),
    fee: row.fee === null || row.fee === undefined ? null : Number(row.fee),
    feeLabel: row.feeLabel ?? "",
    courseFee: courseFee === null || courseFee === undefined ? null : Number(courseFee),
    feeIncludesGst: courseFeeIncludesGst === null || courseFeeIncludesGst === undefined ? true : Boolean(Number(courseFeeIncludesGst)),
    ...toPublication(row),
  };
}

/** Every column of the batch and its course's fee: one correlated subquery per field, the same SQL on both databases. */
function withCourseFee<Q extends ReturnType<typeof filtered>>(q: Q) {
  return q
    .selectAll("schedules")
    .select((eb) => [
      eb.selectFrom("courses").select("courses.fee").whereRef("courses.id", "=", "schedules.course").as("courseFee"),
      eb.selectFrom("courses").select("courses.feeIncludesGst").whereRef("courses.id", "=", "schedules.course").as("courseFeeIncludesGst"),
    ]);
}

export type ScheduleFilter = PageInput & {
  /** online or offline also match hybrid batches (DESIGN.md §4.4); hybrid matches hybrid only. */
  mode?: string;
  course?: string;
  /** Only batches whose end date is on or after this YYYY-MM-DD date. */
  endingFrom?: string;
  /** "public": published batches of published courses only (publication.server.ts); default staff (every state). */
  audience?: Audience;
  /** Staff lists: one publication state. */
  state?: PublicationState;
  /** One batch only (its calendar file: public only when the public list would show it). */
  id?: string;
  /** "start": date order (the staff list: running and coming batches soonest first, then ended ones); default newest first (the API). */
  order?: "start" | "newest";
};

function filtered(filter: ScheduleFilter) {
  let q = db().selectFrom("schedules");
  if (filter.audience === "public") {
    q = q.where(isPublic("schedules")).where("course", "in", db().selectFrom("courses").select("courses.id").where(isPublic("courses")));
  } else if (filter.state) q = q.where("state", "=", filter.state);
  if (filter.mode === "online" || filter.mode === "offline") q = q.where("mode", "in", [filter.mode, "hybrid"]);
  else if (filter.mode) q = q.where("mode", "=", filter.mode);
  if (filter.course) q = q.where("course", "=", filter.course);
  if (filter.endingFrom) q = q.where("endDate", ">=", filter.endingFrom);
  if (filter.id) q = q.where("id", "=", filter.id);
  return q;
}

/** A page of batches: newest first (the API), or in date order (`order: "start"`, the staff list). */
export async function listSchedules(filter: ScheduleFilter = {}): Promise<Page<Schedule>> {
  const { page, limit, offset } = pageBounds(filter);
  const q = filtered(filter);
  // In date order for staff: batches still running or to come, soonest first, then the ended ones, latest first.
  const today = todayIso();
  const ended = sql<number>`case when ${sql.ref("endDate")} < ${today} then 1 else 0 end`;
  const comingStart = sql<string | null>`case when ${sql.ref("endDate")} < ${today} then null else ${sql.ref("startDate")} end`;
  const ordered =
    filter.order === "start"
      ? withCourseFee(q).orderBy(ended).orderBy(comingStart, "asc").orderBy("startDate", "desc").orderBy("createdAt", "asc").orderBy("id", "asc")
      : withCourseFee(q).orderBy("createdAt", "desc").orderBy("id", "desc");
  const [rows, count] = await Promise.all([
    ordered.limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return toPage(rows.map(toSchedule), Number(count.n), page, limit);
}

/** Public list: batches that have not ended, soonest start first; public ones unless staff ask. */
export async function listUpcomingSchedules(filter: Omit<ScheduleFilter, "page" | "limit"> = {}, today = todayIso()): Promise<Schedule[]> {
  const rows = await withCourseFee(filtered({ ...filter, audience: filter.audience ?? "public", endingFrom: filter.endingFrom ?? today }))
    .orderBy("startDate", "asc")
    .orderBy("id", "asc")
    .limit(500)
    .execute();
  return rows.map(toSchedule);
}

export async function countActiveSchedules(today = todayIso()): Promise<number> {
  const r = await db()
    .selectFrom("schedules")
    .where("endDate", ">=", today)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Today's date in Hyderabad: a batch ending today is still active there, whatever the UTC date. */
export function todayIso(): string {
  return siteToday();
}

export async function getSchedule(id: string, audience: Audience = "staff"): Promise<Schedule | null> {
  const row = await withCourseFee(filtered({ audience })).where("schedules.id", "=", id).executeTakeFirst();
  return row ? toSchedule(row) : null;
}

export class UnknownCourseError extends Error {
  constructor() {
    super("Please select a course");
  }
}

async function courseTitle(courseId: string): Promise<string> {
  const course = await db().selectFrom("courses").select("title").where("id", "=", courseId).executeTakeFirst();
  if (!course) throw new UnknownCourseError();
  return course.title;
}

/**
 * courseName is always copied from the course's current title (spec §3), never taken from the caller. A new batch
 * has every seat left; `seats` (seats left) is for the demo seed and test fixtures only: the seats below the total
 * count as taken before enrolments were recorded here (no enquiry holds them).
 */
export async function insertSchedule(
  input: ScheduleInput & { seats?: number },
  opts: { id?: string; createdAt?: string; createdBy?: string | null } = {},
): Promise<Schedule> {
  const id = opts.id ?? newId();
  const now = opts.createdAt ?? nowIso();
  const courseName = await courseTitle(input.course);
  const seats = Math.min(Math.max(input.seats ?? input.totalSeats, 0), input.totalSeats);
  await db()
    .insertInto("schedules")
    .values({
      id,
      ...pick(input),
      seats,
      seatsTakenBefore: input.totalSeats - seats,
      courseName,
      createdAt: now,
      updatedAt: now,
      updatedBy: opts.createdBy ?? null,
      ...publicationValues(input.publication),
    })
    .execute();
  await contentChanged({ switch: "after-warming", touched: await batchKeys([id]) });
  return (await getSchedule(id))!;
}

/**
 * Writes what staff set (never the seats left: a changed total is followed by recountSeats in the same transaction)
 * and adds one to the version; with `version`, only if the stored one is still that. Null when the row is gone or
 * was changed meanwhile (the caller reads it again to tell which).
 */
export async function updateScheduleRow(id: string, input: ScheduleInput, guard: VersionedWrite): Promise<Schedule | null> {
  const before = await getSchedule(id);
  if (!before) return null;
  const courseName = await courseTitle(input.course);
  // The course it leaves shows it no more, the one it joins shows it now.
  const touched = await batchKeys([id]);
  let update = db()
    .updateTable("schedules")
    .set({ ...pick(input), courseName, ...nextVersion(guard.updatedBy), ...(input.publication ? publicationValues(input.publication) : {}) })
    .where("id", "=", id);
  if (guard.version !== undefined) update = update.where("version", "=", guard.version);
  const r = await update.executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  // An unpublish takes the batch off the public pages at once; any other edit once they are rendered anew.
  const unpublished = before.state === PUBLIC_STATE && input.publication !== undefined && publicationValues(input.publication).state !== PUBLIC_STATE;
  await contentChanged({ switch: unpublished ? "at-once" : "after-warming", touched: [...touched, ...(await batchKeys([id]))] });
  return getSchedule(id);
}

/** On MariaDB a locking read: the newest committed rows, held to the commit (SQLite runs one writer at a time). */
const current = <Q extends { forUpdate(): Q }>(q: Q): Q => (dialect() === "mysql" ? q.forUpdate() : q);

/**
 * The seats a batch has taken, counted: enrolled enquiries holding it, open waitlist offers (each holds a seat) and
 * the seats taken before enrolments were recorded here. Call inside the transaction, after the batch's row was
 * written (its lock first, then these rows, the order every seat operation takes them in).
 */
export async function countSeatsTaken(id: string): Promise<{ enrolled: number; offered: number; before: number; total: number }> {
  const [enrolled, offered, batch] = await Promise.all([
    current(db().selectFrom("enquiries").select("id").where("scheduleId", "=", id).where("status", "=", "enrolled")).execute(),
    current(db().selectFrom("waitlist_entries").select("id").where("scheduleId", "=", id).where("status", "=", "offered")).execute(),
    db().selectFrom("schedules").select("seatsTakenBefore").where("id", "=", id).executeTakeFirst(),
  ]);
  const before = Number(batch?.seatsTakenBefore ?? 0);
  return { enrolled: enrolled.length, offered: offered.length, before, total: enrolled.length + offered.length + before };
}

/** After the total changed: the seats left become the total minus the seats taken (countSeatsTaken, never below 0). */
export async function recountSeats(id: string, taken: number): Promise<void> {
  await db()
    .updateTable("schedules")
    .set((eb) => ({ seats: sql<number>`case when ${eb.ref("totalSeats")} > ${taken} then ${eb.ref("totalSeats")} - ${taken} else 0 end` }))
    .where("id", "=", id)
    .execute();
  await contentChanged({ switch: "after-warming" });
}

export async function deleteScheduleRow(id: string): Promise<boolean> {
  const r = await db().deleteFrom("schedules").where("id", "=", id).executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) return false;
  await contentChanged();
  return true;
}

function pick(i: ScheduleInput) {
  return {
    course: i.course,
    startDate: i.startDate,
    endDate: i.endDate,
    time: i.time,
    days: i.days,
    mode: i.mode,
    location: i.location,
    totalSeats: i.totalSeats,
    fee: i.fee ?? null,
    feeLabel: i.fee ? (i.feeLabel ?? "") : "",
  };
}

/**
 * The batch an Enroll Now led to: the course's batch starting that day, in the visitor's preferred mode when
 * there are several (an online and an offline batch often start together), else one with a seat left.
 */
export async function findScheduleByCourseAndStart(courseTitle: string, startDate: string, preferredMode: DeliveryMode): Promise<Schedule | null> {
  const row = await withCourseFee(db().selectFrom("schedules"))
    .where("courseName", "=", courseTitle)
    .where("startDate", "=", startDate)
    // From the public Enroll Now: a batch visitors cannot see is not theirs to join.
    .where(isPublic())
    .orderBy((eb) => eb.case().when("mode", "=", preferredMode).then(0).else(1).end())
    .orderBy((eb) => eb.case().when("seats", ">", 0).then(0).else(1).end())
    .orderBy("createdAt")
    .limit(1)
    .executeTakeFirst();
  return row ? toSchedule(row) : null;
}

/**
 * Takes one seat of a batch for an enrolment, only while one is left (one conditional UPDATE, so two enrolments
 * at once cannot both take the last seat). False when the batch is full or gone.
 */
export async function takeSeat(id: string, by: string): Promise<boolean> {
  const r = await db()
    .updateTable("schedules")
    .set((eb) => ({ seats: eb("seats", "-", 1), ...nextVersion(by) }))
    .where("id", "=", id)
    .where("seats", ">", 0)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await contentChanged({ switch: "after-warming", touched: await batchKeys([id]) });
  return true;
}

/**
 * Staff enrolling a student they chose into a full batch: one seat more in total, taken at once by that student,
 * so the seats left stay as they are and nobody on the waitlist is offered it (raising the seats offers them).
 */
export async function addTakenSeat(id: string, by: string): Promise<boolean> {
  const r = await db()
    .updateTable("schedules")
    .set((eb) => ({ totalSeats: eb("totalSeats", "+", 1), ...nextVersion(by) }))
    .where("id", "=", id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await contentChanged({ switch: "after-warming", touched: await batchKeys([id]) });
  return true;
}

/** How many batches of the course (by its title, as an enquiry names it) start today or later. */
export async function countUpcomingOfCourse(courseTitle: string, today = todayIso()): Promise<number> {
  const r = await db()
    .selectFrom("schedules")
    .where("courseName", "=", courseTitle)
    .where("startDate", ">=", today)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Gives a seat back (an enrolment undone), never above the batch's total. */
export async function returnSeat(id: string, by: string): Promise<void> {
  await db()
    .updateTable("schedules")
    .set((eb) => ({ seats: eb("seats", "+", 1), ...nextVersion(by) }))
    .where("id", "=", id)
    .where((eb) => eb("seats", "<", eb.ref("totalSeats")))
    .execute();
  // Called by a privacy erasure too (an enquiry leaving a waitlist): nothing from before is served again.
  await contentChanged({ switch: "at-once" });
}

export async function scheduleIdsOfCourse(courseId: string): Promise<string[]> {
  return (await db().selectFrom("schedules").select("id").where("course", "=", courseId).execute()).map((r) => r.id);
}

/** Every batch, newest first (batch names for exports, the batch choice of an enquiry). */
export async function listAllSchedules(limit = 2000): Promise<Schedule[]> {
  const rows = await withCourseFee(db().selectFrom("schedules")).orderBy("startDate", "desc").orderBy("id").limit(limit).execute();
  return rows.map(toSchedule);
}
