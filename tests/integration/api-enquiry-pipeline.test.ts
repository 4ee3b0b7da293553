import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, apiClient, startApiServer, signInCookie } from "../helpers/api-server";

/**
 * The enquiry pipeline over real HTTP on the built server: where a lead came from (the landing cookie), owner,
 * follow-up and batch through the API, filters, timeline and notes, the CSV export and a full batch on /schedules.
 */
const server = startApiServer();
const api = apiClient(server);
let admin = "";
let adminId = "";
let cookie = "";
let course = { id: "", title: "" };

// A phone and e-mail of its own each time: the same ones would (rightly) be linked as possible duplicates.
const lead = (over: Record<string, unknown> = {}) => ({
  fullName: "Api Lead",
  email: `api${Math.random().toString(36).slice(2, 8)}@example.com`,
  phone: `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`,
  preferredCourse: course.title,
  preferredMode: "online",
  ...over,
});

beforeAll(async () => {
  admin = await api.login(ADMIN.email, ADMIN.password);
  adminId = (await api.get("/api/auth/me", { token: admin })).body.data.id;
  const c = (await api.get("/api/courses")).body.data[0];
  course = { id: c.id, title: c.title };
  cookie = await signInCookie(server.url);
});

describe("the source of a lead", () => {
  it("is remembered from the landing page's UTM tags through the visit, without JavaScript", async () => {
    const landing = await fetch(`${server.url}/courses?utm_source=newsletter&utm_medium=email&utm_campaign=jan-batch`, {
      headers: { Referer: "https://mail.example.net/inbox" },
    });
    const leadCookie = landing.headers.getSetCookie().find((c) => c.startsWith("lead_src="));
    expect(leadCookie).toMatch(/HttpOnly/i);
    // A later page of the same visit does not replace it.
    expect(
      (await fetch(`${server.url}/schedules`, { headers: { Cookie: leadCookie!.split(";")[0] } })).headers
        .getSetCookie()
        .some((c) => c.startsWith("lead_src=")),
    ).toBe(false);
    const sent = await fetch(`${server.url}/?index`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: leadCookie!.split(";")[0] },
      body: new URLSearchParams({ intent: "enquiry", ...lead({ fullName: "Utm Visitor" }) }),
      redirect: "manual",
    });
    expect(sent.status).toBe(200);
    const found = (await api.get("/api/enquiries?q=Utm%20Visitor", { token: admin })).body.data[0];
    expect(found.source).toEqual({
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "jan-batch",
      referrer: "https://mail.example.net/inbox",
      form: "home",
    });
    expect(found.sourceLabel).toBe("newsletter");
  });

  it("falls back to the referring site, and the API may pass one on", async () => {
    const landing = await fetch(`${server.url}/`, { headers: { Referer: "https://www.youtube.com/watch?v=abc" } });
    const leadCookie = landing.headers
      .getSetCookie()
      .find((c) => c.startsWith("lead_src="))!
      .split(";")[0];
    await fetch(`${server.url}/?index`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: leadCookie },
      body: new URLSearchParams({ intent: "enquiry", ...lead({ fullName: "Tube Visitor" }) }),
    });
    expect((await api.get("/api/enquiries?q=Tube%20Visitor", { token: admin })).body.data[0].sourceLabel).toBe("youtube.com");
    const viaApi = await api.post("/api/enquiries", { json: lead({ source: { utmSource: "partner", referrer: "https://partner.example.org/" } }) });
    expect((await api.get(`/api/enquiries/${viaApi.body.data.id}`, { token: admin })).body.data.source).toMatchObject({ utmSource: "partner", form: "api" });
    const bad = await api.post("/api/enquiries", { json: lead({ source: { utmSource: "x".repeat(101) } }) });
    expect([bad.status, bad.body.error.fields]).toEqual([400, { "source.utmSource": "utmSource must be at most 100 characters" }]);
    const filtered = (await api.get("/api/enquiries?source=partner&form=api", { token: admin })).body;
    expect(filtered.data.map((e: { id: string }) => e.id)).toEqual([viaApi.body.data.id]);
  });
});

describe("an anonymous submission", () => {
  it("gets back only what it sent and the id: nothing tells whether that e-mail or phone enquired before", async () => {
    const first = await api.post("/api/enquiries", { json: lead({ fullName: "Probe Target" }) });
    expect(first.status).toBe(201);
    const probe = await api.post("/api/enquiries", { json: lead({ fullName: "Probe", email: first.body.data.email, phone: "+91 " + first.body.data.phone }) });
    expect(probe.status).toBe(201);
    expect(Object.keys(probe.body.data).sort()).toEqual([
      "createdAt",
      "email",
      "fullName",
      "id",
      "message",
      "phone",
      "preferredCourse",
      "preferredMode",
      "whatsappNotifications",
    ]);
    expect(probe.body.data).toMatchObject({ fullName: "Probe", email: first.body.data.email, phone: first.body.data.phone });
    // Staff see the link, and a staff caller gets the whole record back.
    expect((await api.get(`/api/enquiries/${probe.body.data.id}`, { token: admin })).body.data.duplicateOf).toEqual([first.body.data.id]);
    const byStaff = await api.post("/api/enquiries", { token: admin, json: lead({ email: first.body.data.email }) });
    expect(byStaff.body.data.duplicateOf).toContain(first.body.data.id);
    expect(byStaff.body.data.status).toBe("new");
  });
});

describe("following up through the API", () => {
  it("sets owner, follow-up and batch with PUT, lists by them, and keeps a timeline with notes", async () => {
    const made = (await api.post("/api/enquiries", { token: admin, json: lead() })).body.data;
    // Owned from the moment it arrives: the admin is the only one the round-robin can give it to.
    expect(made).toMatchObject({ assigneeId: adminId, followUpAt: null, scheduleId: null, duplicateOf: [], version: 1 });
    const schedule = (await api.get(`/api/schedules?course=${course.id}`)).body.data[0];
    const put = await api.put(`/api/enquiries/${made.id}`, {
      token: admin,
      json: { ...lead({ email: made.email, phone: made.phone }), assigneeId: adminId, followUpAt: "2031-01-05T10:30:00+05:30", scheduleId: schedule.id },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ assigneeId: adminId, followUpAt: "2031-01-05T05:00:00.000Z", scheduleId: schedule.id });
    expect((await api.get(`/api/enquiries?assignee=${adminId}`, { token: admin })).body.data.map((e: { id: string }) => e.id)).toContain(made.id);
    expect((await api.get("/api/enquiries?followUp=soon", { token: admin })).status).toBe(400);
    expect(
      (await api.put(`/api/enquiries/${made.id}`, { token: admin, json: { ...lead({ email: made.email, phone: made.phone }), followUpAt: "next tuesday" } }))
        .body.error.fields,
    ).toEqual({ followUpAt: "Enter the follow-up date and time" });

    const note = await api.post(`/api/enquiries/${made.id}/notes`, { token: admin, json: { text: "Called back." } });
    expect([note.status, note.body.data.kind, note.body.data.text]).toEqual([201, "note", "Called back."]);
    const timeline = (await api.get(`/api/enquiries/${made.id}/timeline`, { token: admin })).body.data;
    expect(timeline.map((t: { kind: string }) => t.kind)).toEqual(["note", "batch", "follow_up", "assignee", "created", "consent"]);
    // Set on arrival by the round-robin, then unchanged by the PUT: one owner line, the round-robin's.
    expect(timeline.find((t: { kind: string }) => t.kind === "assignee")).toMatchObject({ userName: "Round-robin", toValue: "Administrator" });
    expect((await api.get(`/api/enquiries/${made.id}/timeline`)).status).toBe(401);
    expect((await api.post(`/api/enquiries/${made.id}/notes`, { json: { text: "x" } })).status).toBe(401);
  });

  it("answers 409 with a clear message when enrolling into a full batch", async () => {
    const full = (
      await api.post("/api/schedules", {
        token: admin,
        json: {
          course: course.id,
          startDate: "2032-01-01",
          endDate: "2032-02-01",
          time: "7 PM",
          days: "Sat",
          mode: "online",
          location: "Online",
          totalSeats: 1,
        },
      })
    ).body.data;
    // Its one seat taken (seats are counted from enrolments, never set).
    const first = (await api.post("/api/enquiries", { json: lead() })).body.data;
    await api.put(`/api/enquiries/${first.id}`, { token: admin, json: { ...lead({ email: first.email, phone: first.phone }), scheduleId: full.id } });
    expect((await api.put(`/api/enquiries/${first.id}/status`, { token: admin, json: { status: "enrolled" } })).status).toBe(200);
    const e = (await api.post("/api/enquiries", { json: lead() })).body.data;
    await api.put(`/api/enquiries/${e.id}`, { token: admin, json: { ...lead({ email: e.email, phone: e.phone }), scheduleId: full.id } });
    const enrol = await api.put(`/api/enquiries/${e.id}/status`, { token: admin, json: { status: "enrolled" } });
    expect([enrol.status, enrol.body.error.code]).toEqual([409, "batch_full"]);
    expect(enrol.body.error.message).toMatch(/batch is full/);
    // The public schedules page shows it full, with no Enroll Now for it.
    const html = await (await fetch(`${server.url}/schedules`)).text();
    const card =
      html
        .split("<article")
        .map((a) => a.slice(0, a.indexOf("</article>")))
        .find((a) => a.includes("Jan 1, 2032")) ?? "";
    expect(card).toContain("This batch is full");
    expect(card).not.toContain("Enroll Now");
  });

  it("contact queries have a timeline and notes too", async () => {
    const q = (await api.post("/api/contact-queries", { json: { name: "Timeline", email: "t@example.com", message: "Hi" } })).body.data;
    await api.put(`/api/contact-queries/${q.id}/status`, { token: admin, json: { status: "replied" } });
    expect((await api.post(`/api/contact-queries/${q.id}/notes`, { token: admin, json: { text: "Sent the fees." } })).status).toBe(201);
    const lines = (await api.get(`/api/contact-queries/${q.id}/timeline`, { token: admin })).body.data;
    expect(lines.map((t: { kind: string }) => t.kind)).toEqual(["note", "status", "created", "consent"]);
  });
});

describe("the CSV export", () => {
  it("is the filtered list, UTF-8 with a BOM, one header row of labels, times in IST, formulas neutralised", async () => {
    await api.post("/api/enquiries", {
      json: lead({ fullName: '=HYPERLINK("http://evil")', message: "+1 and @mention\n-minus", source: { utmSource: "csvtest" } }),
    });
    await api.post("/api/enquiries", { json: lead({ fullName: "Ananya Ré", source: { utmSource: "csvtest" } }) });
    const res = await fetch(`${server.url}/admin/enquiries/export.csv?source=csvtest`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="enquiries-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(Buffer.from(bytes), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    const evil = rows.find((r) => r["Full name"].includes("HYPERLINK"))!;
    expect(evil["Full name"]).toBe('\'=HYPERLINK("http://evil")');
    expect(evil.Message.startsWith("'+1 and @mention\n")).toBe(true);
    const ananya = rows.find((r) => r["Full name"] === "Ananya Ré")!;
    // Hyderabad time, to the minute, as the header says: the same instant as the record's UTC one.
    const stored = (await api.get(`/api/enquiries?q=Ananya`, { token: admin })).body.data[0];
    expect(ananya["Created (IST)"]).toBe(new Date(Date.parse(stored.createdAt) + 330 * 60_000).toISOString().slice(0, 16).replace("T", " "));
    expect(ananya["Status"]).toBe("New");
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(["Created (IST)", "Next follow-up (IST)", "UTM source", "Owner"]));
    expect((await fetch(`${server.url}/admin/enquiries/export.csv`, { redirect: "manual" })).status).toBe(302);
    const contacts = await fetch(`${server.url}/admin/contact-queries/export.csv`, { headers: { Cookie: cookie } });
    expect(parse(await contacts.text(), { bom: true, columns: true }).length).toBeGreaterThan(0);
  });

  it("leaves out a date in the URL that names no real day, on the list and in the export, rather than failing", async () => {
    for (const path of ["/admin/enquiries?from=2026-02-30&source=csvtest", "/admin/enquiries/export.csv?from=2026-02-30&source=csvtest"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain("Ananya R");
    }
  });
});
