import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { insertEnquiry, pageEnquiries, firstEnquiries, type Enquiry } from "~/models/enquiry.server";
import type { StaffActor } from "~/services/actor";
import { resolveEnquiryFilter, type EnquiryListQuery } from "~/services/enquiry-lists.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";

/**
 * Issue 30: the enquiry lists read a page from the nearer end of their order (a last page costs what a first one
 * does) and show "Next follow-up first" and the queue as two parts one after the other. Every page of every order,
 * put together, must be exactly the whole list in its order: nothing missing, nothing twice, ties (the same
 * moment) broken by id, and rows staff may not see left out. On SQLite and (npm run test:mysql) MariaDB.
 */
useTestDatabase();

const NOW = new Date("2032-03-10T06:00:00.000Z");
let priya: StaffActor;
let arjun: StaffActor;
let rows: Enquiry[] = [];

beforeAll(async () => {
  const staff = async (name: string) => {
    const u = await createUserWithoutActor({ name, email: `${name.toLowerCase()}@paging.test`, password: "long-enough-password", role: "editor" });
    return { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "paging" } as StaffActor;
  };
  priya = await staff("Priya");
  arjun = await staff("Arjun");
  const statuses = ["new", "contacted", "new", "enrolled", "closed"] as const;
  for (let i = 0; i < 47; i++) {
    // Three at a time share a moment, so the order's tie-break (id) is tested; the rest a minute apart.
    const createdAt = new Date(Date.UTC(2032, 0, 1) + Math.floor(i / 3) * 60_000).toISOString();
    const e = await insertEnquiry(
      {
        fullName: `Paging Lead ${i}`,
        email: `paging${i}@example.com`,
        phone: `98${String(40_000_000 + i).padStart(8, "0")}`,
        preferredCourse: "SOC Analyst Training Program",
        preferredMode: i % 2 ? "online" : "offline",
      } as never,
      { createdAt },
    );
    // Follow-ups on some, a few at the same moment; before and after NOW, so the queue has overdue ones.
    const followUpAt = i % 3 === 0 ? null : new Date(NOW.getTime() + ((i % 7) - 3) * 3_600_000).toISOString();
    await db()
      .updateTable("enquiries")
      .set({
        status: statuses[i % statuses.length],
        followUpAt,
        assigneeId: i % 4 === 0 ? null : i % 4 === 1 ? arjun.user.id : priya.user.id,
        // A minor's enquiry held for a guardian: never in a staff list.
        privacyState: i % 16 === 5 ? "held" : "",
      })
      .where("id", "=", e.id)
      .execute();
  }
  rows = await db()
    .selectFrom("enquiries")
    .select(["id", "email", "createdAt", "followUpAt", "status", "assigneeId", "privacyState"])
    .execute()
    .then((found) => found as unknown as Enquiry[]);
});

type Row = { id: string; createdAt: string; followUpAt: string | null; status: string; assigneeId: string | null; privacyState?: string };
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const oldest = (a: Row, b: Row) => cmp(a.createdAt, b.createdAt) || cmp(a.id, b.id);
const earliestFollowUp = (a: Row, b: Row) => cmp(a.followUpAt ?? "", b.followUpAt ?? "") || oldest(a, b);
const shown = () => (rows as unknown as Row[]).filter((r) => r.privacyState === "");
const open = (r: Row) => r.status === "new" || r.status === "contacted";

/** The whole list in its order, as the spec of each order says. */
const followUpFirst = () => [
  ...shown()
    .filter((r) => r.followUpAt)
    .sort(earliestFollowUp),
  ...shown()
    .filter((r) => !r.followUpAt)
    .sort(oldest),
];
const queue = () => [
  ...shown()
    .filter((r) => r.assigneeId === priya.user.id && r.followUpAt && r.followUpAt < NOW.toISOString() && open(r))
    .sort(earliestFollowUp),
  ...shown()
    // New ones waiting for a first call: none with a follow-up still to come (issue 37), nor mine with one past (above).
    .filter(
      (r) =>
        r.status === "new" &&
        ((r.assigneeId === null && (!r.followUpAt || r.followUpAt < NOW.toISOString())) || (r.assigneeId === priya.user.id && !r.followUpAt)),
    )
    .sort(oldest),
];
const expected: Record<string, () => Row[]> = {
  newest: () => shown().sort((a, b) => -oldest(a, b)),
  oldest: () => shown().sort(oldest),
  "follow-up": followUpFirst,
  overdue: () =>
    shown()
      .filter((r) => r.followUpAt && r.followUpAt < NOW.toISOString() && open(r))
      .sort(earliestFollowUp),
  "contacted, oldest": () =>
    shown()
      .filter((r) => r.status === "contacted")
      .sort(oldest),
  queue,
  // Searches (FTS5 on SQLite; on MariaDB FULLTEXT and e-mail prefixes, the matches found once for count and page).
  "search by name": () => shown().sort((a, b) => -oldest(a, b)),
  "search by name, follow-up first": followUpFirst,
  "search by name, queue": queue,
  "search by e-mail's start": () =>
    shown()
      .filter((r) => /^paging4/.test((r as Row & { email: string }).email))
      .sort((a, b) => -oldest(a, b)),
};
const queries: Record<string, EnquiryListQuery> = {
  newest: {},
  oldest: { sort: "oldest" },
  "follow-up": { sort: "follow-up" },
  overdue: { followUp: "overdue" },
  "contacted, oldest": { status: "contacted", sort: "oldest" },
  queue: { view: "queue" },
  "search by name": { q: "Paging" },
  "search by name, follow-up first": { q: "paging", sort: "follow-up" },
  "search by name, queue": { q: "Paging", view: "queue" },
  "search by e-mail's start": { q: "paging4" },
};

describe("enquiry lists, page by page", () => {
  for (const [name, query] of Object.entries(queries)) {
    it(`${name}: every page of 4 and of 7, put together, is the whole list in its order`, async () => {
      const want = expected[name]().map((r) => r.id);
      expect(want.length).toBeGreaterThan(5);
      for (const limit of [4, 7]) {
        const seen: string[] = [];
        const pages = Math.ceil(want.length / limit);
        for (let page = 1; page <= pages; page++) {
          const got = await pageEnquiries(resolveEnquiryFilter(priya, { ...query, page, limit }, NOW));
          expect([got.total, got.pages]).toEqual([want.length, pages]);
          seen.push(...got.data.map((e) => e.id));
        }
        expect(seen).toEqual(want);
        // A page past the end is empty and says how many there are.
        const past = await pageEnquiries(resolveEnquiryFilter(priya, { ...query, page: pages + 1, limit }, NOW));
        expect([past.data, past.total]).toEqual([[], want.length]);
      }
      // The dashboard's first rows are the list's first rows.
      expect((await firstEnquiries(resolveEnquiryFilter(priya, { ...query, limit: 5 }, NOW))).map((e) => e.id)).toEqual(want.slice(0, 5));
    });
  }
});

describe("a search that matches thousands", () => {
  it("counts and pages them like any list (SQLite walks the list's order; MariaDB tests the rows instead of gathering ids)", async () => {
    // More matches than either database's plan for a few (SQLite: 500; MariaDB: 2,000), added in bulk.
    const base = Date.UTC(2031, 0, 1);
    const rowsToAdd = Array.from({ length: 2300 }, (_, i) => {
      const at = new Date(base + Math.floor(i / 2) * 60_000).toISOString();
      return {
        id: `broad-${String(i).padStart(5, "0")}`,
        fullName: `Broadway Student ${i}`,
        email: `broad${i}@example.org`,
        phone: `97${String(50_000_000 + i).padStart(8, "0")}`,
        phoneDigits: `97${String(50_000_000 + i).padStart(8, "0")}`,
        preferredCourse: "SOC Analyst Training Program",
        preferredMode: "online",
        message: "",
        whatsappNotifications: 0,
        filePaths: "[]",
        status: i % 2 ? "new" : "contacted",
        createdAt: at,
        updatedAt: at,
        privacyState: i % 100 === 7 ? "held" : "",
      };
    });
    for (let i = 0; i < rowsToAdd.length; i += 500)
      await db()
        .insertInto("enquiries")
        .values(rowsToAdd.slice(i, i + 500))
        .execute();
    const want = rowsToAdd
      .filter((r) => r.privacyState === "")
      .sort((a, b) => cmp(b.createdAt, a.createdAt) || cmp(b.id, a.id))
      .map((r) => r.id);
    const pages = Math.ceil(want.length / 20);
    for (const page of [1, 2, Math.floor(pages / 2), pages - 1, pages]) {
      const got = await pageEnquiries(resolveEnquiryFilter(priya, { q: "Broadway", page }, NOW));
      expect([got.total, got.pages]).toEqual([want.length, pages]);
      expect(got.data.map((e) => e.id)).toEqual(want.slice((page - 1) * 20, page * 20));
    }
    // Narrowed by another filter, and by e-mail (the same rows, by another index).
    const contacted = rowsToAdd.filter((r) => r.privacyState === "" && r.status === "contacted").length;
    expect((await pageEnquiries(resolveEnquiryFilter(priya, { q: "broadway", status: "contacted" }, NOW))).total).toBe(contacted);
    // A status changed afterwards (MariaDB counts a search within a status from its word table, which holds it).
    await db().updateTable("enquiries").set({ status: "enrolled" }).where("id", "in", ["broad-00000", "broad-00002", "broad-00001"]).execute();
    expect((await pageEnquiries(resolveEnquiryFilter(priya, { q: "broadway", status: "contacted" }, NOW))).total).toBe(contacted - 2);
    expect((await pageEnquiries(resolveEnquiryFilter(priya, { q: "broadway", status: "enrolled" }, NOW))).total).toBe(3);
    expect((await pageEnquiries(resolveEnquiryFilter(priya, { q: "broad1", sort: "oldest" }, NOW))).data[0].id).toBe("broad-00001");
  });
});

describe("a page far into a filtered list", () => {
  it("is the list's rows at that place for every filter (MariaDB reads it through the filter's own index)", async () => {
    const base = Date.UTC(2030, 0, 1);
    const statuses = ["new", "contacted", "enrolled", "closed"];
    const sources = ["google", "instagram.com", "direct"];
    const added = Array.from({ length: 2000 }, (_, i) => {
      const at = new Date(base + Math.floor(i / 2) * 60_000).toISOString();
      return {
        id: `deep-${String(i).padStart(5, "0")}`,
        fullName: `Deep Page ${i}`,
        email: `deep${i}@example.org`,
        phone: `96${String(60_000_000 + i).padStart(8, "0")}`,
        phoneDigits: `96${String(60_000_000 + i).padStart(8, "0")}`,
        preferredCourse: i % 3 ? "SOC Analyst Training Program" : "Cloud Security Practitioner",
        preferredMode: i % 2 ? "online" : "offline",
        message: "",
        whatsappNotifications: 0,
        filePaths: "[]",
        status: statuses[i % 4],
        sourceLabel: sources[i % 3],
        sourceForm: i % 5 ? "enquiry" : "api",
        assigneeId: i % 4 === 1 ? arjun.user.id : null,
        createdAt: at,
        updatedAt: at,
        privacyState: i % 97 === 3 ? "held" : "",
      };
    });
    for (let i = 0; i < added.length; i += 500)
      await db()
        .insertInto("enquiries")
        .values(added.slice(i, i + 500))
        .execute();
    const everyone = [...(await db().selectFrom("enquiries").selectAll().where("privacyState", "=", "").execute())];
    const newestFirst = (a: Row, b: Row) => -oldest(a, b);
    type Stored = (typeof everyone)[number];
    const lists: [EnquiryListQuery, (r: Stored) => boolean][] = [
      [{ status: "contacted" }, (r) => r.status === "contacted"],
      [{ status: "new", mode: "offline" }, (r) => r.status === "new" && r.preferredMode === "offline"],
      [{ course: "SOC Analyst Training Program", source: "google" }, (r) => r.preferredCourse === "SOC Analyst Training Program" && r.sourceLabel === "google"],
      [{ mode: "online" }, (r) => r.preferredMode === "online"],
      [{ source: "direct" }, (r) => r.sourceLabel === "direct"],
      [{ form: "enquiry" }, (r) => r.sourceForm === "enquiry"],
      [{ assignee: "none" }, (r) => r.assigneeId === null],
      [{ assignee: arjun.user.id }, (r) => r.assigneeId === arjun.user.id],
      [{ status: "closed", source: "instagram.com" }, (r) => r.status === "closed" && r.sourceLabel === "instagram.com"],
    ];
    for (const [query, test] of lists) {
      const want = everyone
        .filter(test)
        .sort((a, b) => newestFirst(a as Row, b as Row))
        .map((r) => r.id);
      const pages = Math.ceil(want.length / 20);
      // From the 200th row to the middle the page is read forwards, through the deep pages' index.
      for (const page of [11, Math.floor(pages / 2)]) {
        if ((page - 1) * 20 < 200) continue;
        const got = await pageEnquiries(resolveEnquiryFilter(priya, { ...query, page }, NOW));
        expect([got.total, got.data.map((e) => e.id)], JSON.stringify(query)).toEqual([want.length, want.slice((page - 1) * 20, page * 20)]);
      }
    }
  });
});
