import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { DAY_FIGURES_TABLE } from "~db/migrations/0170-enquiry-day-figures";
import { loadRows, type Row } from "~/models/backup-data.server";
import { countFiguresSince, type WindowFigure } from "~/models/enquiry-day-figures.server";
import { countMatching, eachEnquiry, insertEnquiry, pageEnquiries, updateEnquiryRow } from "~/models/enquiry.server";
import { eraseRecordRow } from "~/models/people.server";
import { useTestDatabase } from "../helpers/db";

useTestDatabase();

/**
 * Red-team tests of issue 39's running totals (migration 0170) and name word table (migration 0180). Each `it` states
 * what should hold; the failing ones are findings (see the report), the passing ones attacks that held up.
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
  it("held: 16 writers changing statuses of one day's enquiries, and 4 inserting/erasing, autocommit: no error, no deadlock", async () => {
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

  it("FINDING: two transactions changing the status of enquiries of the same two days, in opposite day order, do not deadlock", async () => {
    // As bulkUpdateEnquiries or a multi-record erasure does: several enquiries in one transaction. Before migration
    // 0170 they locked only their own enquiries' rows; now each holds its days' figure rows until it commits.
    const ids: string[] = [];
    for (const at of ["2031-06-07T10:00:00.000Z", "2031-06-08T10:00:00.000Z", "2031-06-08T11:00:00.000Z", "2031-06-07T11:00:00.000Z"])
      ids.push((await insertEnquiry(lead(), { createdAt: at })).id);
    let release!: () => void;
    const bothFirst = new Promise<void>((r) => (release = r));
    let firsts = 0;
    const step = async () => {
      if (++firsts === 2) release();
      await bothFirst;
    };
    const set = (trx: typeof db extends () => infer D ? D : never, id: string) =>
      trx.updateTable("enquiries").set({ status: "contacted" }).where("id", "=", id).execute();
    const outcomes = await Promise.allSettled([
      // Day 7 then day 8.
      db()
        .transaction()
        .execute(async (trx) => {
          await set(trx as never, ids[0]);
          await step();
          await set(trx as never, ids[2]);
        }),
      // Day 8 then day 7.
      db()
        .transaction()
        .execute(async (trx) => {
          await set(trx as never, ids[1]);
          await step();
          await set(trx as never, ids[3]);
        }),
    ]);
    expect(outcomes.map((o) => (o.status === "rejected" ? String((o.reason as { code?: string }).code) : "ok"))).toEqual(["ok", "ok"]);
  }, 60_000);
});

describe.runIf(MYSQL)("MariaDB: course or source spelt with another case", () => {
  it("FINDING: the dashboard counts one course once, as counting its enquiries on the database does", async () => {
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

  it("FINDING: an SQLite archive whose totals hold two spellings of one course on one day restores into MariaDB", async () => {
    // SQLite compares the totals' values byte for byte: "Python" and "python" of one day are two rows there, as an
    // archive of an SQLite site holds them. MariaDB's key (case-insensitive collation) refuses the second.
    const rows: Row[] = [
      { kind: "course", day: "2031-06-02", value: "Python", n: 1 },
      { kind: "course", day: "2031-06-02", value: "python", n: 1 },
    ];
    async function* each() {
      for (const r of rows) yield r;
    }
    await expect(loadRows([{ name: DAY_FIGURES_TABLE, columns: ["kind", "day", "value", "n"], rows: each }])).resolves.toEqual({ [DAY_FIGURES_TABLE]: 2 });
  });
});

describe.runIf(!MYSQL)("SQLite: a MariaDB archive's totals restored here", () => {
  it("FINDING: after loading a MariaDB archive's rows, the figures equal a recount (and stay so after a delete)", async () => {
    await db().deleteFrom("enquiries").execute();
    // What a MariaDB site holds for two enquiries of one day whose course differs by case: the totals keep one row,
    // spelt as the first one that day ("Python", n = 2) — exactly what migration 0170's triggers write there.
    const enquiries: Row[] = [];
    const base = await insertEnquiry(lead({ course: "Python" }), { createdAt: "2031-06-02T10:00:00.000Z" });
    const other = await insertEnquiry(lead({ course: "python" }), { createdAt: "2031-06-02T11:00:00.000Z" });
    for (const id of [base.id, other.id]) enquiries.push(await db().selectFrom("enquiries").selectAll().where("id", "=", id).executeTakeFirstOrThrow());
    const figures: Row[] = [
      { kind: "course", day: "2031-06-03", value: "Python", n: 2 },
      { kind: "source", day: "2031-06-03", value: "google", n: 2 },
      { kind: "status", day: "2031-06-03", value: "new", n: 2 },
      { kind: "unanswered", day: "2031-06-03", value: "", n: 2 },
    ].map((r) => ({ ...r, day: "2031-06-02" }));
    const gen = (list: Row[]) =>
      async function* () {
        for (const r of list) yield r;
      };
    // In the archive's order (enquiries, then enquiry_day_figures), as the restore loads them.
    await loadRows([
      { name: "enquiries", columns: Object.keys(enquiries[0]), rows: gen(enquiries) },
      { name: DAY_FIGURES_TABLE, columns: ["kind", "day", "value", "n"], rows: gen(figures) },
    ]);
    const since = "2031-06-01T06:30:00.000Z";
    const recent = "2031-06-10T06:30:00.000Z";
    expect(courseCounts(await countFiguresSince(since, recent))).toEqual(await coursesCounted(since));
    await db().deleteFrom("enquiries").where("id", "=", other.id).execute();
    expect(courseCounts(await countFiguresSince(since, recent))).toEqual(await coursesCounted(since));
  });

  it("FINDING: INSERT OR REPLACE of an enquiry by hand (SQL) leaves the totals equal to a recount", async () => {
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

  it("held: one count, its pages and the export agree, held and erased never found, a word shared twice counted once", async () => {
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

  it("held: a broad term's count equals its pages put together, with and without a status, and after statuses change", async () => {
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
