import { type AuditEntityType, type AuditAction } from "~/schemas/values";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~db/client.server";
import { formatDateTime } from "~/util/dates";
import * as auditLogScreen from "~/routes/admin.audit-log";
import type { StaffActor } from "~/services/actor";
import { auditLogUsers, listAuditLog, record } from "~/services/audit.server";
import { ServiceError } from "~/services/service-error";
import { useTestDatabase } from "../helpers/db";
import { makeRequest, run, staffCookie } from "./admin-route-helpers";

useTestDatabase();

const asha: StaffActor = { user: { id: "u-asha", name: "Asha Admin", email: "asha@staff.test", role: "admin" }, ip: "203.0.113.7", requestId: "req-asha-1" };
const ravi: StaffActor = { user: { id: "u-ravi", name: "Ravi Editor", email: "ravi@staff.test", role: "editor" }, ip: "198.51.100.4", requestId: "req-ravi-1" };

/** record() as the services call it, with the clock set to `at` (only Date is faked; timers and I/O run as usual). */
async function recordAt(at: string, actor: StaffActor, action: AuditAction, entityType: AuditEntityType, entityId: string | null, summary = "") {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(at));
  try {
    await record(actor, action, entityType, entityId, summary);
  } finally {
    vi.useRealTimers();
  }
}

const ids = (list: { entityId: string | null }[]) => list.map((e) => e.entityId);

beforeEach(async () => {
  await db().deleteFrom("audit_log").execute();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the audit log service", () => {
  it("lists entries newest first, with who, what, where and the request id", async () => {
    await recordAt("2026-03-10T10:00:00.000Z", asha, "create", "course", "c-1", "Created Threat Hunting");
    await recordAt("2026-03-12T10:00:00.000Z", ravi, "status", "enquiry", "e-1", "Changed status: new → contacted");
    await recordAt("2026-03-11T10:00:00.000Z", asha, "delete", "review", "r-1", "Deleted review by Vikram Rao");

    const page = await listAuditLog(asha, {});
    expect(ids(page.data)).toEqual(["e-1", "r-1", "c-1"]);
    expect(page).toMatchObject({ total: 3, page: 1, pages: 1 });
    expect(page.data[0]).toEqual({
      id: expect.any(String),
      at: "2026-03-12T10:00:00.000Z",
      userId: "u-ravi",
      userName: "Ravi Editor",
      ip: "198.51.100.4",
      requestId: "req-ravi-1",
      action: "status",
      entityType: "enquiry",
      entityId: "e-1",
      summary: "Changed status: new → contacted",
    });
  });

  it("filters by user, by entity type, and by both", async () => {
    await recordAt("2026-03-10T10:00:00.000Z", asha, "create", "course", "c-1");
    await recordAt("2026-03-10T11:00:00.000Z", ravi, "update", "course", "c-2");
    await recordAt("2026-03-10T12:00:00.000Z", ravi, "status", "enquiry", "e-1");
    await recordAt("2026-03-10T13:00:00.000Z", asha, "create", "user", "u-new");

    expect(ids((await listAuditLog(asha, { user: "u-ravi" })).data)).toEqual(["e-1", "c-2"]);
    expect(ids((await listAuditLog(asha, { entityType: "course" })).data)).toEqual(["c-2", "c-1"]);
    expect(ids((await listAuditLog(asha, { user: "u-asha", entityType: "course" })).data)).toEqual(["c-1"]);
    expect((await listAuditLog(asha, { user: "u-nobody" })).data).toEqual([]);
  });

  it("reads from and to as Hyderabad days, both included (19:00 UTC on Nov 23 is Nov 24 in Hyderabad)", async () => {
    await recordAt("2026-11-23T18:29:59.999Z", asha, "update", "course", "last-moment-of-23rd");
    await recordAt("2026-11-23T18:30:00.000Z", asha, "update", "course", "first-moment-of-24th");
    await recordAt("2026-11-23T19:00:00.000Z", asha, "update", "course", "evening-utc");
    await recordAt("2026-11-24T18:29:59.999Z", asha, "update", "course", "last-moment-of-24th");
    await recordAt("2026-11-24T18:30:00.000Z", asha, "update", "course", "first-moment-of-25th");

    expect(formatDateTime("2026-11-23T19:00:00.000Z")).toBe("Nov 24, 2026, 12:30 AM");
    expect(ids((await listAuditLog(asha, { from: "2026-11-24", to: "2026-11-24" })).data)).toEqual([
      "last-moment-of-24th",
      "evening-utc",
      "first-moment-of-24th",
    ]);
    expect(ids((await listAuditLog(asha, { to: "2026-11-23" })).data)).toEqual(["last-moment-of-23rd"]);
    expect(ids((await listAuditLog(asha, { from: "2026-11-25" })).data)).toEqual(["first-moment-of-25th"]);
    expect(ids((await listAuditLog(asha, { from: "2026-11-23", to: "2026-11-25" })).data)).toHaveLength(5);
  });

  it("pages: limit, page, total and pages, still newest first", async () => {
    for (let i = 1; i <= 5; i++) await recordAt(`2026-03-0${i}T08:00:00.000Z`, asha, "update", "schedule", `s-${i}`);
    const first = await listAuditLog(asha, { limit: 2 });
    expect(ids(first.data)).toEqual(["s-5", "s-4"]);
    expect(first).toMatchObject({ page: 1, limit: 2, total: 5, pages: 3 });
    expect(ids((await listAuditLog(asha, { limit: 2, page: 2 })).data)).toEqual(["s-3", "s-2"]);
    expect(ids((await listAuditLog(asha, { limit: 2, page: 3 })).data)).toEqual(["s-1"]);
    expect(await listAuditLog(asha, { limit: 2, page: 4 })).toMatchObject({ data: [], total: 5, pages: 3 });
  });

  it("names the people who appear in the log, for the user filter", async () => {
    await recordAt("2026-03-10T10:00:00.000Z", ravi, "update", "course", "c-1");
    await recordAt("2026-03-10T11:00:00.000Z", asha, "create", "course", "c-2");
    await recordAt("2026-03-10T12:00:00.000Z", ravi, "update", "course", "c-3");
    expect(await auditLogUsers(asha)).toEqual([
      { userId: "u-asha", userName: "Asha Admin" },
      { userId: "u-ravi", userName: "Ravi Editor" },
    ]);
  });

  it("refuses an editor: forbidden, nothing listed", async () => {
    await recordAt("2026-03-10T10:00:00.000Z", asha, "create", "course", "c-1");
    for (const attempt of [() => listAuditLog(ravi, {}), () => auditLogUsers(ravi)]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ kind: "forbidden", status: 403 });
    }
  });
});

describe("the /admin/audit-log screen's loader", () => {
  let admin: string;
  let editor: string;
  beforeAll(async () => {
    admin = await staffCookie("admin");
    editor = await staffCookie("editor");
  });

  type Screen = {
    list: { data: { entityId: string | null }[]; page: number; pages: number; total: number };
    error: string | null;
    filterErrors: Record<string, string>;
    values: Record<string, string>;
    users: { userId: string; userName: string }[];
  };
  /** As the admin unless told otherwise; null: no cookie at all. */
  const load = async (path: string, cookie: string | null = admin) => run(auditLogScreen.loader, makeRequest(path, { cookie: cookie ?? undefined }));

  it("sends a visitor to sign in, refuses an editor with 403, and shows an admin the log", async () => {
    await recordAt("2026-03-10T10:00:00.000Z", asha, "create", "course", "c-1");
    expect(await load("/admin/audit-log", null)).toMatchObject({ status: 302, location: "/admin/login" });
    expect((await load("/admin/audit-log", editor)).status).toBe(403);
    expect((await load("/admin/audit-log?entityType=course", editor)).status).toBe(403);
    const out = await load("/admin/audit-log");
    expect(out.status).toBe(200);
    const screen = out.body as Screen;
    expect(ids(screen.list.data)).toEqual(["c-1"]);
    expect(screen.users).toEqual([{ userId: "u-asha", userName: "Asha Admin" }]);
    expect(screen.error).toBeNull();
  });

  it("applies the URL's filters; the empty fields a GET form sends mean no filter", async () => {
    await recordAt("2026-03-10T10:00:00.000Z", asha, "create", "course", "c-1");
    await recordAt("2026-03-20T10:00:00.000Z", ravi, "status", "enquiry", "e-1");
    await recordAt("2026-04-02T10:00:00.000Z", ravi, "status", "enquiry", "e-2");

    const filtered = (await load("/admin/audit-log?user=u-ravi&entityType=enquiry&from=2026-03-01&to=2026-03-31")).body as Screen;
    expect(ids(filtered.list.data)).toEqual(["e-1"]);
    expect(filtered.values).toEqual({ user: "u-ravi", entityType: "enquiry", from: "2026-03-01", to: "2026-03-31" });

    const blank = (await load("/admin/audit-log?user=&entityType=&from=&to=")).body as Screen;
    expect(ids(blank.list.data)).toEqual(["e-2", "e-1", "c-1"]);
  });

  it("a bad filter value is a clear message with status 400, not a crash or an unfiltered list", async () => {
    await recordAt("2026-03-10T10:00:00.000Z", asha, "create", "course", "c-1");
    for (const [query, field, message] of [
      ["from=2026-13-01", "from", "From: Enter a date as YYYY-MM-DD."],
      ["to=2026-02-30", "to", "To: Enter a date as YYYY-MM-DD."],
      ["from=yesterday", "from", "From: Enter a date as YYYY-MM-DD."],
      ["from=2026-03-10&to=2026-03-01", "to", "To: The to date cannot be before the from date."],
      [
        "entityType=banana",
        "entityType",
        "Entity type: entityType must be one of course, schedule, review, enquiry, contact_query, user, session, outbox, settings, person, fee_plan, invoice, payment.",
      ],
    ] as const) {
      const out = await load(`/admin/audit-log?${query}`);
      expect(out.status, query).toBe(400);
      const screen = out.body as Screen;
      expect(screen.error, query).toBe(`The filter was not applied. ${message}`);
      expect(Object.keys(screen.filterErrors), query).toEqual([field]);
      expect(screen.list.data, query).toEqual([]);
    }
  });

  it("a page past the end goes to the last page, keeping the filters", async () => {
    await recordAt("2026-03-10T10:00:00.000Z", asha, "create", "course", "c-1");
    const out = await load("/admin/audit-log?entityType=course&from=2026-03-01&page=7");
    expect(out).toMatchObject({ status: 302, location: "/admin/audit-log?entityType=course&from=2026-03-01" });
  });
});
