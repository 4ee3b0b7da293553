import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, startApiServer } from "../helpers/api-server";

/**
 * Issue 36.7 over HTTP against the built server (SQLite, and MariaDB under npm run test:mysql): courses, schedules,
 * reviews, users and the site settings answer their version as the ETag and in the record; a write with an older
 * If-Match (or `version`) is a 409 edit_conflict carrying what is stored now; a schedule's seats are counted, never
 * taken from the body.
 */
const server = startApiServer();
const api = apiClient(server);

let admin: string;
let editor: string;
let editorId: string;
let courseId: string;
beforeAll(async () => {
  ({ admin, editor, editorId } = await api.staffTokens());
  courseId = (await api.post("/api/courses", { token: admin, json: { title: "Versioned Course", category: "advanced", description: "Made here" } })).body.data
    .id;
});

const batch = (extra: Record<string, unknown> = {}) => ({
  course: courseId,
  startDate: "2033-01-10",
  endDate: "2033-03-30",
  time: "7 PM",
  days: "Sat",
  mode: "online",
  location: "Online",
  totalSeats: 2,
  ...extra,
});
const enquiry = (name: string) => ({
  fullName: name,
  email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
  phone: `95${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
  preferredCourse: "Versioned Course",
  preferredMode: "online",
});

describe("versions over the API", () => {
  it("a course: GET answers the version as ETag; a stale If-Match is 409 with what is stored now; a fresh one saves", async () => {
    const made = await api.post("/api/courses", { token: editor, json: { title: "Cloud Labs", category: "beginner", description: "One" } });
    expect([made.status, made.headers.get("etag"), made.body.data.version, made.body.data.updatedBy]).toEqual([201, '"1"', 1, "Eddie Editor"]);
    const id = made.body.data.id as string;
    const read = await api.get(`/api/courses/${id}`, { token: admin });
    expect(read.headers.get("etag")).toBe('"1"');

    const first = await api.put(`/api/courses/${id}`, {
      token: admin,
      headers: { "If-Match": '"1"' },
      json: { title: "Cloud Labs", category: "beginner", description: "Two" },
    });
    expect([first.status, first.headers.get("etag"), first.body.data.version]).toEqual([200, '"2"', 2]);

    const stale = await api.put(`/api/courses/${id}`, {
      token: editor,
      headers: { "If-Match": '"1"' },
      json: { title: "Cloud Labs", category: "beginner", description: "Three" },
    });
    expect(stale.status).toBe(409);
    expect(stale.headers.get("etag")).toBe('"2"');
    expect(stale.body.error).toMatchObject({ code: "edit_conflict", current: { id, description: "Two", version: 2 } });
    expect(stale.body.error.message).toMatch(/^This course was changed by Administrator at .+ IST\. Here is what it holds now\.$/);
    // `version` in the body does the same as If-Match.
    const staleBody = await api.put(`/api/courses/${id}`, {
      token: editor,
      json: { title: "Cloud Labs", category: "beginner", description: "Three", version: 1 },
    });
    expect([staleBody.status, staleBody.body.error?.code]).toEqual([409, "edit_conflict"]);
    expect((await api.get(`/api/courses/${id}`)).body.data.description).toBe("Two");
    // An anonymous caller sees the version, not the staff member's name.
    const anon = await api.get(`/api/courses/${id}`);
    expect([anon.body.data.version, "updatedBy" in anon.body.data]).toEqual([2, false]);
    expect(((await api.get("/api/courses")).body.data as Record<string, unknown>[]).some((c) => "updatedBy" in c)).toBe(false);
    // A malformed If-Match is a 400, nothing written.
    const bad = await api.put(`/api/courses/${id}`, {
      token: editor,
      headers: { "If-Match": "two" },
      json: { title: "Cloud Labs", category: "beginner", description: "X" },
    });
    expect([bad.status, bad.body.error.fields]).toEqual([400, { version: 'If-Match must be the record\'s ETag, such as "3"' }]);
  });

  it("a schedule: seats are counted (a seats sent is ignored); two enrolments make a stale PUT a 409; the total cannot go below the seats taken", async () => {
    const made = await api.post("/api/schedules", { token: admin, json: batch({ seats: 0, totalSeats: 2 }) });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ seats: 2, seatsTaken: 0, totalSeats: 2, version: 1 });
    const id = made.body.data.id as string;

    for (const name of ["Api Seat One", "Api Seat Two"]) {
      const e = await api.post("/api/enquiries", { token: admin, json: { ...enquiry(name), batchDate: "2033-01-10" } });
      expect(e.status).toBe(201);
      const r = await api.put(`/api/enquiries/${e.body.data.id}/status`, { token: admin, json: { status: "enrolled" } });
      expect(r.status).toBe(200);
    }
    const full = await api.get(`/api/schedules/${id}`, { token: admin });
    expect(full.body.data).toMatchObject({ seats: 0, seatsTaken: 2, totalSeats: 2, version: 3 });
    expect(full.headers.get("etag")).toBe('"3"');

    // The batch as read before the enrolments, with its "2 seats left": refused, the seats stay right.
    const stale = await api.put(`/api/schedules/${id}`, { token: editor, headers: { "If-Match": '"1"' }, json: batch({ seats: 2, time: "8 PM" }) });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "edit_conflict", current: { seats: 0, seatsTaken: 2, version: 3, time: "7 PM" } });
    // Fresh, a seats sent is ignored: nothing frees up.
    const fresh = await api.put(`/api/schedules/${id}`, { token: editor, headers: { "If-Match": '"3"' }, json: batch({ seats: 2, time: "8 PM" }) });
    expect([fresh.status, fresh.body.data.seats, fresh.body.data.seatsTaken, fresh.body.data.time]).toEqual([200, 0, 2, "8 PM"]);
    const lower = await api.put(`/api/schedules/${id}`, { token: editor, json: batch({ totalSeats: 1 }) });
    expect([lower.status, lower.body.error?.fields]).toEqual([400, { totalSeats: "Total Seats cannot be below the 2 seats taken" }]);
    const raise = await api.put(`/api/schedules/${id}`, { token: editor, json: batch({ totalSeats: 5 }) });
    expect(raise.body.data).toMatchObject({ seats: 3, seatsTaken: 2, totalSeats: 5 });
  });

  it("a review: approving makes a new version; a PUT drawn before it is a 409", async () => {
    const body = { name: "Ravi K", position: "Analyst", image: "/images/a.png", rating: 5, course: "SOC", review: "Good." };
    const made = await api.post("/api/reviews", { token: admin, json: body });
    const id = made.body.data.id as string;
    const approved = await api.put(`/api/reviews/${id}/approve`, { token: editor });
    expect([approved.body.data.version, approved.headers.get("etag")]).toEqual([2, '"2"']);
    const stale = await api.put(`/api/reviews/${id}`, { token: admin, headers: { "If-Match": '"1"' }, json: { ...body, rating: 3 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.current).toMatchObject({ approved: true, rating: 5, version: 2 });
    const ok = await api.put(`/api/reviews/${id}`, { token: admin, headers: { "If-Match": 'W/"2"' }, json: { ...body, rating: 3, approved: true } });
    expect([ok.status, ok.body.data.rating, ok.body.data.version]).toEqual([200, 3, 3]);
  });

  it("a user: an edit with an older If-Match is a 409; a password change needs none", async () => {
    const read = await api.get(`/api/users/${editorId}`, { token: admin });
    const v = read.body.data.version as number;
    expect(read.headers.get("etag")).toBe(`"${v}"`);
    const renamed = await api.put(`/api/users/${editorId}`, {
      token: admin,
      headers: { "If-Match": `"${v}"` },
      json: { name: "Eddie E.", email: read.body.data.email },
    });
    expect([renamed.status, renamed.body.data.version]).toEqual([200, v + 1]);
    const stale = await api.put(`/api/users/${editorId}`, {
      token: admin,
      headers: { "If-Match": `"${v}"` },
      json: { name: "Eddie Old", email: read.body.data.email },
    });
    expect([stale.status, stale.body.error.code, stale.body.error.current.name]).toEqual([409, "edit_conflict", "Eddie E."]);
    const own = await api.put(`/api/users/${editorId}`, { token: editor, json: { currentPassword: "editor-password-1", password: "editor-password-2" } });
    expect(own.status).toBe(200);
    expect(own.body.data.version).toBe(v + 1);
  });

  it("the site settings: one version for all keys; a save from an older one is a 409 whichever key it sets", async () => {
    const read = await api.get("/api/settings", { token: admin });
    const v = read.body.data.version as number;
    expect(read.headers.get("etag")).toBe(`"${v}"`);
    const first = await api.put("/api/settings", { token: admin, headers: { "If-Match": `"${v}"` }, json: { studentsTrained: 7000 } });
    expect([first.status, first.body.data.studentsTrained, first.body.data.version, first.headers.get("etag")]).toEqual([200, 7000, v + 1, `"${v + 1}"`]);
    const stale = await api.put("/api/settings", { token: admin, headers: { "If-Match": `"${v}"` }, json: { ratingCount: 150 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toMatch(/^These site settings were changed by Administrator at .+ IST\. Here is what they hold now\.$/);
    expect(stale.body.error.current).toMatchObject({ studentsTrained: 7000, version: v + 1 });
    expect((await api.get("/api/settings", { token: admin })).body.data.ratingCount).toBe(read.body.data.ratingCount);
    // Without a version, a write applies to what is stored (as before).
    expect((await api.put("/api/settings", { token: admin, json: { ratingCount: 150 } })).body.data).toMatchObject({ ratingCount: 150, version: v + 2 });
  });

  it("the document describes the version, ETag, If-Match and the 409", async () => {
    const doc = (await api.get("/api/openapi.json")).body;
    for (const path of ["/api/courses/{id}", "/api/schedules/{id}", "/api/reviews/{id}", "/api/users/{id}", "/api/settings"]) {
      const put = doc.paths[path].put;
      expect(
        put.parameters.some((p: { in: string; name: string }) => p.in === "header" && p.name === "If-Match"),
        path,
      ).toBe(true);
      expect(put.responses["409"].description, path).toContain("edit_conflict");
      expect(put.responses["200"].headers.ETag, path).toBeTruthy();
      expect(doc.paths[path].get.responses["200"].headers.ETag, path).toBeTruthy();
    }
    expect(doc.components.schemas.Schedule.properties.seats.description).toMatch(/^Read only: seats left, counted/);
    expect(doc.components.schemas.ScheduleInput.properties.seats.description).toMatch(/^Ignored/);
    expect(doc.components.schemas.Error.properties.error.properties.current).toBeTruthy();
  });
});
