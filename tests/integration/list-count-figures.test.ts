import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, dialect, inTransaction } from "~db/client.server";
import * as m0200 from "~db/migrations/0200-list-count-figures";
import { countListFigure, listPairValue, type ListFigure } from "~/models/enquiry-day-figures.server";
import { deleteEnquiryRow, insertEnquiry, pageEnquiries, updateEnquiryRow, type EnquiryFilter } from "~/models/enquiry.server";
import { eraseRecordRow, releaseHeldRecord } from "~/models/people.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";

useTestDatabase();

/**
 * Issue 39: the lists' counts kept as running totals (migration 0200): all enquiries staff may see, and per status,
 * course, source, mode, form, owner, batch, follow-up state, status + mode and course + source. Whatever writes the
 * enquiries (the site's models, an erasure, SQL typed by hand, writers at once), each figure must say what counting
 * the enquiries says, and each kept list's count and last page must be SQL's. On SQLite and (npm run test:mysql)
 * MariaDB, whose collation takes "Python" and "python" for one course: the database's own equality is the reference.
 */

const COURSES = ["SOC Analyst Training Program", "Cybersecurity Fundamentals"];
const SOURCES = ["google", "instagram.com", "direct"];
const MODES = ["online", "offline", "hybrid"];
let n = 0;

function lead(over: { course?: string; source?: string; mode?: string; held?: boolean; assigneeId?: string; scheduleId?: string } = {}) {
  n++;
  return {
    fullName: `Figure Lead ${n}`,
    email: `figure${n}@example.com`,
    phone: `98${String(30_000_000 + n).padStart(8, "0")}`,
    preferredCourse: over.course ?? COURSES[n % COURSES.length],
    preferredMode: over.mode ?? MODES[n % MODES.length],
    sourceLabel: over.source ?? SOURCES[n % SOURCES.length],
    source: { form: n % 2 ? "home" : "enquiry-page" },
    assigneeId: over.assigneeId ?? null,
    scheduleId: over.scheduleId ?? null,
    privacyState: over.held ? "held" : "",
  } as never;
}

/** Each figure's column (or pair of columns) in the enquiries, and what the list filters on. */
const FIGURES: { kind: ListFigure["kind"]; columns: string[]; filter: (values: (string | null)[]) => EnquiryFilter | null }[] = [
  { kind: "listall", columns: [], filter: () => ({}) },
  { kind: "liststatus", columns: ["status"], filter: ([v]) => ({ status: v! }) },
  { kind: "listcourse", columns: ["preferredCourse"], filter: ([v]) => ({ course: v! }) },
  { kind: "listsource", columns: ["sourceLabel"], filter: ([v]) => ({ source: v! }) },
  { kind: "listmode", columns: ["preferredMode"], filter: ([v]) => ({ mode: v! }) },
  { kind: "listform", columns: ["sourceForm"], filter: ([v]) => (v ? { form: v } : null) },
  { kind: "listowner", columns: ["assigneeId"], filter: ([v]) => ({ assigneeId: v }) },
  { kind: "listbatch", columns: ["scheduleId"], filter: ([v]) => (v ? { scheduleId: v } : null) },
  { kind: "liststmode", columns: ["status", "preferredMode"], filter: ([s, m]) => ({ status: s!, mode: m! }) },
  { kind: "listcrsrc", columns: ["preferredCourse", "sourceLabel"], filter: ([c, s]) => ({ course: c!, source: s! }) },
];

/**
 * Every figure against the enquiries: each group of values SQL finds among the rows staff may see (the database's
 * GROUP BY, so its own equality) is that figure's sum, and each kept list's count is it, with its last page SQL's.
 */
async function expectFiguresRight() {
  for (const figure of FIGURES) {
    const cols = figure.columns.map((c) => sql.ref(c));
    const groups = await sql<Record<string, string | null> & { n: number | string }>`
      select ${cols.length ? sql`${sql.join(cols)},` : sql``} count(*) as n from enquiries where ${sql.ref("privacyState")} = ''
      ${cols.length ? sql`group by ${sql.join(cols)}` : sql``}`.execute(db());
    let total = 0;
    for (const row of groups.rows) {
      const values = figure.columns.map((c) => row[c]);
      const value = values.length === 2 ? listPairValue(values[0] ?? "", values[1] ?? "") : (values[0] ?? "");
      total += Number(row.n);
      expect({ figure: figure.kind, value, n: await countListFigure({ kind: figure.kind, value }) }).toEqual({ figure: figure.kind, value, n: Number(row.n) });
      const filter = figure.filter(values);
      if (!filter) continue;
      const list = await pageEnquiries({ ...filter, limit: 5 });
      expect({ figure: figure.kind, value, total: list.total, capped: list.totalCapped }).toEqual({
        figure: figure.kind,
        value,
        total: Number(row.n),
        capped: undefined,
      });
    }
    // A value no enquiry has any more counts none (its rows are left at 0, never below).
    if (figure.columns.length === 1 && figure.kind !== "listowner") expect(await countListFigure({ kind: figure.kind, value: "no-such-value" })).toBe(0);
    if (figure.kind === "listall") expect(total).toBe(await countListFigure({ kind: "listall", value: "" }));
  }
  const negative = await db().selectFrom("enquiry_day_figures").select(["kind", "day", "value", "n"]).where("n", "<", 0).execute();
  expect(negative).toEqual([]);
  // Follow-up: with none, and dated (the two parts of "Next follow-up first").
  for (const [value, test] of [
    ["none", sql`${sql.ref("followUpAt")} is null`],
    ["dated", sql`${sql.ref("followUpAt")} is not null`],
  ] as const) {
    const r = await sql<{ n: number | string }>`select count(*) as n from enquiries where ${sql.ref("privacyState")} = '' and ${test}`.execute(db());
    expect({ value, n: await countListFigure({ kind: "listfollow", value }) }).toEqual({ value, n: Number(r.rows[0].n) });
  }
}

/** The kept lists' pages against SQL's order: the last page of the whole list, newest first and oldest first. */
async function expectLastPagesRight() {
  const shown = await db().selectFrom("enquiries").select("id").where("privacyState", "=", "").orderBy("createdAt", "desc").orderBy("id", "desc").execute();
  const first = await pageEnquiries({ limit: 3 });
  expect(first.total).toBe(shown.length);
  const last = await pageEnquiries({ limit: 3, page: first.pages });
  expect(last.data.map((e) => e.id)).toEqual(shown.slice((first.pages - 1) * 3).map((r) => r.id));
  const oldest = await pageEnquiries({ limit: 3, page: first.pages, sort: "oldest" });
  expect(oldest.data.map((e) => e.id)).toEqual(
    [...shown]
      .reverse()
      .slice((first.pages - 1) * 3)
      .map((r) => r.id),
  );
}

describe("the lists' running totals", () => {
  it("follow every kind of write: the site's, an erasure, a guardian's consent, a delete and SQL by hand", async () => {
    const owner = await createUserWithoutActor({ name: "Figure Owner", email: "figure-owner@example.test", password: "long-enough-password", role: "editor" });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        (
          await insertEnquiry(lead({ assigneeId: i % 3 ? owner.id : undefined, scheduleId: i % 4 ? undefined : "batch-a" }), {
            createdAt: new Date(Date.UTC(2031, 5, 1 + (i % 3), 10)).toISOString(),
          })
        ).id,
      );
    const held = await insertEnquiry(lead({ held: true }), { createdAt: "2031-06-02T11:00:00.000Z" });
    await expectFiguresRight();
    await expectLastPagesRight();

    // The desk's writes: status, course, mode, owner, follow-up, batch; then a guardian's consent and an erasure.
    await updateEnquiryRow(ids[0], { status: "contacted", followUpAt: "2031-07-01T04:30:00.000Z" });
    await updateEnquiryRow(ids[1], { preferredCourse: COURSES[0], preferredMode: "hybrid", assigneeId: null, scheduleId: "batch-b" });
    await updateEnquiryRow(ids[2], { status: "enrolled", assigneeId: owner.id, followUpAt: null });
    await updateEnquiryRow(ids[0], { followUpAt: null });
    expect(await releaseHeldRecord("enquiry", held.id, new Date().toISOString())).toBe(true);
    await eraseRecordRow("enquiry", ids[3], new Date().toISOString());
    await deleteEnquiryRow(ids[4]);
    await expectFiguresRight();
    await expectLastPagesRight();

    // SQL by hand: another source and form, a held row, a move to another day, a row inserted and one deleted.
    await sql`update enquiries set ${sql.ref("sourceLabel")} = 'newsletter', ${sql.ref("sourceForm")} = 'api' where id = ${ids[5]}`.execute(db());
    await sql`update enquiries set ${sql.ref("privacyState")} = 'held' where id = ${ids[6]}`.execute(db());
    await sql`update enquiries set ${sql.ref("createdAt")} = '2030-01-05T10:00:00.000Z' where id = ${ids[7]}`.execute(db());
    await sql`delete from enquiries where id = ${ids[8]}`.execute(db());
    if (dialect() === "sqlite") await sql`insert or replace into enquiries select * from enquiries where id = ${ids[9]}`.execute(db());
    await expectFiguresRight();
    await expectLastPagesRight();
  });

  it("take a course written in another case for the same course exactly when the list's filter does", async () => {
    await insertEnquiry(lead({ course: "Python Basics", source: "google", mode: "online" }));
    await insertEnquiry(lead({ course: "python basics", source: "Google", mode: "online" }));
    await expectFiguresRight();
  });

  it("keep two pairs apart whatever their parts hold (a course with the separator in it)", async () => {
    await insertEnquiry(lead({ course: "SOC | Weekend", source: "ads" }));
    await insertEnquiry(lead({ course: "SOC", source: "Weekend|ads" }));
    await insertEnquiry(lead({ course: "SOC |", source: " Weekend|ads" }));
    await expectFiguresRight();
    expect((await pageEnquiries({ course: "SOC | Weekend", source: "ads" })).total).toBe(1);
    expect((await pageEnquiries({ course: "SOC", source: "Weekend|ads" })).total).toBe(1);
  });

  it("stay exact when writers change the same day's figures at once, in opposite directions", async () => {
    const day = "2031-06-20T10:00:00.000Z";
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await insertEnquiry(lead({ course: COURSES[0], source: "google", mode: "online" }), { createdAt: day })).id);
    await Promise.all([
      ...ids.map((id, i) =>
        inTransaction(async () => {
          if (i % 2) await updateEnquiryRow(id, { status: "contacted", preferredMode: "offline" });
          else {
            await updateEnquiryRow(id, { status: "contacted" });
            await updateEnquiryRow(id, { status: "new", preferredMode: "hybrid", followUpAt: "2031-07-02T04:30:00.000Z" });
          }
        }),
      ),
      ...Array.from({ length: 6 }, () => inTransaction(() => insertEnquiry(lead({ course: COURSES[0], source: "google" }), { createdAt: day }))),
    ]);
    await expectFiguresRight();
  });

  it("are made from the enquiries already there when the migration runs", async () => {
    await m0200.down(db() as never);
    await insertEnquiry(lead(), { createdAt: "2031-06-03T10:00:00.000Z" });
    await m0200.up(db() as never);
    await expectFiguresRight();
    await expectLastPagesRight();
  });
});
