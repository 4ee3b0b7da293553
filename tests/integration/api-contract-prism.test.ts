import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startApiServer } from "../helpers/api-server";
import { Contract } from "../helpers/contract";
import { PDF, png } from "./upload-fixtures";
import { freePort } from "../helpers/ports";

/**
 * The API behind Stoplight Prism as a validating proxy (`prism proxy <document> <api> --errors`): Prism checks
 * every request and every answer against /api/openapi.json. A call the document admits must reach the server and
 * come back unchanged, with no violation reported (Prism would answer 500 or add an sl-violations header); a call
 * the document refuses is refused by Prism (401, 422), and the same call sent straight to the server is refused
 * by it too. Every operation is called, on its success path and on its usual error paths.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const PRISM = path.join(ROOT, "node_modules/@stoplight/prism-cli/dist/index.js");
const server = startApiServer();

type Proxy = { url: string; output: () => string; stop: () => Promise<void> };

async function startPrism(document: object, upstream: string): Promise<Proxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-prism-"));
  const file = path.join(dir, "openapi.json");
  fs.writeFileSync(file, JSON.stringify(document));
  const port = await freePort();
  let log = "";
  const child: ChildProcess = spawn(process.execPath, [PRISM, "proxy", file, upstream, "--errors", "--cors=false", "-h", "127.0.0.1", "-p", String(port)], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "test" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!log.includes("Prism is listening")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Prism did not start:\n${log.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, output: () => log, stop };
}

type Call = { method: string; path: string; token?: string; json?: unknown; form?: FormData; raw?: string };
type Answer = { status: number; headers: Headers; text: string; body: Record<string, unknown> & { data?: Record<string, unknown> & { id: string } } };

async function send(base: string, c: Call): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (c.token) headers.Authorization = `Bearer ${c.token}`;
  let body: BodyInit | undefined = c.form;
  if (c.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(c.json);
  }
  const res = await fetch(`${base}${c.path}`, { method: c.method, headers, body, redirect: "manual" });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (res.headers.get("content-type") ?? "").includes("json") && text ? JSON.parse(text) : {} };
}

let prism: Proxy;
const calls: string[] = [];

/** A call the document admits: it goes through to the server, and its answer passes Prism's checks. */
async function ok(c: Call, status: number): Promise<Answer> {
  const r = await send(prism.url, c);
  const where = `${c.method} ${c.path} → ${r.status} ${r.text.slice(0, 500)}`;
  calls.push(`${c.method} ${c.path.split("?")[0]} ${r.status}`);
  expect(r.headers.get("content-type") ?? "", `Prism answered itself: ${where}`).not.toContain("application/problem+json");
  expect(r.headers.get("sl-violations"), `violations: ${where}`).toBeNull();
  expect(r.status, where).toBe(status);
  return r;
}

/** A call the document refuses: Prism refuses it (401 without credentials, 422 for bad input), and so does the server. */
async function refused(c: Call, byPrism: 401 | 422, byServer: number) {
  const viaPrism = await send(prism.url, c);
  const where = `${c.method} ${c.path} → ${viaPrism.status} ${viaPrism.text.slice(0, 500)}`;
  expect(viaPrism.status, `the document should refuse ${where}`).toBe(byPrism);
  expect(viaPrism.headers.get("content-type"), where).toContain("application/problem+json");
  const direct = await send(server.url, c);
  expect(direct.status, `the server should refuse what the document refuses: ${c.method} ${c.path} → ${direct.status} ${direct.text.slice(0, 300)}`).toBe(
    byServer,
  );
  expect(direct.body).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) });
  calls.push(`${c.method} ${c.path.split("?")[0]} refused ${byPrism}/${byServer}`);
}

let document: Record<string, unknown>;
let contract: Contract;

/**
 * A query parameter sent empty, which the document's schema refuses ("" is no number, choice or day) but Prism lets
 * through as if it were absent: the document is checked here, and the server must refuse it too.
 */
async function refusedEmpty(opPath: string, name: string, token: string) {
  const o = contract.operation(`GET ${opPath}`);
  const index = (o.op.parameters as { name: string }[]).findIndex((p) => p.name === name);
  expect(contract.check(["paths", opPath, "get", "parameters", String(index), "schema"], ""), `${opPath} ${name}=""`).not.toEqual([]);
  const direct = await send(server.url, { method: "GET", path: `${opPath}?${name}=`, token });
  expect(direct.status, `${opPath}?${name}= → ${direct.text.slice(0, 200)}`).toBe(400);
  expect(direct.body).toEqual({ error: expect.objectContaining({ code: "invalid_input", fields: { [name]: expect.any(String) } }) });
  calls.push(`GET ${opPath} refused empty ${name}`);
}

/** A call Prism cannot carry (binary uploads), sent straight to the server; its answer is checked against the document here. */
async function okDirect(c: Call, status: number): Promise<Answer> {
  const r = await send(server.url, c);
  const template = Object.keys(document.paths as object).find((t) => new RegExp(`^${t.replace(/\{id\}/g, "[^/]+")}$`).test(c.path.split("?")[0]))!;
  expect(contract.checkResponse(contract.operation(`${c.method} ${template}`), r.status, r.headers.get("content-type"), r.text)).toEqual([]);
  expect(r.status, r.text).toBe(status);
  return r;
}

beforeAll(async () => {
  document = await (await fetch(`${server.url}/api/openapi.json`)).json();
  contract = new Contract(document);
  prism = await startPrism(document, server.url);
}, 90_000);

afterAll(async () => {
  await prism?.stop();
});

describe("the API through Prism's validating proxy", () => {
  it("Prism does catch an answer that breaks the document (a copy where a course title may have 1 character)", async () => {
    const strict = structuredClone(document) as { components: { schemas: { Course: { properties: { title: { maxLength: number } } } } } };
    strict.components.schemas.Course.properties.title.maxLength = 1;
    const check = await startPrism(strict, server.url);
    try {
      const r = await send(check.url, { method: "GET", path: "/api/courses" });
      expect(r.status === 500 || r.headers.get("sl-violations") !== null, `${r.status} ${r.text.slice(0, 300)}`).toBe(true);
      // …and logs it, which the main test below looks for in its own Prism's log.
      const until = Date.now() + 5000;
      while (!/violation/i.test(check.output()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(check.output()).toMatch(/violation/i);
    } finally {
      await check.stop();
    }
  }, 90_000);

  it("every operation, on its success and error paths, keeps to the document", async () => {
    // Signing in; staff accounts.
    const admin = (await ok({ method: "POST", path: "/api/auth/login", json: { email: ADMIN.email, password: ADMIN.password } }, 200)).body.token as string;
    await ok({ method: "POST", path: "/api/auth/login", json: { email: ADMIN.email, password: "wrong-password" } }, 401);
    await refused({ method: "POST", path: "/api/auth/login", json: { email: ADMIN.email } }, 422, 400);
    const editorEmail = `prism-editor-${Date.now()}@example.com`;
    const editorUser = (
      await ok(
        { method: "POST", path: "/api/auth/register", token: admin, json: { name: "Prism Editor", email: editorEmail, password: "editor-password-1" } },
        201,
      )
    ).body.data!;
    await ok({ method: "POST", path: "/api/auth/register", token: admin, json: { name: "Again", email: editorEmail, password: "editor-password-1" } }, 409);
    await refused(
      { method: "POST", path: "/api/auth/register", token: admin, json: { name: "Short", email: "short@example.com", password: "short" } },
      422,
      400,
    );
    let editor = (await ok({ method: "POST", path: "/api/auth/login", json: { email: editorEmail, password: "editor-password-1" } }, 200)).body.token as string;
    await ok(
      { method: "POST", path: "/api/auth/register", token: editor, json: { name: "Nope", email: "nope@example.com", password: "nope-password-1" } },
      403,
    );
    const me = (await ok({ method: "GET", path: "/api/auth/me", token: admin }, 200)).body.data!;
    await refused({ method: "GET", path: "/api/auth/me" }, 401, 401);
    await ok({ method: "GET", path: "/api/auth/me", token: "not-a-valid-token" }, 401);

    // Courses: JSON and multipart, files checked by content.
    await ok({ method: "GET", path: "/api/courses?page=1&limit=2&category=beginner&featured=true" }, 200);
    await refused({ method: "GET", path: "/api/courses?limit=101" }, 422, 400);
    await refused({ method: "GET", path: "/api/courses?page=1000001" }, 422, 400);
    const course = (
      await ok(
        {
          method: "POST",
          path: "/api/courses",
          token: admin,
          json: { title: "Prism Course", category: "advanced", description: "Through the proxy.", highlights: ["Labs"], modes: ["online", "teleport"] },
        },
        201,
      )
    ).body.data!;
    expect(course.modes).toEqual(["online"]);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      title: "Prism Upload",
      category: "beginner",
      description: "With files",
      featured: "true",
      "highlights[0]": "One",
      "highlights[1]": "Two",
    }))
      form.append(k, v);
    form.append("image", new Blob([new Uint8Array(await png())], { type: "image/png" }), "cover.png");
    form.append("syllabusFile", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "syllabus.pdf");
    // Prism reads a multipart body as text and forwards that, which breaks binary files, and keeps only the last of
    // repeated parts (a list): uploads go straight to the server, their answers checked against the document here;
    // multipart without files or lists goes through Prism.
    const uploaded = (await okDirect({ method: "POST", path: "/api/courses", token: admin, form }, 201)).body.data!;
    expect(uploaded.image).toMatch(/^\/media\/images\//);
    const textOnly = new FormData();
    for (const [k, v] of Object.entries({ title: "Prism Form", category: "beginner", description: "Fields only", featured: "true" })) textOnly.append(k, v);
    textOnly.append("image", "");
    await ok({ method: "PUT", path: `/api/courses/${uploaded.id}`, token: editor, form: textOnly }, 200);
    const wrongFile = new FormData();
    for (const [k, v] of Object.entries({ title: "Prism Wrong", category: "beginner", description: "Text as an image" })) wrongFile.append(k, v);
    wrongFile.append("image", new Blob(["not an image"], { type: "image/png" }), "cover.png");
    await ok({ method: "POST", path: "/api/courses", token: admin, form: wrongFile }, 415);
    await refused({ method: "POST", path: "/api/courses", json: { title: "Anon", category: "advanced", description: "x" } }, 401, 401);
    await refused({ method: "POST", path: "/api/courses", token: admin, json: { title: "   ", category: "advanced", description: "x" } }, 422, 400);
    await ok({ method: "GET", path: `/api/courses/${course.id}` }, 200);
    await ok({ method: "GET", path: "/api/courses/no-such-course" }, 404);
    await ok(
      {
        method: "PUT",
        path: `/api/courses/${course.id}`,
        token: editor,
        json: { title: "Prism Course 2", category: "advanced", description: "Changed", image: null },
      },
      200,
    );
    await ok(
      {
        method: "PUT",
        path: `/api/courses/${course.id}`,
        token: editor,
        json: { title: "Prism Course 2", category: "advanced", description: "Changed", image: "/media/images/someone-else.webp" },
      },
      400,
    );
    await ok({ method: "PUT", path: "/api/courses/no-such-course", token: editor, json: { title: "X", category: "advanced", description: "Y" } }, 404);

    // Schedules: dates are real days, in order, seats within the total.
    const batch = {
      course: course.id,
      startDate: "2031-01-05",
      endDate: "2031-03-05",
      time: "6:30 PM - 9:30 PM",
      days: "Mon, Wed",
      mode: "hybrid",
      location: "Hyderabad",
      seats: 10,
      totalSeats: 30,
    };
    await ok({ method: "GET", path: "/api/schedules?mode=online&upcoming=true" }, 200);
    const schedule = (await ok({ method: "POST", path: "/api/schedules", token: editor, json: batch }, 201)).body.data!;
    await ok({ method: "POST", path: "/api/schedules", token: editor, json: { ...batch, endDate: "2030-12-31" } }, 400);
    await ok({ method: "POST", path: "/api/schedules", token: editor, json: { ...batch, course: "no-such-course" } }, 400);
    await refused({ method: "POST", path: "/api/schedules", token: editor, json: { ...batch, startDate: "2031-02-30" } }, 422, 400);
    await refused({ method: "POST", path: "/api/schedules", token: editor, json: { ...batch, totalSeats: 0 } }, 422, 400);
    await ok({ method: "GET", path: `/api/schedules/${schedule.id}` }, 200);
    await ok({ method: "PUT", path: `/api/schedules/${schedule.id}`, token: editor, json: { ...batch, seats: 0 } }, 200);
    await ok({ method: "DELETE", path: `/api/schedules/${schedule.id}`, token: editor }, 204);
    await ok({ method: "GET", path: `/api/schedules/${schedule.id}` }, 404);

    // Reviews: pending ones are staff-only; ratings are whole numbers from 1 to 5.
    const reviewBody = {
      name: "Asha",
      position: "SOC Analyst",
      image: "https://example.com/a.png",
      rating: 5,
      course: "SOC",
      review: "Great.",
      linkedin: "https://www.linkedin.com/in/asha",
    };
    const review = (await ok({ method: "POST", path: "/api/reviews", token: editor, json: reviewBody }, 201)).body.data!;
    await refused({ method: "POST", path: "/api/reviews", token: editor, json: { ...reviewBody, rating: 4.5 } }, 422, 400);
    await refused({ method: "POST", path: "/api/reviews", token: editor, json: { ...reviewBody, linkedin: "javascript:alert(1)" } }, 422, 400);
    // URLs are IRIs (format: iri-reference): non-ASCII text is taken and answered as sent; what no IRI may hold is a 400.
    // (Prism's validator has no IRI formats, so those refusals are the server's alone.)
    const iri = (await ok({ method: "POST", path: "/api/reviews", token: editor, json: { ...reviewBody, image: "Https://ô$𭪹+" } }, 201)).body.data!;
    expect(iri.image).toBe("Https://ô$𭪹+");
    expect(contract.check(["components", "schemas", "Review", "properties", "image"], iri.image)).toEqual([]);
    for (const image of ["https://a/<x>", "/a b.png", "https://a/%zz"]) {
      const r = await send(server.url, { method: "POST", path: "/api/reviews", token: editor, json: { ...reviewBody, image } });
      expect(r.status, image).toBe(400);
      expect(contract.check(["components", "schemas", "Review", "properties", "image"], image), image).not.toEqual([]);
    }
    await ok({ method: "GET", path: "/api/reviews?status=pending", token: editor }, 200);
    await ok({ method: "GET", path: "/api/reviews?course=SOC" }, 200);
    await ok({ method: "GET", path: `/api/reviews/${review.id}` }, 404);
    await ok({ method: "PUT", path: `/api/reviews/${review.id}`, token: editor, json: { ...reviewBody, rating: 4 } }, 200);
    await ok({ method: "PUT", path: `/api/reviews/${review.id}/approve`, token: editor }, 200);
    await ok({ method: "GET", path: `/api/reviews/${review.id}` }, 200);
    await ok({ method: "DELETE", path: `/api/reviews/${review.id}`, token: editor }, 204);

    // Enquiries: anyone may enrol (a staff token is not counted against the form limit); phones as Indians write them.
    const enquiryBody = {
      fullName: "Ravi",
      email: "Ravi@Example.com",
      phone: "+91 98765-43210",
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "online",
    };
    const enquiry = (await ok({ method: "POST", path: "/api/enquiries", json: enquiryBody }, 201)).body.data!;
    expect(enquiry).toMatchObject({ email: "ravi@example.com", phone: "9876543210", whatsappNotifications: true });
    // Anonymous: only what was sent, and the id (no duplicate links, no pipeline fields).
    expect(enquiry).not.toHaveProperty("duplicateOf");
    expect(enquiry).not.toHaveProperty("status");
    await ok({ method: "POST", path: "/api/enquiries", token: editor, json: { ...enquiryBody, phone: "(098765) 43210", whatsappNotifications: false } }, 201);
    await refused({ method: "POST", path: "/api/enquiries", json: { ...enquiryBody, phone: "12345" } }, 422, 400);
    await refused({ method: "POST", path: "/api/enquiries", json: { ...enquiryBody, email: "not-an-email" } }, 422, 400);
    await refused({ method: "GET", path: "/api/enquiries" }, 401, 401);
    await ok({ method: "GET", path: "/api/enquiries?status=new&mode=online&q=98765", token: editor }, 200);
    await ok({ method: "GET", path: "/api/enquiries?assignee=mine&followUp=overdue&form=api&source=direct&from=2026-01-01&to=2031-12-31", token: editor }, 200);
    await refused({ method: "GET", path: "/api/enquiries?followUp=someday", token: editor }, 422, 400);
    // A day is a real one, as the document's pattern says ("0000-00-00" matches it no more than the server takes it), and
    // a parameter sent empty is no filter left out: the document's number, choice and day refuse "", and so does the server.
    for (const query of ["from=0000-00-00", "to=2026-02-30", "from=%202026-01-01", "to=1969-12-31"])
      await refused({ method: "GET", path: `/api/enquiries?${query}`, token: editor }, 422, 400);
    for (const name of ["from", "to", "status", "mode", "page", "limit"]) await refusedEmpty("/api/enquiries", name, editor);
    await refusedEmpty("/api/courses", "category", editor);
    await ok({ method: "GET", path: "/api/enquiries?q=&source=&assignee=", token: editor }, 200);
    await ok(
      {
        method: "POST",
        path: "/api/enquiries",
        token: editor,
        json: { ...enquiryBody, email: "partner@example.com", source: { utmSource: "partner", utmCampaign: "winter" }, batchDate: "2031-01-05" },
      },
      201,
    );
    await ok({ method: "GET", path: `/api/enquiries/${enquiry.id}`, token: editor }, 200);
    await ok(
      { method: "PUT", path: `/api/enquiries/${enquiry.id}`, token: editor, json: { ...enquiryBody, fullName: "Ravi Kumar", status: "contacted" } },
      200,
    );
    await ok(
      {
        method: "PUT",
        path: `/api/enquiries/${enquiry.id}`,
        token: editor,
        json: { ...enquiryBody, followUpAt: "2031-03-04T10:30:00+05:30", assigneeId: null, scheduleId: null },
      },
      200,
    );
    // No batch while the course has upcoming ones: Enrolled is refused on scheduleId (a rule beyond the schema).
    await ok({ method: "PUT", path: `/api/enquiries/${enquiry.id}/status`, token: editor, json: { status: "enrolled" } }, 400);
    const upcoming = (await ok({ method: "GET", path: "/api/schedules?upcoming=true&limit=100", token: editor }, 200)).body.data as unknown as {
      id: string;
      courseName: string;
      seats: number;
    }[];
    const seat = upcoming.find((b) => b.courseName === enquiryBody.preferredCourse && b.seats > 0)!;
    const withBatch = (await ok({ method: "PUT", path: `/api/enquiries/${enquiry.id}`, token: editor, json: { ...enquiryBody, scheduleId: seat.id } }, 200))
      .body.data!;
    // The answer's ETag is its version; sent back (If-Match or version) it lets the write through.
    await ok(
      { method: "PUT", path: `/api/enquiries/${enquiry.id}/status`, token: editor, json: { status: "enrolled", version: withBatch.version as number } },
      200,
    );
    // Drawn from an older version: 409 edit_conflict, nothing written.
    await ok(
      { method: "PUT", path: `/api/enquiries/${enquiry.id}/status`, token: editor, json: { status: "closed", version: withBatch.version as number } },
      409,
    );
    await ok({ method: "POST", path: `/api/enquiries/${enquiry.id}/notes`, token: editor, json: { text: "Called: will pay on Monday." } }, 201);
    await refused({ method: "POST", path: `/api/enquiries/${enquiry.id}/notes`, token: editor, json: { text: "" } }, 422, 400);
    await ok({ method: "GET", path: `/api/enquiries/${enquiry.id}/timeline`, token: editor }, 200);
    await refused({ method: "PUT", path: `/api/enquiries/${enquiry.id}/status`, token: editor, json: { status: "lost" } }, 422, 400);
    await ok({ method: "DELETE", path: `/api/enquiries/${enquiry.id}`, token: editor }, 204);
    await ok({ method: "DELETE", path: `/api/enquiries/${enquiry.id}`, token: editor }, 404);

    // Contact queries.
    const query = (
      await ok(
        { method: "POST", path: "/api/contact-queries", json: { name: "Sita", email: "sita@example.com", message: "EMI?", phone: "040 1234 5678" } },
        201,
      )
    ).body.data!;
    await refused({ method: "POST", path: "/api/contact-queries", json: { name: "Sita", email: "sita@example.com" } }, 422, 400);
    await ok({ method: "GET", path: "/api/contact-queries?status=new&q=sita", token: editor }, 200);
    await ok({ method: "GET", path: `/api/contact-queries/${query.id}`, token: editor }, 200);
    await ok({ method: "PUT", path: `/api/contact-queries/${query.id}/status`, token: editor, json: { status: "replied" } }, 200);
    await ok({ method: "POST", path: `/api/contact-queries/${query.id}/notes`, token: editor, json: { text: "Sent the fee sheet." } }, 201);
    await ok({ method: "GET", path: `/api/contact-queries/${query.id}/timeline`, token: editor }, 200);
    await ok({ method: "DELETE", path: `/api/contact-queries/${query.id}`, token: editor }, 204);

    // Users and the audit log: admins only; one's own password with the current one, answered with a fresh token.
    await ok({ method: "GET", path: "/api/users?limit=5", token: admin }, 200);
    await ok({ method: "GET", path: "/api/users", token: editor }, 403);
    await ok({ method: "GET", path: `/api/users/${editorUser.id}`, token: admin }, 200);
    await ok({ method: "GET", path: `/api/auth/users/${editorUser.id}`, token: admin }, 200);
    await ok({ method: "GET", path: `/api/auth/users/${editorUser.id}`, token: editor }, 403);
    await ok({ method: "GET", path: "/api/users/no-such-user", token: admin }, 404);
    await ok({ method: "PUT", path: `/api/users/${editorUser.id}`, token: admin, json: { name: "Prism Editor 2", email: editorEmail, role: "editor" } }, 200);
    await ok({ method: "PUT", path: `/api/users/${me.id}`, token: editor, json: { name: "Hijack", email: "hijack@example.com" } }, 403);
    const changed = await ok(
      { method: "PUT", path: `/api/users/${editorUser.id}`, token: editor, json: { currentPassword: "editor-password-1", password: "editor-password-2" } },
      200,
    );
    expect(changed.body.token).toEqual(expect.any(String));
    editor = changed.body.token as string;
    await ok(
      { method: "PUT", path: `/api/users/${editorUser.id}`, token: editor, json: { currentPassword: "wrong-password", password: "editor-password-3" } },
      400,
    );
    await refused({ method: "PUT", path: `/api/users/${editorUser.id}`, token: admin, json: { name: "No e-mail" } }, 422, 400);
    await ok({ method: "GET", path: "/api/audit-log?entityType=course&from=2020-01-01&limit=5", token: admin }, 200);
    await ok({ method: "GET", path: "/api/audit-log?from=2026-11-24&to=2026-11-23", token: admin }, 400);
    await refused({ method: "GET", path: "/api/audit-log?from=2026-02-30", token: admin }, 422, 400);
    for (const query of ["from=0000-00-00", "to=1969-12-31"]) await refused({ method: "GET", path: `/api/audit-log?${query}`, token: admin }, 422, 400);
    for (const name of ["from", "to", "entityType"]) await refusedEmpty("/api/audit-log", name, admin);
    await ok({ method: "GET", path: "/api/audit-log?user=", token: admin }, 200);
    await ok({ method: "GET", path: "/api/audit-log", token: editor }, 403);
    // The outbox: admins only; the submissions above queued e-mails waiting for SMTP_URL.
    await ok({ method: "GET", path: "/api/outbox?status=waiting&limit=5", token: admin }, 200);
    await refused({ method: "GET", path: "/api/outbox?status=lost", token: admin }, 422, 400);
    await ok({ method: "GET", path: "/api/outbox", token: editor }, 403);
    // Site settings (admins only) and erasure on a person's request (staff).
    await ok({ method: "GET", path: "/api/settings", token: admin }, 200);
    await ok({ method: "GET", path: "/api/settings", token: editor }, 403);
    await ok(
      { method: "PUT", path: "/api/settings", token: admin, json: { privacyContactName: "Grievance Officer", privacyContactPhone: "+91 40 1234 5678" } },
      200,
    );
    await refused({ method: "PUT", path: "/api/settings", token: admin, json: { privacyContactEmail: "not an address" } }, 422, 400);
    await ok({ method: "PUT", path: "/api/settings", token: editor, json: { privacyContactName: "Editor" } }, 403);
    await ok(
      { method: "POST", path: "/api/contact-queries", json: { name: "Erase Me", email: "erase.me@example.com", message: "Hi", marketingConsent: true } },
      201,
    );
    const erased = await ok({ method: "POST", path: "/api/people/erase", token: editor, json: { email: "erase.me@example.com" } }, 200);
    expect((erased.body.data as unknown as { contactQueries: string[] }).contactQueries).toHaveLength(1);
    await ok({ method: "POST", path: "/api/people/erase", token: editor, json: { email: "erase.me@example.com" } }, 200);
    await refused({ method: "POST", path: "/api/people/erase", token: editor, json: { email: "nope" } }, 422, 400);
    await refused({ method: "POST", path: "/api/people/erase", json: { email: "erase.me@example.com" } }, 401, 401);
    const spare = (
      await ok(
        {
          method: "POST",
          path: "/api/auth/register",
          token: admin,
          json: { name: "Spare", email: `spare-${Date.now()}@example.com`, password: "spare-password-1" },
        },
        201,
      )
    ).body.data!;
    await ok({ method: "DELETE", path: `/api/users/${spare.id}`, token: editor }, 403);
    await ok({ method: "DELETE", path: `/api/users/${spare.id}`, token: admin }, 204);
    await ok({ method: "DELETE", path: `/api/users/${me.id}`, token: admin }, 403);

    // Fees (issue 38): plans, an enrolled student's ledger, a payment, its reversal and refund, invoices and a credit
    // note, dues, a concession. Amounts in paise.
    const feeCourse = (
      await ok(
        { method: "POST", path: "/api/courses", token: admin, json: { title: "Prism Fees", category: "beginner", description: "Fees", fee: 47200 } },
        201,
      )
    ).body.data!;
    const plan = (
      await ok(
        {
          method: "POST",
          path: "/api/fee-plans",
          token: admin,
          json: {
            name: "Half now, half in a month",
            courseId: feeCourse.id,
            isDefault: true,
            instalments: [
              { label: "Now", percentBp: 5000, dueFrom: "enrolment", dueDays: 0 },
              { label: "Later", percentBp: 5000, dueFrom: "enrolment", dueDays: 30 },
            ],
          },
        },
        201,
      )
    ).body.data!;
    await refused({ method: "POST", path: "/api/fee-plans", token: admin, json: { name: "No instalments", instalments: [] } }, 422, 400);
    await ok({ method: "GET", path: "/api/fee-plans", token: editor }, 200);
    await ok({ method: "GET", path: `/api/fee-plans/${plan.id}`, token: editor }, 200);
    await ok({ method: "GET", path: "/api/fee-plans/no-such-plan", token: editor }, 404);
    await ok(
      {
        method: "PUT",
        path: `/api/fee-plans/${plan.id}`,
        token: admin,
        json: {
          name: "Renamed",
          courseId: feeCourse.id,
          isDefault: true,
          version: 1,
          instalments: [
            { label: "Now", percentBp: 5000 },
            { label: "Later", percentBp: 5000, dueDays: 30 },
          ],
        },
      },
      200,
    );
    await ok(
      {
        method: "PUT",
        path: `/api/fee-plans/${plan.id}`,
        token: admin,
        json: { name: "Stale", version: 1, instalments: [{ label: "All", percentBp: 10000 }] },
      },
      409,
    );
    const student = (
      await ok(
        {
          method: "POST",
          path: "/api/enquiries",
          json: { fullName: "Prism Student", email: "prism.student@example.com", phone: "9876501111", preferredCourse: "Prism Fees", preferredMode: "online" },
        },
        201,
      )
    ).body.data!;
    await ok({ method: "PUT", path: `/api/enquiries/${student.id}/status`, token: admin, json: { status: "enrolled", billingState: "Karnataka" } }, 200);
    const ledger = (await ok({ method: "GET", path: `/api/enquiries/${student.id}/fees`, token: editor }, 200)).body.data!;
    expect((ledger.dues as { amountPaise: number }[]).map((d) => d.amountPaise)).toEqual([2_360_000, 2_360_000]);
    await ok({ method: "GET", path: "/api/enquiries/no-such-enquiry/fees", token: editor }, 404);
    const paid = (
      await ok(
        {
          method: "POST",
          path: `/api/enquiries/${student.id}/payments`,
          token: editor,
          json: { method: "upi", amountPaise: 3_000_000, reference: "412345678901" },
        },
        201,
      )
    ).body.data!;
    await ok({ method: "POST", path: `/api/enquiries/${student.id}/payments`, token: editor, json: { method: "cheque", amountPaise: 100 } }, 400);
    await refused({ method: "POST", path: `/api/enquiries/${student.id}/payments`, token: editor, json: { method: "cash", amountPaise: 12.5 } }, 422, 400);
    await ok({ method: "GET", path: "/api/payments?method=upi", token: editor }, 200);
    await ok({ method: "GET", path: `/api/payments/${paid.id}`, token: editor }, 200);
    await ok({ method: "GET", path: "/api/payments/no-such-payment", token: editor }, 404);
    await ok({ method: "POST", path: `/api/payments/${paid.id}/refunds`, token: editor, json: { amountPaise: 100_000, reason: "Overcharged" } }, 201);
    await ok({ method: "POST", path: `/api/payments/${paid.id}/reversal`, token: editor, json: { reason: "Refunded, cannot reverse" } }, 409);
    const cash = (
      await ok({ method: "POST", path: `/api/enquiries/${student.id}/payments`, token: editor, json: { method: "cash", amountPaise: 50_000 } }, 201)
    ).body.data!;
    await ok({ method: "POST", path: `/api/payments/${cash.id}/reversal`, token: editor, json: { reason: "Counted twice" } }, 200);
    await ok({ method: "GET", path: "/api/refunds", token: editor }, 200);
    const invoices = (await ok({ method: "GET", path: "/api/invoices?kind=invoice", token: editor }, 200)).body.data as unknown as { id: string }[];
    await ok({ method: "GET", path: `/api/invoices/${invoices[0].id}`, token: editor }, 200);
    await ok({ method: "GET", path: "/api/invoices/no-such-invoice", token: editor }, 404);
    await ok({ method: "POST", path: `/api/invoices/${invoices[0].id}/credit-note`, token: editor, json: { reason: "Wrong state" } }, 403);
    await ok({ method: "POST", path: `/api/invoices/${invoices[0].id}/credit-note`, token: admin, json: { reason: "Wrong state" } }, 201);
    await ok({ method: "POST", path: `/api/invoices/${invoices[0].id}/credit-note`, token: admin, json: { reason: "Again" } }, 409);
    await ok({ method: "GET", path: "/api/dues?view=all", token: editor }, 200);
    await refused({ method: "GET", path: "/api/dues?view=someday", token: editor }, 422, 400);
    const later = await ok(
      {
        method: "POST",
        path: "/api/enquiries",
        json: { fullName: "Prism Scholar", email: "prism.scholar@example.com", phone: "9876502222", preferredCourse: "Prism Fees", preferredMode: "online" },
      },
      201,
    );
    await ok({ method: "PUT", path: `/api/enquiries/${later.body.data!.id}/status`, token: admin, json: { status: "enrolled", feePlanId: plan.id } }, 200);
    const concession = (
      await ok(
        {
          method: "POST",
          path: `/api/enquiries/${later.body.data!.id}/concessions`,
          token: editor,
          json: { kind: "scholarship", amountPaise: 500_000, reason: "Merit" },
        },
        201,
      )
    ).body.data!;
    await ok({ method: "PUT", path: `/api/concessions/${concession.id}`, token: editor, json: { approve: true } }, 403);
    await ok({ method: "PUT", path: `/api/concessions/${concession.id}`, token: admin, json: { approve: true } }, 200);
    await ok({ method: "PUT", path: `/api/concessions/${concession.id}`, token: admin, json: { approve: false } }, 409);
    await ok({ method: "DELETE", path: `/api/fee-plans/${plan.id}`, token: admin }, 204);

    // Deletes and signing out.
    await ok({ method: "DELETE", path: `/api/courses/${uploaded.id}`, token: editor }, 204);
    await ok({ method: "DELETE", path: `/api/courses/${course.id}`, token: admin }, 204);
    await ok({ method: "DELETE", path: `/api/courses/${course.id}`, token: admin }, 404);
    await ok({ method: "POST", path: "/api/auth/logout", token: editor }, 204);
    await ok({ method: "GET", path: "/api/auth/me", token: editor }, 401);

    // Every operation of the document was called through the proxy.
    const templates = Object.keys(document.paths as object).map((t) => ({ t, re: new RegExp(`^${t.replace(/\{id\}/g, "[^/]+")}$`) }));
    const called = new Set(
      calls.map((c) => {
        const [method, p] = c.split(" ");
        return `${method} ${templates.find(({ re }) => re.test(p))?.t ?? p}`;
      }),
    );
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    for (const op of operations) expect(called, `${op} was not called`).toContain(op);
    expect(prism.output(), "Prism logged a violation").not.toMatch(/violation/i);
  }, 180_000);
});
