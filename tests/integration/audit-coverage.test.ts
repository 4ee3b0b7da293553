import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, startApiServer } from "../helpers/api-server";

/**
 * Every staff write leaves one audit row with the right person, in the same transaction as the change:
 * creates, updates, deletes, status changes, approve, password and role changes, sign-in (and failure) and
 * sign-out. Done through the API; the back-office screens call the same services (app/services).
 */
const server = startApiServer();
const api = apiClient(server);

type Entry = {
  userId: string | null;
  userName: string;
  ip: string;
  requestId: string;
  action: string;
  entityType: string;
  entityId: string | null;
  summary: string;
};
let tokens: { admin: string; editor: string; adminId: string; editorId: string };
const expected: { action: string; entityType: string; entityId: string | null; userId: string | null }[] = [];

async function made(p: string, token: string, json: unknown): Promise<string> {
  const r = await api.post(p, { token, json });
  if (r.status !== 201) throw new Error(`${p}: ${r.status} ${r.text}`);
  return r.body.data.id;
}
const ok = async (r: Promise<{ status: number; text: string }>, status = 200) => {
  const done = await r;
  if (done.status !== status) throw new Error(`${done.status} ${done.text}`);
};

beforeAll(async () => {
  tokens = await api.staffTokens();
  const { admin, editor, adminId, editorId } = tokens;
  expected.push({ action: "sign-in", entityType: "session", entityId: adminId, userId: adminId });
  expected.push({ action: "create", entityType: "user", entityId: editorId, userId: adminId });

  // Courses, batches and reviews by the editor.
  const course = await made("/api/courses", editor, { title: "Audit Course", category: "advanced", description: "Audited" });
  await ok(api.put(`/api/courses/${course}`, { token: editor, json: { title: "Audit Course 2", category: "advanced", description: "Audited" } }));
  const schedule = await made("/api/schedules", editor, {
    course,
    startDate: "2031-01-01",
    endDate: "2031-02-01",
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    seats: 3,
    totalSeats: 9,
  });
  await ok(
    api.put(`/api/schedules/${schedule}`, {
      token: editor,
      json: { course, startDate: "2031-01-01", endDate: "2031-02-02", time: "7 PM", days: "Sat", mode: "online", location: "Online", seats: 3, totalSeats: 9 },
    }),
  );
  const review = await made("/api/reviews", editor, { name: "Audit", position: "Tester", image: "/images/a.png", rating: 4, course: "SOC", review: "Fine." });
  await ok(
    api.put(`/api/reviews/${review}`, {
      token: editor,
      json: { name: "Audit", position: "Tester", image: "/images/a.png", rating: 5, course: "SOC", review: "Fine." },
    }),
  );
  await ok(api.put(`/api/reviews/${review}/approve`, { token: editor }));
  for (const [entityType, id, verbs] of [
    ["course", course, ["create", "update"]],
    ["schedule", schedule, ["create", "update"]],
    ["review", review, ["create", "update", "approve"]],
  ] as const) {
    for (const action of verbs) expected.push({ action, entityType, entityId: id, userId: editorId });
  }

  // Inbox: a visitor's enquiry is not a staff write; what staff do with it is.
  const enquiry = (
    await api.post("/api/enquiries", {
      json: { fullName: "Visitor", email: "v@example.com", phone: "9876543210", preferredCourse: "SOC Analyst Training Program", preferredMode: "online" },
    })
  ).body.data.id;
  await ok(api.put(`/api/enquiries/${enquiry}/status`, { token: editor, json: { status: "contacted" } }));
  await ok(
    api.put(`/api/enquiries/${enquiry}`, {
      token: editor,
      json: { fullName: "Visitor Two", email: "v@example.com", phone: "9876543210", preferredCourse: "SOC Analyst Training Program", preferredMode: "online" },
    }),
  );
  const query = (await api.post("/api/contact-queries", { json: { name: "Visitor", email: "v@example.com", message: "Hi" } })).body.data.id;
  await ok(api.put(`/api/contact-queries/${query}/status`, { token: editor, json: { status: "replied" } }));
  expected.push(
    { action: "status", entityType: "enquiry", entityId: enquiry, userId: editorId },
    { action: "update", entityType: "enquiry", entityId: enquiry, userId: editorId },
    { action: "status", entityType: "contact_query", entityId: query, userId: editorId },
  );
  await ok(api.del(`/api/enquiries/${enquiry}`, { token: editor }), 204);
  await ok(api.del(`/api/contact-queries/${query}`, { token: editor }), 204);
  await ok(api.del(`/api/reviews/${review}`, { token: editor }), 204);
  await ok(api.del(`/api/schedules/${schedule}`, { token: editor }), 204);
  await ok(api.del(`/api/courses/${course}`, { token: editor }), 204);
  for (const [entityType, id] of [
    ["enquiry", enquiry],
    ["contact_query", query],
    ["review", review],
    ["schedule", schedule],
    ["course", course],
  ] as const) {
    expected.push({ action: "delete", entityType, entityId: id, userId: editorId });
  }

  // Users: an admin renames, promotes and sets the password of another user, then deletes them.
  const other = (
    await api.post("/api/auth/register", { token: admin, json: { name: "Temp User", email: "temp-audit@example.com", password: "temp-password-1" } })
  ).body.data.id;
  await ok(
    api.put(`/api/users/${other}`, {
      token: admin,
      json: { name: "Temp Renamed", email: "temp-audit@example.com", role: "admin", password: "set-by-admin-2" },
    }),
  );
  await ok(api.del(`/api/users/${other}`, { token: admin }), 204);
  expected.push(
    { action: "create", entityType: "user", entityId: other, userId: adminId },
    { action: "update", entityType: "user", entityId: other, userId: adminId },
    { action: "role", entityType: "user", entityId: other, userId: adminId },
    { action: "password", entityType: "user", entityId: other, userId: adminId },
    { action: "delete", entityType: "user", entityId: other, userId: adminId },
  );

  // Own password, a failed sign-in and a sign-out by the editor.
  const editorEmail = (await api.get("/api/auth/me", { token: editor })).body.data.email as string;
  const changed = await api.put(`/api/users/${tokens.editorId}`, {
    token: editor,
    json: { currentPassword: "editor-password-1", password: "editor-password-2" },
  });
  expect(changed.status).toBe(200);
  expect((await api.post("/api/auth/login", { json: { email: editorEmail, password: "not-the-password" } })).status).toBe(401);
  await ok(api.post("/api/auth/logout", { token: changed.body.token }), 204);
  expected.push(
    { action: "password", entityType: "user", entityId: editorId, userId: editorId },
    { action: "sign-in-failed", entityType: "session", entityId: editorId, userId: editorId },
    { action: "sign-out", entityType: "session", entityId: editorId, userId: editorId },
  );
}, 120_000);

describe("the audit log", () => {
  it("has a row for every staff write, with who, where from and which request", async () => {
    const log = await api.get("/api/audit-log?limit=100", { token: tokens.admin });
    expect(log.status).toBe(200);
    const entries = log.body.data as Entry[];
    for (const e of expected) {
      expect(entries, JSON.stringify(e)).toContainEqual(expect.objectContaining(e));
    }
    for (const entry of entries) {
      expect(entry.ip).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
      expect(entry.requestId).toMatch(/^[a-f0-9]{16}$/);
      expect(entry.summary).not.toMatch(/password-|argon2/);
    }
    // A visitor's own submissions are not staff writes.
    expect(entries.filter((e) => e.userId === null && e.action === "create")).toEqual([]);
    const names = new Map(entries.map((e) => [e.userId, e.userName]));
    expect(names.get(tokens.adminId)).toBe("Administrator");
    expect(names.get(tokens.editorId)).toBe("Eddie Editor");
  });

  it("filters by user and entity type, and is for admins only", async () => {
    const byEditor = await api.get(`/api/audit-log?user=${tokens.editorId}&entityType=course&limit=100`, { token: tokens.admin });
    expect(byEditor.body.data.map((e: Entry) => e.action).sort()).toEqual(["create", "delete", "update"]);
    expect((await api.get("/api/audit-log", { token: tokens.editor })).status).toBe(401); // the editor signed out above
    const editorEmail = (await api.get(`/api/users/${tokens.editorId}`, { token: tokens.admin })).body.data.email;
    const editor = await api.login(editorEmail, "editor-password-2");
    expect((await api.get("/api/audit-log", { token: editor })).status).toBe(403);
    expect((await api.get("/api/audit-log")).status).toBe(401);
  });
});
