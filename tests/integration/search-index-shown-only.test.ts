import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, dialect, inTransaction } from "~db/client.server";
import { countMatching, insertEnquiry, pageEnquiries, updateEnquiryRow } from "~/models/enquiry.server";
import { eraseRecordRow, releaseHeldRecord } from "~/models/people.server";
import { useTestDatabase } from "../helpers/db";

useTestDatabase();

/**
 * Issue 39: SQLite's search index holds only the enquiries staff may see (migration 0190), and a search asks it once
 * per request (app/models/enquiry-search-matches.server.ts). Whatever writes the enquiries (the site, an erasure, SQL
 * by hand), a search's count and rows stay what SQL on the enquiries gives, on both databases.
 */

let n = 0;
function lead(name: string, held = false) {
  n++;
  return {
    fullName: name,
    email: `shown-only-${n}@example.com`,
    phone: `97${String(20_000_000 + n).padStart(8, "0")}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    privacyState: held ? "held" : "",
  } as never;
}

/** The ids staff may see whose name holds `part` (any case), as SQL on the enquiries gives them. */
async function namesHolding(part: string): Promise<string[]> {
  const rows = await db()
    .selectFrom("enquiries")
    .select("id")
    .where("privacyState", "=", "")
    .where(sql<boolean>`lower(${sql.ref("fullName")}) like ${`%${part.toLowerCase()}%`}`)
    .execute();
  return rows.map((r) => r.id).sort();
}

/** Every page of the search, its count on each, against SQL on the enquiries. */
async function expectSearchFinds(term: string, expected: string[]) {
  const first = await pageEnquiries({ q: term, limit: 50 });
  expect(first.total).toBe(expected.length);
  const found: string[] = [...first.data.map((e) => e.id)];
  for (let page = 2; page <= first.pages; page++) {
    const next = await pageEnquiries({ q: term, limit: 50, page });
    expect(next.total).toBe(expected.length);
    found.push(...next.data.map((e) => e.id));
  }
  expect(found.sort()).toEqual(expected);
  expect(await countMatching({ q: term })).toBe(expected.length);
}

/** SQLite: the index is exactly the rows staff may see ('integrity-check' with 1 compares it with its content view). */
async function expectIndexWhole() {
  if (dialect() !== "sqlite") return;
  await sql`insert into enquiries_search(enquiries_search, rank) values ('integrity-check', 1)`.execute(db());
}

describe("the search finds only what staff may see, after every kind of write", () => {
  it("holds, consents, erasures, renames, deletes and SQL by hand leave the count and rows what SQL gives", async () => {
    const shown = await insertEnquiry(lead("Zubaida Quraishi"));
    const held = await insertEnquiry(lead("Zubaida Minor", true));
    await expectIndexWhole();
    await expectSearchFinds("zubaida", [shown.id]);

    // A guardian's consent: the held one is found from then on.
    expect(await releaseHeldRecord("enquiry", held.id, new Date().toISOString())).toBe(true);
    await expectIndexWhole();
    await expectSearchFinds("Zubaida", [held.id, shown.id].sort());

    // A rename: the old name finds nothing, the new one finds it.
    await updateEnquiryRow(shown.id, { fullName: "Yasmin Quraishi" });
    await expectIndexWhole();
    await expectSearchFinds("zubaida", [held.id]);
    await expectSearchFinds("yasmin", [shown.id]);

    // An erasure: gone from the search at once.
    await eraseRecordRow("enquiry", held.id, new Date().toISOString());
    await expectIndexWhole();
    await expectSearchFinds("zubaida", []);

    // SQL by hand: a row held again, one deleted, one replaced (INSERT OR REPLACE on SQLite fires the delete).
    const other = await insertEnquiry(lead("Yasmin Begum"));
    await expectSearchFinds("yasmin", [other.id, shown.id].sort());
    await sql`update enquiries set ${sql.ref("privacyState")} = 'held' where id = ${shown.id}`.execute(db());
    await expectIndexWhole();
    await expectSearchFinds("yasmin", [other.id]);
    await sql`delete from enquiries where id = ${other.id}`.execute(db());
    await expectIndexWhole();
    await expectSearchFinds("yasmin", []);
    if (dialect() === "sqlite") {
      await sql`update enquiries set ${sql.ref("privacyState")} = '' where id = ${shown.id}`.execute(db());
      await sql`insert or replace into enquiries select * from enquiries where id = ${shown.id}`.execute(db());
      await expectIndexWhole();
      await expectSearchFinds("yasmin", [shown.id]);
    }
  });

  it("a common term's pages (walked in the list's order) and a rare one's agree with SQL, held rows left out", async () => {
    // Over 500 matches: the first pages walk the list's order instead of sorting the matches (walksOrder).
    for (let i = 0; i < 620; i++)
      await insertEnquiry(lead(`Common Ishaanvi ${i}`, i % 50 === 0), { createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString() });
    const expected = await namesHolding("ishaanvi");
    expect(expected.length).toBe(620 - 13);
    await expectSearchFinds("Ishaanvi", expected);
    const newest = await pageEnquiries({ q: "ishaanvi" });
    const newestShown = Array.from({ length: 21 }, (_, k) => 619 - k).filter((i) => i % 50 !== 0);
    expect(newest.data.map((e) => e.fullName)).toEqual(newestShown.map((i) => `Common Ishaanvi ${i}`));
    const last = await pageEnquiries({ q: "ishaanvi", page: newest.pages });
    expect(last.data.at(-1)?.fullName).toBe("Common Ishaanvi 1");
    const rare = await insertEnquiry(lead("Ishaanvi Vellalar"));
    await expectSearchFinds("Vellalar", [rare.id]);
  });

  it("searches run side by side inside one caller's transaction each get their own matches too", async () => {
    const terms = ["Oduya", "Keshet", "Ishaanvi", "Quraishi"];
    await insertEnquiry(lead("Inside Oduya"));
    await insertEnquiry(lead("Inside Keshet"));
    const results = await inTransaction(() => Promise.all(terms.map((q) => pageEnquiries({ q, limit: 100 }))));
    for (const [i, result] of results.entries()) {
      const expected = await namesHolding(terms[i]);
      expect(result.total).toBe(expected.length);
      expect(result.data.map((e) => e.id).filter((id) => !expected.includes(id))).toEqual([]);
    }
  });

  it("searches run side by side each get their own matches (the gathered matches are one request's)", async () => {
    await insertEnquiry(lead("Parallel Oduya"));
    await insertEnquiry(lead("Parallel Keshet"));
    const terms = ["Oduya", "Keshet", "Ishaanvi", "Parallel", "Quraishi", "nobody-here"];
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => pageEnquiries({ q: terms[i % terms.length], limit: 100 })));
    for (const [i, result] of results.entries()) {
      const expected = await namesHolding(terms[i % terms.length]);
      expect(result.total).toBe(expected.length);
      expect(result.data.length).toBe(Math.min(100, expected.length));
      expect(result.data.map((e) => e.id).filter((id) => !expected.includes(id))).toEqual([]);
    }
  });
});
