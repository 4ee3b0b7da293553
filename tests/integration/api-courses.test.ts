import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE, SYLLABUS_TYPE_MESSAGE } from "~/schemas/course";
import { ACTIVE_PDF_MESSAGES } from "~/schemas/uploads";
import { apiClient, startApiServer } from "../helpers/api-server";

const server = startApiServer();
const api = apiClient(server);

let admin: string;
let editor: string;
let png: Buffer;
const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
beforeAll(async () => {
  ({ admin, editor } = await api.staffTokens());
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#0a7" } })
    .png()
    .toBuffer();
});

const files = (kind: "images" | "syllabus" | "tmp") => {
  const dir = path.join(server.uploadDir, kind);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};
const total = async () => (await api.get("/api/courses")).body.total as number;

function courseForm(fields: Record<string, string | string[]>, attach: Record<string, { bytes: Buffer; name: string; type?: string }> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) value.forEach((v, i) => form.append(`${name}[${i}]`, v));
    else form.append(name, value);
  }
  for (const [name, f] of Object.entries(attach))
    form.append(name, new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "application/octet-stream" }), f.name);
  return form;
}
/**
 * A POST that reads the answer even when the server refuses the body before it has all arrived
 * (fetch reports the broken pipe instead of the early 413, as many real clients would not).
 */
function rawPost(urlPath: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${urlPath}`, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    let answered = false;
    req.on("response", () => (answered = true));
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    // Sent in slices with pauses, so the early answer is read before a write into the closed socket fails.
    let offset = 0;
    const pump = () => {
      if (answered || req.destroyed) return;
      if (offset >= body.length) return void req.end();
      const slice = body.subarray(offset, offset + 256 * 1024);
      offset += slice.length;
      if (req.write(slice)) setTimeout(pump, 2);
      else req.once("drain", () => setTimeout(pump, 2));
    };
    pump();
  });
}

const basics = { title: "Threat Hunting Lab", category: "intermediate", description: "Hunt threats in a live lab." };

describe("reading courses (anyone)", () => {
  it("lists the catalogue with paging metadata beside data", async () => {
    const r = await api.get("/api/courses");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, limit: 20, total: 5, pages: 1 });
    expect(r.body.data[0]).toMatchObject({ title: "SOC Analyst Training Program", featured: true, category: "beginner" });
    expect(Object.keys(r.body.data[0])).toEqual(
      expect.arrayContaining([
        "id",
        "title",
        "category",
        "duration",
        "description",
        "image",
        "featured",
        "highlights",
        "modes",
        "schedules",
        "syllabus",
        "syllabusFile",
        "syllabusFileName",
        "createdAt",
        "updatedAt",
      ]),
    );
    const page2 = await api.get("/api/courses?limit=2&page=2");
    expect(page2.body).toMatchObject({ page: 2, limit: 2, total: 5, pages: 3 });
    expect(page2.body.data).toHaveLength(2);
    expect((await api.get("/api/courses?limit=100")).body.limit).toBe(100);
    // The document's ranges are the server's: nothing beyond them is quietly clamped.
    for (const [query, field, message] of [
      ["limit=101", "limit", "limit must be a whole number from 1 to 100"],
      ["page=1000001", "page", "page must be a whole number from 1 to 1000000"],
      ["page=1000000000", "page", "page must be a whole number from 1 to 1000000"],
      ["page=1.5", "page", "page must be a whole number from 1 to 1000000"],
    ]) {
      const r = await api.get(`/api/courses?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error.fields, query).toEqual({ [field]: message });
    }
    expect((await api.get("/api/courses?page=1000000")).body).toMatchObject({ page: 1000000, data: [] });
  });

  it("filters by category and featured, and refuses unknown filter values", async () => {
    const advanced = await api.get("/api/courses?category=advanced");
    expect(advanced.body.data.length).toBeGreaterThan(0);
    expect(advanced.body.data.every((c: { category: string }) => c.category === "advanced")).toBe(true);
    const featured = await api.get("/api/courses?featured=true");
    expect(featured.body.data.every((c: { featured: boolean }) => c.featured)).toBe(true);
    const bad = await api.get("/api/courses?category=expert&page=zero");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({
      category: "category must be one of beginner, intermediate, advanced",
      page: "page must be a whole number from 1 to 1000000",
    });
  });

  it("reads one course, and 404 for an unknown id", async () => {
    const first = (await api.get("/api/courses")).body.data[0];
    const r = await api.get(`/api/courses/${first.id}`);
    expect(r.body).toEqual({ data: first });
    const missing = await api.get("/api/courses/does-not-exist");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: "not_found", message: "Course not found" } });
  });
});

describe("saving courses", () => {
  it("creates from JSON with the lists as arrays; the client cannot choose id or dates", async () => {
    const r = await api.post("/api/courses", {
      token: editor,
      json: {
        ...basics,
        featured: true,
        highlights: ["Live SIEM", " ", "Mentor"],
        modes: ["online", "weekend"],
        id: "mine",
        createdAt: "2001-01-01T00:00:00.000Z",
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      ...basics,
      featured: true,
      highlights: ["Live SIEM", "Mentor"],
      modes: ["online"],
      image: null,
      syllabusFile: null,
      syllabusFileName: "course-syllabus.pdf",
    });
    expect(r.body.data.id).not.toBe("mine");
    expect(r.body.data.createdAt).not.toBe("2001-01-01T00:00:00.000Z");
    expect((await api.get(`/api/courses/${r.body.data.id}`)).body.data.title).toBe(basics.title);
  });

  it("gives the spec's message per field and saves nothing", async () => {
    const before = await total();
    const r = await api.post("/api/courses", { token: admin, json: { category: "expert", highlights: ["x".repeat(201)] } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_input", message: "Title is required" });
    expect(r.body.error.fields).toEqual({
      title: "Title is required",
      category: "Category is required",
      description: "Description is required",
      "highlights[0]": "Each highlights must be at most 200 characters",
    });
    expect(await total()).toBe(before);
  });

  it("takes multipart with indexed entries and stores a PNG (as WebP) and a PDF", async () => {
    const form = courseForm(
      { ...basics, title: "Multipart Course", featured: "true", highlights: ["One", "Two"], modes: ["online", "offline"], schedules: ["Weekends"] },
      {
        image: { bytes: png, name: "cover.png", type: "image/png" },
        syllabusFile: { bytes: pdf, name: "Threat Hunting.pdf", type: "application/pdf" },
      },
    );
    const r = await api.post("/api/courses", { token: admin, body: form });
    expect(r.status).toBe(201);
    const c = r.body.data;
    expect(c).toMatchObject({
      title: "Multipart Course",
      featured: true,
      highlights: ["One", "Two"],
      modes: ["online", "offline"],
      schedules: ["Weekends"],
      syllabusFileName: "Threat Hunting.pdf",
    });
    expect(c.image).toMatch(/^\/media\/images\/[a-f0-9]{32}\.webp$/);
    expect(c.syllabusFile).toMatch(/^\/media\/syllabus\/[a-f0-9]{32}\.pdf$/);
    const image = await fetch(`${server.url}${c.image}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(40);
    const syllabus = await fetch(`${server.url}${c.syllabusFile}`);
    expect(Buffer.from(await syllabus.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it("refuses a text file dressed as an image or a PDF by its content (415), keeping no file", async () => {
    const before = { images: files("images"), syllabus: files("syllabus"), count: await total() };
    const fake = Buffer.from("just some text, not a picture\n".repeat(20));
    const asImage = await api.post("/api/courses", {
      token: admin,
      body: courseForm(basics, { image: { bytes: fake, name: "photo.png", type: "image/png" } }),
    });
    expect(asImage.status).toBe(415);
    expect(asImage.body.error).toEqual({ code: "unsupported_media_type", message: IMAGE_TYPE_MESSAGE, fields: { image: IMAGE_TYPE_MESSAGE } });
    const asPdf = await api.post("/api/courses", {
      token: admin,
      body: courseForm({ title: "" }, { image: { bytes: png, name: "ok.png" }, syllabusFile: { bytes: fake, name: "syllabus.pdf", type: "application/pdf" } }),
    });
    expect(asPdf.status).toBe(415);
    expect(asPdf.body.error.fields).toMatchObject({ syllabusFile: SYLLABUS_TYPE_MESSAGE, title: "Title is required" });
    expect(files("images")).toEqual(before.images);
    expect(files("syllabus")).toEqual(before.syllabus);
    expect(files("tmp")).toEqual([]);
    expect(await total()).toBe(before.count);
  });

  it("refuses a syllabus PDF that runs a script on opening (415), naming the field with the plain-PDF message", async () => {
    const before = { syllabus: files("syllabus"), count: await total() };
    const active = Buffer.from(
      "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /OpenAction << /S /J#61vaScript /JS (app.alert(1)) >> >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
    );
    const r = await api.post("/api/courses", {
      token: admin,
      body: courseForm(basics, { syllabusFile: { bytes: active, name: "syllabus.pdf", type: "application/pdf" } }),
    });
    expect(r.status).toBe(415);
    expect(r.body.error.fields).toEqual({ syllabusFile: ACTIVE_PDF_MESSAGES.syllabus });
    expect(files("syllabus")).toEqual(before.syllabus);
    expect(await total()).toBe(before.count);
  });

  it("refuses an image over 5 MB and a body over the request limit with 413", async () => {
    const before = await total();
    const big = Buffer.alloc(5 * 1024 * 1024 + 10, 1);
    png.copy(big);
    const r = await api.post("/api/courses", { token: admin, body: courseForm(basics, { image: { bytes: big, name: "huge.png", type: "image/png" } }) });
    expect(r.status).toBe(413);
    expect(r.body.error).toEqual({ code: "payload_too_large", message: IMAGE_SIZE_MESSAGE, fields: { image: IMAGE_SIZE_MESSAGE } });
    const huge = Buffer.alloc(17 * 1024 * 1024, 2);
    const multipart = new Response(courseForm(basics, { other: { bytes: huge, name: "x.bin" } }));
    const bytes = Buffer.from(await multipart.arrayBuffer());
    const headers = { "Content-Type": multipart.headers.get("content-type")!, Authorization: `Bearer ${admin}` };
    for (const declared of [true, false]) {
      const whole = await rawPost("/api/courses", declared ? { ...headers, "Content-Length": String(bytes.length) } : headers, bytes);
      expect(whole.status, declared ? "declared length" : "chunked").toBe(413);
      expect(JSON.parse(whole.text).error.code).toBe("payload_too_large");
    }
    expect(await total()).toBe(before);
    expect(files("tmp")).toEqual([]);
  });

  it("a save that fails validation after its files arrived deletes them", async () => {
    const before = { images: files("images"), syllabus: files("syllabus") };
    const r = await api.post("/api/courses", {
      token: admin,
      body: courseForm({ category: "beginner" }, { image: { bytes: png, name: "a.png" }, syllabusFile: { bytes: pdf, name: "s.pdf" } }),
    });
    expect(r.status).toBe(400);
    expect(r.body.error.fields).toEqual({ title: "Title is required", description: "Description is required" });
    expect(files("images")).toEqual(before.images);
    expect(files("syllabus")).toEqual(before.syllabus);
  });

  it("replacing or removing a file deletes the old one after the save; absent fields keep theirs", async () => {
    const made = await api.post("/api/courses", {
      token: admin,
      body: courseForm({ ...basics, title: "Replace Me" }, { image: { bytes: png, name: "a.png" }, syllabusFile: { bytes: pdf, name: "first.pdf" } }),
    });
    const c = made.body.data;
    const second = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#f00" } })
      .jpeg()
      .toBuffer();
    const replaced = await api.put(`/api/courses/${c.id}`, {
      token: editor,
      body: courseForm({ ...basics, title: "Replaced", highlights: ["Kept?"] }, { image: { bytes: second, name: "b.jpg" } }),
    });
    expect(replaced.status).toBe(200);
    const r = replaced.body.data;
    expect(r.image).not.toBe(c.image);
    expect(r.syllabusFile).toBe(c.syllabusFile);
    expect(r.syllabusFileName).toBe("first.pdf");
    expect((await fetch(`${server.url}${c.image}`)).status).toBe(404);
    expect((await fetch(`${server.url}${r.image}`)).status).toBe(200);

    const same = await api.put(`/api/courses/${c.id}`, { token: admin, json: { ...basics, title: "Same Files", image: r.image } });
    expect(same.body.data).toMatchObject({ image: r.image, syllabusFile: c.syllabusFile, highlights: [] });

    const removed = await api.put(`/api/courses/${c.id}`, { token: admin, body: courseForm({ ...basics, image: "", syllabusFile: "" }) });
    expect(removed.body.data).toMatchObject({ image: null, syllabusFile: null, syllabusFileName: "course-syllabus.pdf" });
    expect((await fetch(`${server.url}${r.image}`)).status).toBe(404);
    expect((await fetch(`${server.url}${c.syllabusFile}`)).status).toBe(404);
  });

  it("a remove flag reads like every other flag: true removes the file, as it sets featured; JSON booleans are only true or false", async () => {
    const made = await api.post("/api/courses", {
      token: admin,
      body: courseForm({ ...basics, title: "Remove Yes" }, { image: { bytes: png, name: "a.png" } }),
    });
    const c = made.body.data;
    const loose = await api.put(`/api/courses/${c.id}`, { token: admin, json: { ...basics, title: "Remove Yes", image: c.image, featured: "yes" } });
    expect([loose.status, loose.body.error?.fields]).toEqual([400, { featured: "Must be true or false" }]);
    const removed = await api.put(`/api/courses/${c.id}`, {
      token: admin,
      json: { ...basics, title: "Remove Yes", image: c.image, removeImage: true, featured: true },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ image: null, featured: true });
    expect((await fetch(`${server.url}${c.image}`)).status).toBe(404);
  });

  it("cannot point a course at another course's stored file", async () => {
    const owner = await api.post("/api/courses", { token: admin, body: courseForm({ ...basics, title: "Owner" }, { image: { bytes: png, name: "a.png" } }) });
    const r = await api.post("/api/courses", { token: admin, json: { ...basics, title: "Thief", image: owner.body.data.image } });
    expect(r.status).toBe(400);
    expect(r.body.error.fields).toEqual({ image: "Image must be an uploaded file, or empty to remove it" });
    const external = await api.post("/api/courses", { token: admin, json: { ...basics, title: "External", syllabusFile: "https://cdn.example.com/x.pdf" } });
    expect(external.body.error.fields).toEqual({ syllabusFile: "Syllabus file must be an uploaded file, or empty to remove it" });
  });

  it("deleting a course removes its files and batches; unknown ids are 404", async () => {
    const made = await api.post("/api/courses", { token: admin, body: courseForm({ ...basics, title: "Doomed" }, { image: { bytes: png, name: "a.png" } }) });
    const c = made.body.data;
    const batch = await api.post("/api/schedules", {
      token: admin,
      json: {
        course: c.id,
        startDate: "2031-01-01",
        endDate: "2031-02-01",
        time: "6:30 PM - 9:30 PM",
        days: "Mon",
        mode: "online",
        location: "Online",
        seats: 5,
        totalSeats: 10,
      },
    });
    expect(batch.status).toBe(201);
    const gone = await api.del(`/api/courses/${c.id}`, { token: editor });
    expect(gone.status).toBe(204);
    expect((await api.get(`/api/courses/${c.id}`)).status).toBe(404);
    expect((await api.get(`/api/schedules/${batch.body.data.id}`)).status).toBe(404);
    expect((await fetch(`${server.url}${c.image}`)).status).toBe(404);
    expect((await api.del(`/api/courses/${c.id}`, { token: admin })).status).toBe(404);
    expect((await api.put(`/api/courses/${c.id}`, { token: admin, json: basics })).status).toBe(404);
  });

  it("a file another row still names survives the course that uploaded it", async () => {
    const owner = await api.post("/api/courses", { token: admin, body: courseForm({ ...basics, title: "Lender" }, { image: { bytes: png, name: "a.png" } }) });
    const image = owner.body.data.image as string;
    const borrower = await api.post("/api/courses", { token: admin, json: { ...basics, title: "Borrower", syllabus: `## Lab\n\n![lab](${image})` } });
    expect(borrower.status).toBe(201);
    expect((await api.del(`/api/courses/${owner.body.data.id}`, { token: admin })).status).toBe(204);
    expect((await fetch(`${server.url}${image}`)).status).toBe(200);
    // Once nothing names it, it goes with the last course that did.
    expect((await api.put(`/api/courses/${borrower.body.data.id}`, { token: admin, json: { ...basics, title: "Borrower", syllabus: "## Lab" } })).status).toBe(
      200,
    );
    expect((await fetch(`${server.url}${image}`)).status).toBe(404);
  });

  it("anonymous writes are 401 and change nothing", async () => {
    const first = (await api.get("/api/courses")).body.data[0];
    const before = await total();
    expect((await api.post("/api/courses", { json: basics })).status).toBe(401);
    expect((await api.post("/api/courses", { body: courseForm(basics, { image: { bytes: png, name: "a.png" } }) })).status).toBe(401);
    expect((await api.put(`/api/courses/${first.id}`, { json: { ...basics, title: "Defaced" } })).status).toBe(401);
    expect((await api.del(`/api/courses/${first.id}`)).status).toBe(401);
    expect(await total()).toBe(before);
    expect((await api.get(`/api/courses/${first.id}`)).body.data).toEqual(first);
  });

  it("an upload refused before it is read leaves the connection usable: neither it nor the next request is reset", async () => {
    // Big enough not to fit in the server's buffers: unread, its rest would stay in the connection.
    const upload = courseForm({ ...basics, syllabus: "x".repeat(150_000) }, { image: { bytes: Buffer.alloc(600_000, 7), name: "a.png" } });
    const missing = `/api/courses/does-not-exist`;
    for (const [path, token, status] of [
      ["/api/courses", undefined, 401],
      ["/api/courses", "not-a-valid-token", 401],
      [missing, admin, 404],
    ] as const) {
      const refused = path === missing ? await api.put(path, { token, body: upload }) : await api.post(path, { token, body: upload });
      expect(refused.status).toBe(status);
      for (let i = 0; i < 3; i++) expect((await api.get("/api/courses?limit=1")).status).toBe(200);
    }
  });
});
