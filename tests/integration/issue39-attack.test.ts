import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { DAY_FIGURES_TABLE } from "~db/migrations/0170-enquiry-day-figures";
import { NAME_WORDS_TABLE } from "~db/migrations/0180-name-words";
import { databaseTables, loadRows, type Row } from "~/models/backup-data.server";
import { countFiguresSince, type WindowFigure } from "~/models/enquiry-day-figures.server";
import { countMatching, eachEnquiry, insertEnquiry, pageEnquiries, updateEnquiryRow } from "~/models/enquiry.server";
import { eraseRecordRow } from "~/models/people.server";
import type { StaffActor } from "~/services/actor";
import { bulkUpdateEnquiries } from "~/services/enquiries.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";

useTestDatabase();

/**
 * Red-team tests of issue 39's running totals (migration 0170) and name word table (migration 0180): concurrency,
 * case-insensitive values, backups across engines, SQL by hand, and search and paging through the word table.
 */

const MYSQL = !!process.env.TEST_MYSQL_URL;
let n = 0;
function lead(over: { name?: string; course?: string; source?: string; held?: boolean } = {}) {
  n++;
  return {
    fullName: over.name ?? `Lead ${n}`,
    email: `lead${n}@example.com`,
    phone: `98${String(10_000_000 + n).padStart(8, "0")}`,
    preferredCourse: over.course ?? "SOC Analyst Training Program",
    preferredMode: "online",
    sourceLabel: over.source ?? "google",
    privacyState: over.held ? "held" : "",
  } as never;
}

/** The course figures of a window as counting the enquiries in SQL gives them (the database's own equality). */
async function coursesCounted(since: string): Promise<number[]> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from enquiries
    where ${sql.ref("createdAt")} >= ${since} and ${sql.ref("privacyState")} <> 'held' group by ${sql.ref("preferredCourse")}`.execute(db());
  return rows.map((r) => Number(r.n)).sort((a, b) => a - b);
}

const courseCounts = (figures: WindowFigure[]) =>
  figures
    .filter((f) => f.kind === "course")
    .map((f) => f.count)
    .sort((a, b) => a - b);

describe.runIf(MYSQL)("MariaDB: running totals under concurrency (attacks)", () => {
  it("16 writers changing statuses of one day's enquiries, and 4 inserting/erasing, autocommit: no error, no deadlock", async () => {
    const day = "2031-06-06T10:00:00.000Z";
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) ids.push((await insertEnquiry(lead({ name: `Anu Kumar ${i}` }), { createdAt: day })).id);
    const errors: string[] = [];
    const names = ["Zed Yak Xavier", "Aaron Abbot", "Mmm Nnn Ooo Ppp", "Priya Priyanka"];
    await Promise.all([
      ...ids.map(async (id, w) => {
        for (let k = 0; k < 20; k++)
          await updateEnquiryRow(id, { fullName: names[(k + w) % 4], status: (k % 2 ? "new" : "contacted") as never }).catch((e) => errors.push(String(e)));
      }),
      ...Array.from({ length: 4 }, async () => {
        for (let k = 0; k < 20; k++) {
          const e = await insertEnquiry(lead({ name: names[k % 4] }), { createdAt: day }).catch((e) => errors.push(String(e)));
          if (typeof e === "object" && k % 3 === 0) await eraseRecordRow("enquiry", e.id, day).catch((e) => errors.push(String(e)));
        }
      }),
    ]);
    expect(errors).toEqual([]);
  }, 120_000);

  it("two bulk changes of enquiries of the same two days, ticked in opposite day orders, both go through and the totals stay a recount", async () => {
    // A bulk change holds its enquiries' days' figure rows until it commits (migration 0170). It takes them oldest
    // first whatever the order they were ticked in, so two of them wait for each other in one order, never in both.
    // (Two transactions of SQL by hand that change enquiries of two days in opposite orders can deadlock: InnoDB
    // rolls one back, and the app's transactions run a deadlock's victim again.)
    const u = await createUserWithoutActor({ name: "Bulk", email: "bulk@attack.test", password: "long-enough-password", role: "editor" });
    const actor = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "bulk" } as StaffActor;
    const ids: string[] = [];
    for (const at of ["2031-06-07T10:00:00.000Z", "2031-06-08T10:00:00.000Z", "2031-06-08T11:00:00.000Z", "2031-06-07T11:00:00.000Z"])
      ids.push((await insertEnquiry(lead(), { createdAt: at })).id);
    // Other enquiries each (the same ones would be an edit conflict), of the same two days: the days' figure rows are shared.
    const outcomes = await Promise.allSettled([
      bulkUpdateEnquiries(actor, { ids: [ids[0], ids[1]], status: "contacted" }),
      bulkUpdateEnquiries(actor, { ids: [ids[2], ids[3]], status: "closed" }),
    ]);
    expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "ok"))).toEqual(["ok", "ok"]);
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from enquiries where ${sql.ref("privacyState")} <> 'held'
      and ${sql.ref("createdAt")} >= '2031-06-01' group by status`.execute(db());
    const figures = await countFiguresSince("2031-06-01T06:30:00.000Z", "2031-06-10T06:30:00.000Z");
    expect(
      figures
        .filter((f) => f.kind === "status")
        .map((f) => f.count)
        .sort((x, y) => x - y),
    ).toEqual(rows.map((r) => Number(r.n)).sort((x, y) => x - y));
  }, 60_000);
});

describe.runIf(MYSQL)("MariaDB: course or source spelt with another case", () => {
  it("the dashboard counts one course once, as counting its enquiries on the database does", async () => {
    await db().deleteFrom("enquiries").execute();
    // The same course for MariaDB's (case-insensitive) collation: one row of the totals on day 2, an edge day's row apart.
    for (const [course, at] of [
      ["Python", "2031-06-02T10:00:00.000Z"],
      ["python", "2031-06-02T11:00:00.000Z"],
      ["PYTHON", "2031-06-10T10:00:00.000Z"],
    ])
      await insertEnquiry(lead({ course }), { createdAt: at });
    const since = "2031-06-01T06:30:00.000Z";
    const figures = await countFiguresSince(since, "2031-06-10T06:30:00.000Z");
    // Counting the enquiries (GROUP BY preferredCourse, as the dashboard's grouped count did before): one course, 3.
    expect(courseCounts(figures)).toEqual(await coursesCounted(since));
  });
});

describe("running totals and backups", () => {
  it("a backup leaves the running totals and the word table out: a restore's triggers make them from the enquiries", async () => {
    // Loaded from an archive they would count every enquiry twice, and an archive moved between the engines could
    // not even be loaded (MariaDB's key takes "Python" and "python" for one course, SQLite for two).
    const dumped = (await databaseTables()).map((t) => t.name);
    expect(dumped).toContain("enquiries");
    expect(dumped).not.toContain(DAY_FIGURES_TABLE);
    expect(dumped).not.toContain(NAME_WORDS_TABLE);
    await db().deleteFrom("enquiries").execute();
    const kept: Row[] = [];
    for (const [course, at] of [
      ["Python", "2031-06-02T10:00:00.000Z"],
      ["python", "2031-06-02T11:00:00.000Z"],
    ]) {
      const e = await insertEnquiry(lead({ course }), { createdAt: at });
      kept.push(await db().selectFrom("enquiries").selectAll().where("id", "=", e.id).executeTakeFirstOrThrow());
    }
    await db().deleteFrom("enquiries").execute();
    async function* rows() {
      for (const r of kept) yield r;
    }
    // As a restore loads them (its columns those the migrations made: no generated ones).
    const columns = (await databaseTables()).find((t) => t.name === "enquiries")!.columns;
    await loadRows([{ name: "enquiries", columns, rows }]);
    const since = "2031-06-01T06:30:00.000Z";
    const recent = "2031-06-10T06:30:00.000Z";
    expect(courseCounts(await countFiguresSince(since, recent))).toEqual(await coursesCounted(since));
    await db()
      .deleteFrom("enquiries")
      .where("id", "=", kept[1].id as string)
      .execute();
    expect(courseCounts(await countFiguresSince(since, recent))).toEqual(await coursesCounted(since));
  });
});

describe.runIf(!MYSQL)("SQLite: SQL by hand", () => {
  it("INSERT OR REPLACE of an enquiry by hand leaves the totals equal to a recount (its delete triggers fire)", async () => {
    await db().deleteFrom("enquiries").execute();
    const e = await insertEnquiry(lead(), { createdAt: "2031-06-05T10:00:00.000Z" });
    const row = await db().selectFrom("enquiries").selectAll().where("id", "=", e.id).executeTakeFirstOrThrow();
    const columns = Object.keys(row);
    // The same row written again, replaced: SQLite deletes the old one without its delete trigger (recursive triggers off).
    await sql`insert or replace into enquiries (${sql.join(columns.map((c) => sql.ref(c)))}) values (${sql.join(columns.map((c) => (row as Row)[c] as never))})`.execute(
      db(),
    );
    const figures = await countFiguresSince("2031-06-01T06:30:00.000Z", "2031-06-10T06:30:00.000Z");
    expect(figures.filter((f) => f.kind === "status")).toEqual([{ kind: "status", value: "new", count: 1, recentCount: 0 }]);
  });
});

describe.runIf(MYSQL)("MariaDB: staff search through the name word table (attacks)", () => {
  const ids: Record<string, string> = {};
  const at = (i: number) => new Date(Date.UTC(2031, 0, 1) + i * 3_600_000).toISOString();

  it("one count, its pages and the export agree, held and erased never found, a word shared twice counted once", async () => {
    await db().deleteFrom("enquiries").execute();
    const names = [
      "Priya Priyanka",
      "PRIYA sharma",
      "José Ángel Núñez",
      "jose garcia",
      "O'Brien-Smith, Priya",
      "Ravi 37000 Kumar",
      "李小龙 Priya",
      "Pri Ya",
      `${"A".repeat(60)} Priyadarshini ${"b".repeat(20)}`,
      "100% priya_ok",
      "Émile Zola",
      "Priyanka 😀 Das",
    ];
    for (const [i, name] of names.entries()) ids[name] = (await insertEnquiry(lead({ name }), { createdAt: at(i) })).id;
    const held = (await insertEnquiry(lead({ name: "Priya Held", held: true }), { createdAt: at(50) })).id;
    const erased = (await insertEnquiry(lead({ name: "Priya Erased" }), { createdAt: at(51) })).id;
    expect(await eraseRecordRow("enquiry", erased, at(52))).toBe(true);
    await updateEnquiryRow(ids["PRIYA sharma"], { status: "contacted" as never });
    await updateEnquiryRow(ids["Priyanka 😀 Das"], { status: "contacted" as never });

    const expectations: [string, string[], Record<string, unknown>?][] = [
      [
        "priya",
        [
          "Priya Priyanka",
          "PRIYA sharma",
          "O'Brien-Smith, Priya",
          "李小龙 Priya",
          "100% priya_ok",
          "Priyanka 😀 Das",
          `${"A".repeat(60)} Priyadarshini ${"b".repeat(20)}`,
        ],
      ],
      ["priyanka", ["Priya Priyanka", "Priyanka 😀 Das"]],
      ["jose", ["José Ángel Núñez", "jose garcia"]],
      ["JOSÉ núñez", ["José Ángel Núñez"]],
      ["angel", ["José Ángel Núñez"]],
      ["emile", ["Émile Zola"]],
      ["37000 rav", ["Ravi 37000 Kumar"]],
      ["o'brien", ["O'Brien-Smith, Priya"]],
      ["smith priya", ["O'Brien-Smith, Priya"]],
      ["riya", []], // a word's middle: not found on MariaDB (README)
      ["priya", ["PRIYA sharma", "Priyanka 😀 Das"], { status: "contacted" }],
      ["priya", ["PRIYA sharma", "Priyanka 😀 Das"], { status: "contacted", course: "SOC Analyst Training Program" }],
      ["priya", [], { status: "enrolled" }],
      [
        "pri%",
        [
          "Pri Ya",
          "Priya Priyanka",
          "PRIYA sharma",
          "O'Brien-Smith, Priya",
          "李小龙 Priya",
          "100% priya_ok",
          "Priyanka 😀 Das",
          `${"A".repeat(60)} Priyadarshini ${"b".repeat(20)}`,
        ],
      ],
      ["held", []],
      ["erased", []],
    ];
    for (const [q, want, more] of expectations) {
      const filter = { q, ...more };
      const wanted = want.map((name) => ids[name]).sort();
      const count = await countMatching(filter);
      const page = await pageEnquiries({ ...filter, limit: 100 });
      const exported: string[] = [];
      for await (const rows of eachEnquiry(filter, 3)) exported.push(...rows.map((r) => r.id));
      expect({ q, more, count, total: page.total, ids: page.data.map((e) => e.id).sort(), exported: exported.sort() }).toEqual({
        q,
        more,
        count: wanted.length,
        total: wanted.length,
        ids: wanted,
        exported: wanted,
      });
    }
    expect([held, erased].some((id) => ids[id])).toBe(false);
  }, 60_000);

  it("a broad term's count equals its pages put together, with and without a status, and after statuses change", async () => {
    const made: string[] = [];
    for (let i = 0; i < 2100; i++) made.push((await insertEnquiry(lead({ name: `Kiran Das ${i}` }), { createdAt: at(100 + i) })).id);
    for (const id of made.slice(0, 700)) await updateEnquiryRow(id, { status: "closed" as never });
    for (const filter of [{ q: "kiran" }, { q: "kiran", status: "closed" }, { q: "kiran das", status: "new" }, { q: "kiran", source: "google" }]) {
      const count = await countMatching(filter);
      const seen = new Set<string>();
      const page1 = await pageEnquiries({ ...filter, limit: 100 });
      for (let p = 1; p <= Math.ceil(page1.total / 100); p++) for (const e of (await pageEnquiries({ ...filter, page: p, limit: 100 })).data) seen.add(e.id);
      expect({ filter, count, total: page1.total, seen: seen.size }).toEqual({ filter, count, total: count, seen: count });
    }
    expect(await countMatching({ q: "kiran", status: "closed" })).toBe(700);
    // Deep pages (from row 200) through the named per-filter indexes, and "Next follow-up first" with an empty box.
    for (const id of made.slice(0, 300)) await updateEnquiryRow(id, { followUpAt: at(5000 + (made.indexOf(id) % 37)) });
    for (const filter of [
      { status: "closed" },
      { source: "google" },
      { assigneeId: null },
      { sort: "oldest" as const, status: "new" },
      { sort: "follow-up" as const, q: "" },
      {},
    ]) {
      const count = await countMatching(filter);
      const seen: string[] = [];
      for (let p = 1; p <= Math.ceil(count / 100); p++) seen.push(...(await pageEnquiries({ ...filter, page: p, limit: 100 })).data.map((e) => e.id));
      expect({ filter, count, seen: seen.length, distinct: new Set(seen).size }).toEqual({ filter, count, seen: count, distinct: count });
    }
  }, 300_000);
});
