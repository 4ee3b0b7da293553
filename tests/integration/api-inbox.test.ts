import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, startApiServer } from "../helpers/api-server";

// Enquiries and contact queries: anyone may send one; only staff read and manage them.
const server = startApiServer();
const api = apiClient(server);

let admin: string;
let editor: string;
beforeAll(async () => {
  ({ admin, editor } = await api.staffTokens());
});

const enquiry = (extra: Record<string, unknown> = {}) => ({
  fullName: "Ravi Kumar",
  email: "Ravi.Kumar@Example.com",
  phone: "(987) 654-3210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online",
  message: "Weekend batch please",
  ...extra,
});
const contact = (extra: Record<string, unknown> = {}) => ({ name: "Sita", email: "sita@example.com", message: "Do you offer EMI?", ...extra });
const count = async (path: string) => (await api.get(`${path}?limit=1`, { token: admin })).body.total as number;

describe("enquiries", () => {
  it("anyone can enrol; status, attachments and id are not theirs to set; WhatsApp defaults to yes", async () => {
    const r = await api.post("/api/enquiries", {
      json: enquiry({ status: "enrolled", filePaths: ["../../etc/passwd"], id: "mine", createdAt: "2000-01-01T00:00:00.000Z" }),
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      fullName: "Ravi Kumar",
      email: "ravi.kumar@example.com",
      phone: "9876543210", // sent as "(987) 654-3210": stored as the 10 digits
      preferredMode: "online",
      whatsappNotifications: true,
    });
    expect(r.body.data.id).not.toBe("mine");
    expect(r.body.data.createdAt).not.toBe("2000-01-01T00:00:00.000Z");
    // What was stored, as staff read it: the sender could set neither status nor attachments.
    expect((await api.get(`/api/enquiries/${r.body.data.id}`, { token: admin })).body.data).toMatchObject({ filePaths: [], status: "new" });
    const off = await api.post("/api/enquiries", { json: enquiry({ whatsappNotifications: false }) });
    expect(off.body.data.whatsappNotifications).toBe(false);
    const form = new URLSearchParams({ ...enquiry(), preferredMode: "hybrid" } as Record<string, string>);
    const posted = await api.post("/api/enquiries", { body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(posted.status).toBe(201);
    expect(posted.body.data.preferredMode).toBe("hybrid");
  });

  it("gives the spec's message for each field and stores nothing", async () => {
    const before = await count("/api/enquiries");
    const empty = await api.post("/api/enquiries", { json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toEqual({
      code: "invalid_input",
      message: "Full name is required",
      fields: {
        fullName: "Full name is required",
        email: "Email is required",
        phone: "Phone number is required",
        preferredCourse: "Please select a course",
        preferredMode: "Please select preferred mode",
      },
    });
    const bad = await api.post("/api/enquiries", { json: enquiry({ email: "ravi@", phone: "12345", preferredMode: "weekends" }) });
    expect(bad.body.error.fields).toEqual({
      email: "Valid email is required",
      phone: "Valid 10-digit phone number is required",
      preferredMode: "Please select preferred mode",
    });
    expect(await count("/api/enquiries")).toBe(before);
  });

  it("lists for staff only, filtered and paged in SQL", async () => {
    expect((await api.get("/api/enquiries")).status).toBe(401);
    await api.post("/api/enquiries", {
      json: enquiry({ fullName: "Offline Person", preferredMode: "offline", preferredCourse: "Cloud Security Practitioner" }),
    });
    const all = await api.get("/api/enquiries?limit=2", { token: editor });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 2 });
    expect(all.body.data).toHaveLength(2);
    expect(all.body.data[0].fullName).toBe("Offline Person");
    const offline = await api.get("/api/enquiries?mode=offline", { token: editor });
    expect(offline.body.data.map((e: { fullName: string }) => e.fullName)).toEqual(["Offline Person"]);
    const byCourse = await api.get(`/api/enquiries?course=${encodeURIComponent("Cloud Security Practitioner")}`, { token: editor });
    expect(byCourse.body.total).toBe(1);
    const search = await api.get("/api/enquiries?q=9876543210", { token: editor });
    expect(search.body.total).toBeGreaterThan(0);
    expect((await api.get("/api/enquiries?status=new", { token: editor })).body.total).toBe(all.body.total);
    expect((await api.get("/api/enquiries?status=enrolled", { token: editor })).body.total).toBe(0);
    expect((await api.get("/api/enquiries?status=lost", { token: editor })).status).toBe(400);
  });

  it("sets any status from any other, validated by the shared schema", async () => {
    const made = (await api.post("/api/enquiries", { json: enquiry() })).body.data;
    expect((await api.put(`/api/enquiries/${made.id}/status`, { json: { status: "enrolled" } })).status).toBe(401);
    // Enrolled needs the batch the student joins while the course has upcoming ones (tests/integration/enquiry-desk.test.ts).
    const enrolled = await api.put(`/api/enquiries/${made.id}/status`, { token: editor, json: { status: "enrolled" } });
    expect(enrolled.status).toBe(400);
    expect(JSON.stringify(enrolled.body)).toContain("Choose the batch this student joins");
    for (const status of ["closed", "new", "contacted"]) {
      const r = await api.put(`/api/enquiries/${made.id}/status`, { token: editor, json: { status } });
      expect(r.status).toBe(200);
      expect(r.body.data.status).toBe(status);
    }
    const bad = await api.put(`/api/enquiries/${made.id}/status`, { token: editor, json: { status: "won" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ status: "Status must be one of new, contacted, enrolled, closed" });
    const none = await api.put(`/api/enquiries/${made.id}/status`, { token: editor });
    expect(none.body.error.fields).toEqual({ status: "Status must be one of new, contacted, enrolled, closed" });
    expect((await api.get(`/api/enquiries/${made.id}`, { token: editor })).body.data.status).toBe("contacted");
    expect((await api.put("/api/enquiries/nope/status", { token: editor, json: { status: "new" } })).status).toBe(404);
  });

  it("staff read one, correct it and delete it; anonymous callers can do none of that", async () => {
    const made = (await api.post("/api/enquiries", { json: enquiry() })).body.data;
    expect((await api.get(`/api/enquiries/${made.id}`)).status).toBe(401);
    expect((await api.put(`/api/enquiries/${made.id}`, { json: enquiry({ fullName: "Changed" }) })).status).toBe(401);
    expect((await api.del(`/api/enquiries/${made.id}`)).status).toBe(401);
    expect((await api.get(`/api/enquiries/${made.id}`, { token: admin })).body.data).toMatchObject(made);
    const fixed = await api.put(`/api/enquiries/${made.id}`, {
      token: editor,
      json: enquiry({ fullName: "Ravi K.", status: "contacted", whatsappNotifications: false }),
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({ fullName: "Ravi K.", status: "contacted", whatsappNotifications: false });
    const invalid = await api.put(`/api/enquiries/${made.id}`, { token: editor, json: enquiry({ phone: "" }) });
    expect(invalid.body.error.fields).toEqual({ phone: "Phone number is required" });
    expect((await api.del(`/api/enquiries/${made.id}`, { token: editor })).status).toBe(204);
    expect((await api.get(`/api/enquiries/${made.id}`, { token: editor })).status).toBe(404);
    expect((await api.del(`/api/enquiries/${made.id}`, { token: editor })).status).toBe(404);
  });
});

describe("contact queries", () => {
  it("anyone can send one; optional fields may be left out", async () => {
    const r = await api.post("/api/contact-queries", { json: contact({ status: "closed" }) });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ ...contact(), phone: null, subject: null, status: "new" });
    const full = await api.post("/api/contact-queries", { json: contact({ phone: "9876543210", subject: "Fees" }) });
    expect(full.body.data).toMatchObject({ phone: "9876543210", subject: "Fees" });
  });

  it("gives the spec's message for each field and stores nothing", async () => {
    const before = await count("/api/contact-queries");
    const empty = await api.post("/api/contact-queries", { json: { name: "  " } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual({ name: "Name is required", email: "Email is required", message: "Message is required" });
    const bad = await api.post("/api/contact-queries", { json: contact({ email: "sita.example.com" }) });
    expect(bad.body.error.fields).toEqual({ email: "Valid email is required" });
    expect(await count("/api/contact-queries")).toBe(before);
  });

  it("staff list, read, set the status and delete; anonymous callers get 401 and change nothing", async () => {
    const made = (await api.post("/api/contact-queries", { json: contact({ name: "Status Person" }) })).body.data;
    expect((await api.get("/api/contact-queries")).status).toBe(401);
    expect((await api.get(`/api/contact-queries/${made.id}`)).status).toBe(401);
    expect((await api.put(`/api/contact-queries/${made.id}/status`, { json: { status: "closed" } })).status).toBe(401);
    expect((await api.del(`/api/contact-queries/${made.id}`)).status).toBe(401);

    const list = await api.get("/api/contact-queries?status=new", { token: editor });
    expect(list.body.data[0]).toEqual(made);
    expect((await api.get("/api/contact-queries?q=Status Person", { token: editor })).body.total).toBe(1);
    const replied = await api.put(`/api/contact-queries/${made.id}/status`, { token: editor, json: { status: "replied" } });
    expect(replied.body.data.status).toBe("replied");
    const bad = await api.put(`/api/contact-queries/${made.id}/status`, { token: editor, json: { status: "contacted" } });
    expect(bad.body.error.fields).toEqual({ status: "Status must be one of new, replied, closed" });
    expect((await api.get(`/api/contact-queries/${made.id}`, { token: editor })).body.data.status).toBe("replied");
    expect((await api.del(`/api/contact-queries/${made.id}`, { token: editor })).status).toBe(204);
    expect((await api.get(`/api/contact-queries/${made.id}`, { token: editor })).status).toBe(404);
  });

  it("has no edit call (spec §7): PUT on a query is 405 with Allow", async () => {
    const made = (await api.post("/api/contact-queries", { json: contact() })).body.data;
    const r = await api.put(`/api/contact-queries/${made.id}`, { token: admin, json: contact({ name: "Edited" }) });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, DELETE, HEAD");
    expect((await api.get(`/api/contact-queries/${made.id}`, { token: admin })).body.data.name).toBe("Sita");
  });
});
