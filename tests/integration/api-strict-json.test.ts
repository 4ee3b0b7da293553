import { beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import { ADMIN, apiClient, startApiServer } from "../helpers/api-server";

/**
 * The API takes exactly what its OpenAPI document says: a JSON boolean is true or false (the HTML forms keep
 * "on"), a list a JSON array of at most maxItems entries and no null, null only where a field is nullable, ""
 * only where the schema takes it, a file only where a file is taken, days as real days. Every operation has an
 * operationId and a tag.
 */
const server = startApiServer();
const api = apiClient(server);
let admin = "";
let course = "";

const storedFiles = () =>
  fs.existsSync(server.uploadDir) ? fs.readdirSync(server.uploadDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;

const lead = (over: Record<string, unknown> = {}) => ({
  fullName: "Strict Json",
  email: `strict${Math.random().toString(36).slice(2, 8)}@example.com`,
  phone: `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`,
  preferredCourse: course,
  preferredMode: "online",
  ...over,
});

beforeAll(async () => {
  admin = await api.login(ADMIN.email, ADMIN.password);
  course = (await api.get("/api/courses")).body.data[0].title;
});

describe("JSON bodies", () => {
  it("take only true or false for a boolean", async () => {
    for (const value of ["on", "true", 1, 0, "yes", {}]) {
      const res = await api.post("/api/enquiries", { json: lead({ whatsappNotifications: value }) });
      expect([res.status, res.body.error?.fields], JSON.stringify(value)).toEqual([400, { whatsappNotifications: "Must be true or false" }]);
    }
    const featured = await api.post("/api/courses", {
      token: admin,
      json: { title: "Strict Course", category: "beginner", description: "About it", featured: "on" },
    });
    expect([featured.status, featured.body.error?.fields]).toEqual([400, { featured: "Must be true or false" }]);
    expect((await api.post("/api/enquiries", { json: lead({ whatsappNotifications: false }) })).status).toBe(201);
  });

  it("take null only where the document says nullable", async () => {
    for (const field of ["fullName", "message", "preferredMode", "whatsappNotifications", "batchDate"]) {
      const res = await api.post("/api/enquiries", { json: lead({ [field]: null }) });
      expect(res.status, field).toBe(400);
      expect(Object.keys(res.body.error.fields), field).toEqual([field]);
    }
    const nested = await api.post("/api/enquiries", { json: lead({ source: { utmSource: null } }) });
    expect([nested.status, nested.body.error?.fields]).toEqual([400, { "source.utmSource": "Must not be null" }]);
    // Nullable in the document: clearing the owner of an enquiry, removing a course's image.
    const made = await api.post("/api/enquiries", { token: admin, json: lead() });
    const cleared = await api.put(`/api/enquiries/${made.body.data.id}`, {
      token: admin,
      json: { ...lead({ email: made.body.data.email, phone: made.body.data.phone }), assigneeId: null, followUpAt: null },
    });
    expect(cleared.status).toBe(200);
  });

  it("name a batch by a real day, or are refused", async () => {
    for (const batchDate of ["soon", "2031-02-30", "05-01-2031"]) {
      const res = await api.post("/api/enquiries", { json: lead({ batchDate }) });
      expect([res.status, res.body.error?.fields], batchDate).toEqual([400, { batchDate: "batchDate must be a day as YYYY-MM-DD" }]);
    }
    expect((await api.post("/api/enquiries", { json: lead({ batchDate: "2031-02-28" }) })).status).toBe(201);
  });
});

describe("JSON bodies, as the document has them (Schemathesis' findings)", () => {
  const EMPTY = "Must not be empty: leave the field out instead";
  const courseBody = (over: Record<string, unknown> = {}) => ({ title: "Strict Lists", category: "beginner", description: "About it", ...over });
  const reviewBody = (over: Record<string, unknown> = {}) => ({
    name: "Strict",
    position: "SOC Analyst",
    image: "/images/a.png",
    rating: 5,
    course,
    review: "Good",
    ...over,
  });
  const contactBody = (over: Record<string, unknown> = {}) => ({
    name: "Strict",
    email: `c${Math.random().toString(36).slice(2, 8)}@example.com`,
    message: "Hello",
    ...over,
  });
  const total = async (path: string) => (await api.get(`${path}?limit=1`, { token: admin })).body.total as number;

  it('refuse "" where the schema refuses it (an e-mail, a phone, a link), instead of storing it as none', async () => {
    const before = await total("/api/contact-queries");
    for (const [field, extra] of [
      ["phone", {}],
      ["guardianEmail", {}],
      ["guardianEmail", { under18: true, guardianName: "A Parent" }],
    ] as const) {
      const res = await api.post("/api/contact-queries", { json: contactBody({ ...extra, [field]: "" }) });
      expect([res.status, res.body.error?.fields], field).toEqual([400, { [field]: EMPTY }]);
    }
    expect(await total("/api/contact-queries")).toBe(before);
    const enquiry = await api.post("/api/enquiries", { json: lead({ guardianEmail: "" }) });
    expect([enquiry.status, enquiry.body.error?.fields]).toEqual([400, { guardianEmail: EMPTY }]);

    const reviews = await total("/api/reviews");
    for (const field of ["linkedin", "videoThumbnail"]) {
      const res = await api.post("/api/reviews", { token: admin, json: reviewBody({ type: "video", [field]: "" }) });
      expect([res.status, res.body.error?.fields], field).toEqual([400, { [field]: EMPTY }]);
    }
    expect(await total("/api/reviews")).toBe(reviews);
    // Left out, they are none; a free text the schema allows empty (a subject) takes "" as none.
    const fine = await api.post("/api/contact-queries", { json: contactBody({ subject: "" }) });
    expect([fine.status, fine.body.data?.phone, fine.body.data?.subject]).toEqual([201, null, null]);
    const made = await api.post("/api/reviews", { token: admin, json: reviewBody() });
    expect([made.status, made.body.data?.linkedin]).toEqual([201, null]);
    const put = await api.put(`/api/reviews/${made.body.data.id}`, { token: admin, json: reviewBody({ linkedin: "" }) });
    expect([put.status, put.body.error?.fields]).toEqual([400, { linkedin: EMPTY }]);
  });

  it("take a list only as a JSON array: a text is not a list of one", async () => {
    const before = await total("/api/courses");
    for (const field of ["highlights", "schedules", "modes"]) {
      const res = await api.post("/api/courses", { token: admin, json: courseBody({ [field]: "AAA" }) });
      expect([res.status, res.body.error?.fields], field).toEqual([400, { [field]: "Must be a list" }]);
    }
    const id = (await api.get("/api/courses")).body.data[0].id as string;
    const put = await api.put(`/api/courses/${id}`, { token: admin, json: courseBody({ modes: "online" }) });
    expect([put.status, put.body.error?.fields]).toEqual([400, { modes: "Must be a list" }]);
    expect(await total("/api/courses")).toBe(before);
  });

  it("refuse a null entry in a list rather than drop it", async () => {
    const before = await total("/api/courses");
    const highlights = await api.post("/api/courses", { token: admin, json: courseBody({ highlights: ["Live SIEM", null] }) });
    expect([highlights.status, highlights.body.error?.fields]).toEqual([400, { "highlights[1]": "Must not be null" }]);
    const modes = await api.post("/api/courses", { token: admin, json: courseBody({ modes: [null] }) });
    expect([modes.status, modes.body.error?.fields]).toEqual([400, { "modes[0]": "Must not be null" }]);
    expect(await total("/api/courses")).toBe(before);
  });

  it("count a list's entries as sent: six modes are one too many, whatever the server would keep of them", async () => {
    const before = await total("/api/courses");
    for (const modes of [
      ["online", "offline", "hybrid", "AAA", "BBB", "CCC"],
      ["online", "", " ", "", "", ""],
    ]) {
      const res = await api.post("/api/courses", { token: admin, json: courseBody({ modes }) });
      // In the shared rule's words when it counts them too ("At most 5 modes entries"), else the document's.
      expect([res.status, res.body.error?.fields], JSON.stringify(modes)).toEqual([400, { modes: expect.stringMatching(/^At most 5 (modes )?entries$/) }]);
    }
    expect(await total("/api/courses")).toBe(before);
    // Five are taken; a mode the site does not offer is dropped, as the document says.
    const five = await api.post("/api/courses", {
      token: admin,
      json: courseBody({ title: "Five Modes", modes: ["online", "offline", "hybrid", "AAA", "BBB"] }),
    });
    expect([five.status, five.body.data?.modes]).toEqual([201, ["online", "offline", "hybrid"]]);
  });

  it("give the spec's message where the shared rules refuse the field too", async () => {
    const res = await api.post("/api/courses", { token: admin, json: { category: "beginner", description: "About it", title: "", highlights: "one" } });
    expect([res.status, res.body.error?.fields]).toEqual([400, { title: "Title is required", highlights: "Must be a list" }]);
  });
});

describe("form bodies", () => {
  it("keep the forms' readings: a list of one as one field, an empty box as none", async () => {
    const form = new URLSearchParams({ title: "Form Lists", category: "beginner", description: "About it", modes: "online", highlights: "Live SIEM" });
    form.append("highlights", "");
    const res = await fetch(`${server.url}/api/courses`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Bearer ${admin}` },
      body: form,
    });
    const body = await res.json();
    expect([res.status, body.data?.modes, body.data?.highlights]).toEqual([201, ["online"], ["Live SIEM"]]);
    const contact = await fetch(`${server.url}/api/contact-queries`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Form Person", email: "form.person@example.com", message: "Hello", phone: "", guardianEmail: "" }),
    });
    expect([contact.status, (await contact.json()).data?.phone]).toEqual([201, null]);
  });

  it("keep a checkbox's on", async () => {
    const res = await fetch(`${server.url}/api/enquiries`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...lead(), whatsappNotifications: "on" } as Record<string, string>),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).data.whatsappNotifications).toBe(true);
  });

  it("refuse a file sent for a text field, and keep no file of a refused course save", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(lead({ message: undefined }))) if (v !== undefined) form.append(k, String(v));
    form.append("message", new Blob(["hello"], { type: "text/plain" }), "message.txt");
    const res = await fetch(`${server.url}/api/enquiries`, { method: "POST", body: form });
    const body = await res.json();
    expect([res.status, body.error.fields]).toEqual([400, { message: "Send this field as text, not as a file" }]);

    const before = storedFiles();
    const course = new FormData();
    course.append("category", "beginner");
    course.append("description", "About it");
    course.append("title", new Blob(["x"], { type: "text/plain" }), "title.txt");
    course.append("image", new Blob([Buffer.from("89504e470d0a1a0a", "hex")], { type: "image/png" }), "a.png");
    const saved = await fetch(`${server.url}/api/courses`, { method: "POST", headers: { Authorization: `Bearer ${admin}` }, body: course });
    expect(saved.status).toBe(400);
    expect((await saved.json()).error.fields).toEqual({ title: "Send this field as text, not as a file" });
    expect(storedFiles()).toBe(before);
  });
});

describe("the OpenAPI document", () => {
  it("names every operation, once", async () => {
    const doc = (await api.get("/api/openapi.json")).body as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths["/api/enquiries/{id}/status"].put.operationId).toBe("putEnquiriesByIdStatus");
  });

  it("tags every operation with a tag it lists (Spectral's operation-tags)", async () => {
    const doc = (await api.get("/api/openapi.json")).body as { tags: { name: string }[]; paths: Record<string, Record<string, { tags?: string[] }>> };
    const listed = new Set(doc.tags.map((t) => t.name));
    const untagged = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => !op.tags?.length || !op.tags.every((t) => listed.has(t)))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(untagged).toEqual([]);
    expect([doc.paths["/api/settings"].get.tags, doc.paths["/api/settings"].put.tags, doc.paths["/api/people/erase"].post.tags]).toEqual([
      ["Settings"],
      ["Settings"],
      ["Privacy"],
    ]);
  });
});

describe("JSON numbers", () => {
  it("are JSON numbers: a rating or a seat count sent as text is refused", async () => {
    const review = await api.post("/api/reviews", {
      token: admin,
      json: { name: "Num", position: "SOC Analyst", image: "/images/a.png", rating: "5", course, review: "Good" },
    });
    expect([review.status, review.body.error?.fields]).toEqual([400, { rating: "Must be a number" }]);
    const ok = await api.post("/api/reviews", {
      token: admin,
      json: { name: "Num", position: "SOC Analyst", image: "/images/a.png", rating: 5, course, review: "Good" },
    });
    expect(ok.status).toBe(201);
  });

  it("are whole numbers where the document says integer: 1.5 seats is refused, naming the field, not cut to 1", async () => {
    const courseId = (await api.get("/api/courses")).body.data[0].id as string;
    const batch = { course: courseId, startDate: "2031-03-01", endDate: "2031-06-30", time: "7 - 9 PM", days: "Sat & Sun", mode: "online", location: "Online" };
    const half = await api.post("/api/schedules", { token: admin, json: { ...batch, seats: 1.5, totalSeats: 30 } });
    expect([half.status, half.body.error?.fields]).toEqual([400, { seats: "Must be a whole number" }]);
    const both = await api.post("/api/schedules", { token: admin, json: { ...batch, seats: 2, totalSeats: 29.99 } });
    expect([both.status, both.body.error?.fields]).toEqual([400, { totalSeats: "Must be a whole number" }]);
    const rating = await api.post("/api/reviews", {
      token: admin,
      json: { name: "Num", position: "SOC Analyst", image: "/images/a.png", rating: 4.5, course, review: "Good" },
    });
    expect([rating.status, rating.body.error?.fields]).toEqual([400, { rating: "Must be a whole number" }]);
    // A whole seats is taken and ignored (seats left are counted: a new batch has all 30).
    const ok = await api.post("/api/schedules", { token: admin, json: { ...batch, seats: 2, totalSeats: 30.0 } });
    expect([ok.status, ok.body.data?.seats, ok.body.data?.totalSeats]).toEqual([201, 30, 30]);
    const put = await api.put(`/api/schedules/${ok.body.data.id}`, { token: admin, json: { ...batch, seats: 0.5, totalSeats: 30 } });
    expect([put.status, put.body.error?.fields]).toEqual([400, { seats: "Must be a whole number" }]);
    expect((await api.get(`/api/schedules/${ok.body.data.id}`)).body.data.seats).toBe(30);
  });
});
