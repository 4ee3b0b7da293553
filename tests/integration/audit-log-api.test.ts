import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, openDb } from "~db/client.server";
import type { StaffActor } from "~/services/actor";
import { record } from "~/services/audit.server";
import { apiClient, startApiServer } from "../helpers/api-server";

// GET /api/audit-log over real HTTP against the built server. The entries are put in its database with the
// service's record() at fixed times (no API call writes the log at a chosen time). Sign-ins and the editor
// made here may add entries of their own once writes are audited, so the checks filter to this file's rows.
const server = startApiServer();
const api = apiClient(server);

let tokens: { admin: string; editor: string };
const asha: StaffActor = { user: { id: "u-asha", name: "Asha Admin", email: "asha@staff.test", role: "admin" }, ip: "203.0.113.7", requestId: "req-1" };
const ravi: StaffActor = { user: { id: "u-ravi", name: "Ravi Editor", email: "ravi@staff.test", role: "editor" }, ip: "198.51.100.4", requestId: "req-2" };

async function recordAt(at: string, actor: StaffActor, entityType: "enquiry" | "contact_query", entityId: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(at));
  try {
    await record(actor, "status", entityType, entityId, `Changed status of ${entityId}`);
  } finally {
    vi.useRealTimers();
  }
}

beforeAll(async () => {
  tokens = await api.staffTokens();
  await openDb(server.databaseUrl);
  await recordAt("2026-11-23T18:29:59.999Z", asha, "enquiry", "e-23rd");
  await recordAt("2026-11-23T19:00:00.000Z", ravi, "enquiry", "e-24th-a");
  await recordAt("2026-11-24T10:00:00.000Z", asha, "enquiry", "e-24th-b");
  await recordAt("2026-11-24T18:30:00.000Z", asha, "contact_query", "q-25th");
}, 60_000);
afterAll(async () => {
  await closeDb();
});

const ids = (body: { data: { entityId: string }[] }) => body.data.map((e) => e.entityId);
const asAdmin = (query: string) => api.get(`/api/audit-log${query}`, { token: tokens.admin });

describe("GET /api/audit-log", () => {
  it("needs a token (401), and an admin's (403 for an editor), in the API's error shape", async () => {
    const anonymous = await api.get("/api/audit-log");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
    expect(anonymous.body.error).toEqual({ code: "unauthorized", message: expect.any(String) });

    const editor = await api.get("/api/audit-log", { token: tokens.editor });
    expect(editor.status).toBe(403);
    expect(editor.body).toEqual({ error: { code: "forbidden", message: "Only an admin can do this" } });
  });

  it("answers an admin with the list shape, newest first", async () => {
    const r = await asAdmin("");
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(r.body).sort()).toEqual(["data", "limit", "page", "pages", "total"]);
    expect(r.body).toMatchObject({ page: 1, limit: 20 });
    const times = (r.body.data as { at: string }[]).map((e) => e.at);
    expect(times).toEqual([...times].sort().reverse());

    const mine = await asAdmin("?from=2026-11-24&to=2026-11-25&entityType=enquiry");
    expect(mine.body).toEqual({
      data: [
        expect.objectContaining({ entityId: "e-24th-b", at: "2026-11-24T10:00:00.000Z" }),
        {
          id: expect.any(String),
          at: "2026-11-23T19:00:00.000Z",
          userId: "u-ravi",
          userName: "Ravi Editor",
          ip: "198.51.100.4",
          requestId: "req-2",
          action: "status",
          entityType: "enquiry",
          entityId: "e-24th-a",
          summary: "Changed status of e-24th-a",
        },
      ],
      page: 1,
      limit: 20,
      total: 2,
      pages: 1,
    });
  });

  it("filters by user, entity type and Hyderabad days (both included), and pages", async () => {
    expect(ids((await asAdmin("?user=u-ravi")).body)).toEqual(["e-24th-a"]);
    expect(ids((await asAdmin("?entityType=contact_query")).body)).toEqual(["q-25th"]);
    // 19:00 UTC on Nov 23 is 00:30 on Nov 24 in Hyderabad; 18:29:59 UTC is still Nov 23 there.
    expect(ids((await asAdmin("?entityType=enquiry&from=2026-11-23&to=2026-11-23")).body)).toEqual(["e-23rd"]);
    expect(ids((await asAdmin("?entityType=enquiry&from=2026-11-24&to=2026-11-24")).body)).toEqual(["e-24th-b", "e-24th-a"]);
    expect(ids((await asAdmin("?from=2026-11-25&to=2026-11-25&entityType=contact_query")).body)).toEqual(["q-25th"]);

    const page2 = await asAdmin("?entityType=enquiry&from=2026-11-01&to=2026-11-30&limit=2&page=2");
    expect(page2.body).toMatchObject({ page: 2, limit: 2, total: 3, pages: 2 });
    expect(ids(page2.body)).toEqual(["e-23rd"]);
  });

  it("a bad parameter is a 400 naming the field, never a 500", async () => {
    for (const [query, fields] of [
      ["?from=2026-13-01", { from: "Enter a date as YYYY-MM-DD" }],
      ["?to=24-11-2026", { to: "Enter a date as YYYY-MM-DD" }],
      ["?from=2026-02-30", { from: "Enter a date as YYYY-MM-DD" }],
      ["?from=2026-11-24&to=2026-11-23", { to: "The to date cannot be before the from date" }],
      [
        "?entityType=banana",
        {
          entityType:
            "entityType must be one of course, schedule, review, enquiry, contact_query, user, session, outbox, settings, person, fee_plan, invoice, payment",
        },
      ],
      ["?user=" + "x".repeat(37), { user: "user must be at most 36 characters" }],
      ["?page=0", { page: "page must be a whole number from 1 to 1000000" }],
    ] as const) {
      const r = await asAdmin(query);
      expect(r.status, query).toBe(400);
      expect(r.body, query).toEqual({ error: { code: "invalid_input", message: Object.values(fields)[0], fields } });
    }
  });

  it("is only read: other methods are 405", async () => {
    const r = await api.post("/api/audit-log", { token: tokens.admin, json: {} });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, HEAD");
  });
});
