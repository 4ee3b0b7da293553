import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, inTransaction } from "~db/client.server";
import * as m0170 from "~db/migrations/0170-enquiry-day-figures";
import * as m0200 from "~db/migrations/0200-list-count-figures";
import { countFiguresSince, countPerDay, countUnansweredBefore, type WindowFigure } from "~/models/enquiry-day-figures.server";
import { deleteEnquiryRow, insertEnquiry, updateEnquiryRow } from "~/models/enquiry.server";
import { eraseRecordRow, releaseHeldRecord } from "~/models/people.server";
import { siteToday } from "~/util/dates";
import { useTestDatabase } from "../helpers/db";

useTestDatabase();

/**
 * Issue 39: the dashboard's windows are read from running totals per Hyderabad day (migration 0170), kept by
 * triggers. Whatever writes the enquiries (the site's models, SQL typed by hand, a restore), the totals must say what
 * counting the enquiries themselves says: checked here against that count after every kind of write.
 */

const COURSES = ["SOC Analyst Training Program", "Cybersecurity Fundamentals", "Cloud Security Practitioner"];
const SOURCES = ["google", "instagram.com", "direct"];
let n = 0;

function lead(over: { course?: string; source?: string; held?: boolean } = {}) {
  n++;
  return {
    fullName: `Lead ${n}`,
    email: `lead${n}@example.com`,
    phone: `98${String(10_000_000 + n).padStart(8, "0")}`,
    preferredCourse: over.course ?? COURSES[n % COURSES.length],
    preferredMode: "online",
    sourceLabel: over.source ?? SOURCES[n % SOURCES.length],
    privacyState: over.held ? "held" : "",
  };
}

/** What counting the enquiries themselves gives, in the shape of countFiguresSince. */
async function counted(since: string, recentSince: string): Promise<WindowFigure[]> {
  const rows = await db()
    .selectFrom("enquiries")
    .select(["createdAt", "status", "preferredCourse", "sourceLabel"])
    .where("privacyState", "<>", "held")
    .where("createdAt", ">=", since)
    .execute();
  const totals = new Map<string, WindowFigure>();
  for (const r of rows)
    for (const [kind, value] of [
      ["status", r.status],
      ["course", r.preferredCourse],
      ["source", r.sourceLabel],
    ] as const) {
      const f = totals.get(`${kind}/${value}`) ?? { kind, value, count: 0, recentCount: 0 };
      f.count++;
      if (r.createdAt >= recentSince) f.recentCount++;
      totals.set(`${kind}/${value}`, f);
    }
  return sorted([...totals.values()]);
}

const sorted = (figures: WindowFigure[]) => [...figures].sort((a, b) => `${a.kind}/${a.value}`.localeCompare(`${b.kind}/${b.value}`));

async function countedPerDay(): Promise<Map<string, number>> {
  const rows = await db().selectFrom("enquiries").select("createdAt").where("privacyState", "<>", "held").execute();
  const days = new Map<string, number>();
  for (const r of rows) days.set(siteToday(new Date(r.createdAt)), (days.get(siteToday(new Date(r.createdAt))) ?? 0) + 1);
  return days;
}

const now = new Date("2031-06-11T06:30:00.000Z");
const since90 = new Date(now.getTime() - 90 * 86_400_000).toISOString(); // 2031-03-13T06:30Z, noon in Hyderabad
const since30 = new Date(now.getTime() - 30 * 86_400_000).toISOString(); // 2031-05-12T06:30Z

/** "New for more than 24 hours" as the list counts it: New, never answered, shown to staff, received before. */
async function countedUnanswered(before: string): Promise<number> {
  const r = await db()
    .selectFrom("enquiries")
    .where("status", "=", "new")
    .where("firstStatusChangeAt", "is", null)
    .where("privacyState", "=", "")
    .where("createdAt", "<", before)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function expectTotalsRight() {
  expect(sorted(await countFiguresSince(since90, since30))).toEqual(await counted(since90, since30));
  for (const before of [new Date(now.getTime() - 86_400_000).toISOString(), "2031-03-13T18:30:00.000Z", "2031-05-12T06:30:00.000Z", "2032-01-01T00:00:00.000Z"])
    expect(await countUnansweredBefore(before), before).toBe(await countedUnanswered(before));
  const perDay = await countPerDay("2000-01-01", "2099-12-31");
  expect(Object.fromEntries([...perDay].filter(([, count]) => count > 0))).toEqual(Object.fromEntries(await countedPerDay()));
}

describe("the dashboard's running totals", () => {
  const made: string[] = [];

  it("count enquiries made by the site, by plain SQL and held ones only once released, to the instant the window starts", async () => {
    // Around each edge of the windows (instants inside a Hyderabad day) and around Hyderabad's midnight (18:30 UTC).
    const instants = [
      "2031-03-13T06:29:59.999Z",
      "2031-03-13T06:30:00.000Z",
      "2031-03-13T18:29:59.000Z",
      "2031-03-13T18:30:00.000Z",
      "2031-05-12T06:29:00.000Z",
      "2031-05-12T06:31:00.000Z",
      "2031-06-08T18:29:59.000Z",
      "2031-06-08T18:30:00.000Z",
      "2031-06-11T06:00:00.000Z",
      "2030-12-01T10:00:00.000Z",
      "2031-07-01T10:00:00.000Z", // a clock ahead: counted as the windows have no end
    ];
    for (const [i, createdAt] of instants.entries()) made.push((await insertEnquiry(lead({ held: i === 4 }) as never, { createdAt })).id);
    // SQL typed by hand, as an import or a person at the database would write it.
    await sql`insert into enquiries (id, ${sql.ref("fullName")}, email, phone, ${sql.ref("phoneDigits")}, ${sql.ref("preferredCourse")}, ${sql.ref("preferredMode")}, message, ${sql.ref("filePaths")}, status, ${sql.ref("createdAt")}, ${sql.ref("updatedAt")}, ${sql.ref("sourceLabel")}, ${sql.ref("sourceForm")}, ${sql.ref("privacyState")})
      values ('by-hand-1', 'By Hand', 'hand@example.com', '9800000001', '9800000001', ${COURSES[0]}, 'online', '', '[]', 'contacted', '2031-05-20T10:00:00.000Z', '2031-05-20T10:00:00.000Z', 'google', '', '')`.execute(
      db(),
    );
    made.push("by-hand-1");
    await expectTotalsRight();
    // The held one counts once the guardian consents.
    expect(await releaseHeldRecord("enquiry", made[4], now.toISOString())).toBe(true);
    await expectTotalsRight();
  });

  it("follow every change of status, course, arrival and privacy, and deletions, through the models and plain SQL", async () => {
    await updateEnquiryRow(made[1], { status: "contacted" });
    await updateEnquiryRow(made[2], { preferredCourse: COURSES[2], status: "enrolled" });
    await expectTotalsRight();
    await db().updateTable("enquiries").set({ status: "closed" }).where("id", "=", made[3]).execute();
    await db().updateTable("enquiries").set({ sourceLabel: "newsletter" }).where("id", "=", made[5]).execute();
    await db().updateTable("enquiries").set({ createdAt: "2031-04-01T10:00:00.000Z" }).where("id", "=", made[6]).execute();
    await db().updateTable("enquiries").set({ privacyState: "held" }).where("id", "=", made[7]).execute();
    await expectTotalsRight();
    // Answered once and back to New: no longer waiting for a first answer.
    await db().updateTable("enquiries").set({ firstStatusChangeAt: now.toISOString() }).where("id", "=", made[10]).execute();
    await expectTotalsRight();
    // A held record erased counts from then on (what the dashboard counted before: everything not held).
    const heldThenErased = (await insertEnquiry(lead({ held: true }) as never, { createdAt: "2031-06-01T10:00:00.000Z" })).id;
    expect(await eraseRecordRow("enquiry", heldThenErased, now.toISOString())).toBe(true);
    expect(await eraseRecordRow("enquiry", made[8], now.toISOString())).toBe(true);
    await expectTotalsRight();
    await deleteEnquiryRow(made[9]);
    await db().deleteFrom("enquiries").where("id", "=", "by-hand-1").execute();
    await expectTotalsRight();
    // The last enquiry of a course moves on: its row stays at 0 and is not shown.
    await updateEnquiryRow(made[2], { preferredCourse: COURSES[0] });
    await expectTotalsRight();
    expect((await countFiguresSince(since90, since30)).some((f) => f.count === 0)).toBe(false);
  });

  it("are left alone by writes that change no figure (a follow-up, a note's touch, the name)", async () => {
    // The dashboard's figures only: the lists' (migration 0200, tests/integration/list-count-figures.test.ts) count
    // enquiries with and without a follow-up.
    const dashboardFigures = () =>
      db()
        .selectFrom("enquiry_day_figures")
        .selectAll()
        .where("kind", "in", ["course", "source", "status", "unanswered"])
        .orderBy("day")
        .orderBy("kind")
        .orderBy("value")
        .execute();
    const before = await dashboardFigures();
    await updateEnquiryRow(made[1], { followUpAt: "2031-06-12T04:30:00.000Z", fullName: "Renamed", status: "contacted" });
    await db().updateTable("enquiries").set({ touchedAt: now.toISOString() }).execute();
    expect(await dashboardFigures()).toEqual(before);
  });

  it("are made from the enquiries already there when the migration runs", async () => {
    const before = sorted(await countFiguresSince(since90, since30));
    await m0200.down(db() as never);
    await m0170.down(db() as never);
    await insertEnquiry(lead() as never, { createdAt: "2031-06-02T10:00:00.000Z" });
    await m0170.up(db() as never);
    await m0200.up(db() as never);
    const after = sorted(await countFiguresSince(since90, since30));
    expect(after).not.toEqual(before);
    await expectTotalsRight();
  });

  it("stay exact when many writers change the same day's figures at once, in opposite directions", async () => {
    const day = "2031-06-05T10:00:00.000Z";
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await insertEnquiry(lead({ course: COURSES[0], source: "google" }) as never, { createdAt: day })).id);
    await Promise.all([
      // Half go new → contacted while the others come back contacted → new; new ones arrive on the same day meanwhile.
      ...ids.map((id, i) =>
        inTransaction(async () => {
          if (i % 2) await updateEnquiryRow(id, { status: "contacted" });
          else {
            await updateEnquiryRow(id, { status: "contacted" });
            await updateEnquiryRow(id, { status: "new", preferredCourse: COURSES[1] });
          }
        }),
      ),
      ...Array.from({ length: 6 }, () => inTransaction(() => insertEnquiry(lead({ course: COURSES[0], source: "google" }) as never, { createdAt: day }))),
    ]);
    await expectTotalsRight();
  });
});
