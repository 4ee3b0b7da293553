import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, apiClient, startApiServer } from "../helpers/api-server";
import { PDF, png } from "./upload-fixtures";

/**
 * Valid HTML: the Nu HTML Checker (vnu, the W3C validator's engine) finds no error in the server-rendered
 * document (what a visitor without JavaScript gets) of every public page and every admin screen, including
 * the pages a failed form post renders. Pages come from the route files themselves, so a new screen is
 * checked without touching this test; the list below adds the filters, dialogs and form answers.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const VNU = path.join(ROOT, "node_modules/vnu-jar/build/dist/vnu.jar");
const server = startApiServer();
const api = apiClient(server);

/** One document to check: the request made and the HTML it answered. */
type Page = { label: string; html: string };
const pages: Page[] = [];

/** The session cookie of one browser: sent with each request, replaced by each Set-Cookie. */
class Browser {
  cookie = "";
  async request(urlPath: string, init: { method?: string; body?: BodyInit } = {}): Promise<{ status: number; html: string; url: string }> {
    let url = urlPath;
    let method = init.method ?? "GET";
    let body = init.body;
    // Redirects are followed by hand so that the cookie each one sets (a flash message) goes with the next request.
    for (let hop = 0; hop < 5; hop++) {
      const headers: Record<string, string> = { Accept: "text/html" };
      if (this.cookie) headers.Cookie = this.cookie;
      if (method !== "GET") headers.Origin = server.url;
      const res = await fetch(`${server.url}${url}`, { method, headers, body, redirect: "manual" });
      const set = res.headers.getSetCookie().find((c) => c.startsWith("__session="));
      if (set) this.cookie = set.split(";")[0];
      const location = res.headers.get("Location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.arrayBuffer();
        const next = new URL(location, `${server.url}${url}`);
        url = next.pathname + next.search;
        method = "GET";
        body = undefined;
        continue;
      }
      return { status: res.status, html: await res.text(), url };
    }
    throw new Error(`Too many redirects from ${urlPath}`);
  }
  async signIn(email: string, password: string): Promise<void> {
    const { url } = await this.request("/admin/login", { method: "POST", body: new URLSearchParams({ email, password }) });
    if (!url.startsWith("/admin/courses")) throw new Error(`signing in as ${email} ended at ${url}`);
  }
}

const visitor = new Browser();
const admin = new Browser();
const editor = new Browser();

/** Fetches a page (after any redirects) and keeps its document; `status` is what the page must answer. */
async function check(
  browser: Browser,
  label: string,
  urlPath: string,
  status = 200,
  init: { method?: string; body?: BodyInit } = {},
): Promise<{ html: string; url: string }> {
  const res = await browser.request(urlPath, init);
  expect(res.status, `${init.method ?? "GET"} ${urlPath}`).toBe(status);
  expect(res.html, `${label}: not an HTML document`).toMatch(/^<!DOCTYPE html>/i);
  pages.push({ label: `${label}: ${init.method ?? "GET"} ${urlPath}${res.url !== urlPath ? ` → ${res.url}` : ""}`, html: res.html });
  return res;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
function multipart(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

/** The URLs of a page route file (flat routes): one per value in `values` for each of its parameters. */
function routeUrls(file: string, values: Record<string, string[]>): string[] {
  const name = file.replace(/\.tsx$/, "");
  const segments = name
    .split(".")
    .map((seg) => seg.replace(/_$/, ""))
    .filter((seg) => seg !== "_index" && !seg.startsWith("_"));
  let urls = [""];
  for (const seg of segments) {
    if (!seg.startsWith("$")) {
      urls = urls.map((u) => `${u}/${seg}`);
      continue;
    }
    const key = seg === "$" ? "$" : `${segments[0] === "admin" ? segments[1] : segments[0]}.${seg}`;
    const options = values[key];
    if (!options) throw new Error(`${file}: no value for ${seg}; add "${key}" to the test's parameter values`);
    urls = urls.flatMap((u) => options.map((v) => `${u}/${encodeURIComponent(v)}`));
  }
  return urls.map((u) => u || "/");
}

/** Page route modules (a .tsx with a default export) of the public site and the back office. */
const PAGE_FILES = fs
  .readdirSync(path.join(ROOT, "app/routes"))
  .filter((f) => f.endsWith(".tsx") && /^(_site|admin)[._]/.test(f))
  .filter((f) => /export default/.test(fs.readFileSync(path.join(ROOT, "app/routes", f), "utf8")));

function javaVersion(): string | null {
  const run = spawnSync("java", ["-version"], { encoding: "utf8" });
  return run.error || run.status !== 0 ? null : (run.stderr || run.stdout).split("\n")[0];
}

type VnuMessage = {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  firstLine?: number;
  lastColumn?: number;
  message: string;
  extract?: string;
};

let values: Record<string, string[]> = {};
let ids: { course: string; schedule: string; review: string; enquiry: string; contactQuery: string; editor: string; spareQuery: string };

/** A course with everything the demo courses leave out: an image, a syllabus file, a coloured syllabus with a table. */
async function richCourse(token: string): Promise<void> {
  const syllabus = [
    "## Week 1: Foundations",
    "",
    'Logs, alerts and <span style="color: #b91c1c">triage</span> with <span style="background-color: #fef08a">playbooks</span>.',
    "",
    "- **SIEM** searches",
    "- [MITRE ATT&CK](https://attack.mitre.org/) mapping",
    "",
    "1. Collect",
    "2. Detect",
    "",
    "| Tool | Use |",
    "| --- | --- |",
    "| Splunk | SIEM |",
    "",
    "> Hands-on every day.",
    "",
    "`index=main`",
  ].join("\n");
  const data = new FormData();
  const fields = {
    title: "Threat Hunting Lab",
    category: "advanced",
    description: "Hunt in a live lab.",
    duration: "6 weeks",
    featured: "true",
    syllabus,
    syllabusFileName: "threat-hunting.pdf",
  };
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  ["Live SIEM", "Mentor calls"].forEach((h, i) => data.append(`highlights[${i}]`, h));
  ["online", "hybrid"].forEach((m, i) => data.append(`modes[${i}]`, m));
  data.append("image", new Blob([new Uint8Array(await png(320, 200))], { type: "image/png" }), "cover.png");
  data.append("syllabusFile", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "threat-hunting.pdf");
  const made = await api.post("/api/courses", { token, body: data });
  if (made.status !== 201) throw new Error(`course: ${made.status} ${made.text}`);
}

beforeAll(async () => {
  const token = await api.login(ADMIN.email, ADMIN.password);
  await richCourse(token);
  const video = {
    name: "Kiran Das",
    position: "SOC Analyst",
    image: "/images/avatars/rahul-menon.svg",
    rating: 5,
    course: "SOC Analyst Training Program",
    review: "The labs were the best part.",
    type: "video",
    videoThumbnail: "https://img.example.com/kiran.jpg",
    linkedin: "https://www.linkedin.com/in/kiran",
    approved: true,
  };
  const reviewMade = await api.post("/api/reviews", { token, json: video });
  if (reviewMade.status !== 201) throw new Error(`review: ${reviewMade.status} ${reviewMade.text}`);
  // An enquiry with an attachment comes only from the /enquiry page.
  const withFile = new FormData();
  for (const [k, v] of Object.entries({
    fullName: "Attached Person",
    email: "attached@example.com",
    phone: "9876543210",
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "offline",
  }))
    withFile.append(k, v);
  withFile.append("filePaths", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "my cv.pdf");
  const sent = await fetch(`${server.url}/enquiry`, { method: "POST", headers: { Origin: server.url }, body: withFile });
  if (sent.status !== 200) throw new Error(`enquiry with a file: ${sent.status}`);
  const attached = (await api.get("/api/enquiries?q=Attached", { token })).body.data[0] as { id: string; filePaths: string[] };
  if (attached.filePaths.length !== 1) throw new Error("the enquiry's attachment was not stored");
  const courses = (await api.get("/api/courses?limit=100", { token })).body.data as { id: string; slug: string }[];
  const first = async (p: string) => (await api.get(p, { token })).body.data[0].id as string;
  const enquiry = {
    fullName: "Valid Html",
    email: "valid@example.com",
    phone: "9876543210",
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    message: "Weekend batch, please",
  };
  const query = { name: "Valid Html", email: "valid@example.com", phone: "9876543210", subject: "Batches", message: "When does the next batch start?" };
  const editorAccount = { name: "Eddie Editor", email: "editor@example.com", password: "editor-password-1", role: "editor" };
  ids = {
    course: courses[0].id,
    schedule: await first("/api/schedules"),
    review: await first("/api/reviews?status=pending"),
    enquiry: (await api.post("/api/enquiries", { json: enquiry })).body.data.id,
    contactQuery: (await api.post("/api/contact-queries", { json: query })).body.data.id,
    spareQuery: (await api.post("/api/contact-queries", { json: { ...query, name: "To Delete" } })).body.data.id,
    editor: (await api.post("/api/auth/register", { token, json: editorAccount })).body.data.id,
  };
  values = {
    $: ["no-such-page"],
    "courses.$slug": courses.map((c) => c.slug),
    "courses.$id": [ids.course],
    "schedules.$id": [ids.schedule],
    "reviews.$id": [ids.review],
    "enquiries.$id": [ids.enquiry, attached.id],
    "contact-queries.$id": [ids.contactQuery],
    "users.$id": [ids.editor],
  };
  await admin.signIn(ADMIN.email, ADMIN.password);
  await editor.signIn(editorAccount.email, editorAccount.password);
}, 60_000);

describe("the Nu HTML Checker", () => {
  let folder = "";
  let passed = false;
  // A failure keeps the documents, so the lines the report names can be read.
  afterAll(() => {
    if (folder && passed) fs.rmSync(folder, { recursive: true, force: true });
  });

  it("finds no error on any public page or admin screen, JavaScript off", async () => {
    // Never a skip: CI installs a JRE (.ci/run), and a developer without one must hear about it.
    const java = javaVersion();
    expect(java, "`java` was not found: the Nu HTML Checker needs Java 11+ (Debian: apt-get install default-jre-headless)").not.toBeNull();

    const slug = values["courses.$slug"][0];
    // Every page route file, public ones as a visitor, admin ones as an admin.
    for (const file of PAGE_FILES) {
      for (const url of routeUrls(file, values)) {
        const isAdmin = file.startsWith("admin");
        const status = url.endsWith("/no-such-page") ? 404 : 200;
        // The sign-in page sends a signed-in admin on to the courses; see it signed out.
        await check(isAdmin && !file.startsWith("admin_.login") ? admin : visitor, file, url, status);
      }
    }

    // Public filters, the syllabus dialog, a course that does not exist.
    await check(visitor, "home, online batches", "/?mode=online");
    await check(visitor, "courses by category", "/courses?category=beginner");
    await check(visitor, "syllabus dialog", `/courses?syllabus=${encodeURIComponent(slug)}`);
    await check(visitor, "unknown course", "/courses/no-such-course", 404);
    await check(visitor, "online batches", "/schedules?mode=online");
    await check(visitor, "offline batches", "/schedules?mode=offline");
    await check(visitor, "reviews by course", "/reviews?course=SOC%20Analyst");
    await check(visitor, "enquiry for a batch", `/enquiry?course=${encodeURIComponent(slug)}&date=2027-01-05`);

    // Public forms without JavaScript: their error messages, then their thank-you messages.
    await check(visitor, "contact, empty", "/contact", 400, { method: "POST", body: form({ name: "", email: "", message: "" }) });
    await check(visitor, "contact, bad e-mail", "/contact", 400, { method: "POST", body: form({ name: "Asha", email: "asha@", phone: "12", message: "Hi" }) });
    const badEnquiry = { fullName: "Ravi", email: "not-an-email", phone: "123", preferredCourse: "", preferredMode: "", message: "" };
    await check(visitor, "enquiry, bad phone", "/enquiry", 400, { method: "POST", body: multipart(badEnquiry) });
    await check(visitor, "home contact, empty", "/?index", 400, { method: "POST", body: form({ intent: "contact", name: "", email: "", message: "" }) });
    await check(visitor, "home enquiry, bad phone", "/?index", 400, { method: "POST", body: form({ intent: "enquiry", ...badEnquiry }) });
    await check(visitor, "contact, sent", "/contact", 200, { method: "POST", body: form({ name: "Asha", email: "asha@example.com", message: "Hello there" }) });
    const goodEnquiry = {
      fullName: "Ravi Kumar",
      email: "ravi@example.com",
      phone: "98765 43210",
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "online",
    };
    await check(visitor, "enquiry, sent", "/enquiry", 200, { method: "POST", body: multipart(goodEnquiry) });

    // Fuzzed input: control characters, noncharacters and lone surrogates in every field, echoed by a form that
    // comes back with a mistake, shown in searches, and stored through the API then shown on the staff screens.
    const junk = "A\u0001\u0008\u000B\u007F\u0085\uFDD0\uFFFE\u{1FFFF}\uD800z";
    await check(visitor, "contact, fuzzed", "/contact", 400, {
      method: "POST",
      body: form({ name: junk, email: `${junk}@`, phone: junk, subject: junk, message: junk }),
    });
    await check(visitor, "enquiry, fuzzed", "/enquiry", 400, {
      method: "POST",
      body: multipart({ ...badEnquiry, fullName: junk, message: junk, preferredCourse: junk }),
    });
    await check(visitor, "home enquiry, fuzzed", "/?index", 400, {
      method: "POST",
      body: form({ intent: "enquiry", ...badEnquiry, fullName: junk, message: junk }),
    });
    await check(admin, "enquiries, fuzzed search", `/admin/enquiries?q=${encodeURIComponent(junk.replace("\uD800", ""))}`);
    await check(
      admin,
      "enquiries, fuzzed filters",
      `/admin/enquiries?status=new&q=${encodeURIComponent(junk.replace("\uD800", ""))}&course=${encodeURIComponent(junk.replace("\uD800", ""))}`,
    );
    await check(admin, "new review, fuzzed", "/admin/reviews/new", 400, {
      method: "POST",
      body: form({ name: junk, position: junk, image: junk, rating: "9", course: junk, review: junk }),
    });
    const fuzzedToken = await api.login(ADMIN.email, ADMIN.password);
    const fuzzed = await api.post("/api/enquiries", {
      json: {
        fullName: `Fuzz ${junk}`,
        email: "fuzz@example.com",
        phone: "9876543210",
        preferredCourse: "SOC Analyst Training Program",
        preferredMode: "online",
        message: `Hi ${junk}`,
      },
    });
    expect(fuzzed.status).toBe(201);
    await check(admin, "enquiry, stored from fuzzed input", `/admin/enquiries/${fuzzed.body.data.id}`);
    await check(admin, "enquiries, with a fuzzed one", "/admin/enquiries");
    void fuzzedToken;

    // Admin: tabs, searches with no match, filters with errors, the reply step, a 404 and a 403.
    await check(visitor, "sign-in, wrong password", "/admin/login", 401, { method: "POST", body: form({ email: ADMIN.email, password: "wrong-password" }) });
    await check(visitor, "sign-in, empty", "/admin/login", 400, { method: "POST", body: form({ email: "", password: "" }) });
    await check(admin, "pending reviews", "/admin/reviews?status=pending");
    await check(admin, "new enquiries", "/admin/enquiries?status=new");
    await check(admin, "enquiries, no match", "/admin/enquiries?q=no-such-person-zzz");
    await check(admin, "new contact queries", "/admin/contact-queries?status=new");
    await check(admin, "contact queries, no match", "/admin/contact-queries?q=no-such-person-zzz");
    await check(admin, "audit log, one entity type", "/admin/audit-log?entityType=course");
    await check(admin, "audit log, bad dates", "/admin/audit-log?from=2026-02-30&to=x", 400);
    await check(admin, "unknown course", "/admin/courses/no-such-id/edit", 404);
    await check(editor, "users, as an editor", "/admin/users", 403);
    await check(editor, "audit log, as an editor", "/admin/audit-log", 403);
    // Privacy: a bad link, the forms' refusals, an admin finding a person and saving settings with a mistake.
    await check(visitor, "own page, bad link", "/me?token=not-a-real-token-0123456789abcdef");
    await check(visitor, "where is my enquiry, bad e-mail", "/me", 400, { method: "POST", body: form({ intent: "send-link", email: "nope" }) });
    await check(visitor, "contact, under 18 without a guardian", "/contact", 400, {
      method: "POST",
      body: form({ name: "Asha", email: "asha@example.com", message: "Hi", under18: "on", guardianEmail: "asha@example.com" }),
    });
    await check(visitor, "guardian consent, bad link", "/guardian/consent?token=not-a-real-token-0123456789abcdef");
    await check(admin, "privacy, a person found", "/admin/privacy?email=asha%40example.com");
    await check(admin, "privacy, nobody found", "/admin/privacy?email=nobody%40example.com");
    await check(admin, "settings, empty", "/admin/settings", 400, { method: "POST", body: form({ privacyContactName: "", privacyContactEmail: "x" }) });
    await check(editor, "settings, as an editor", "/admin/settings", 403);

    // Admin forms without JavaScript: each one's error messages.
    await check(admin, "new course, empty", "/admin/courses/new", 400, { method: "POST", body: multipart({ title: "", category: "", description: "" }) });
    await check(admin, "edit course, empty", `/admin/courses/${ids.course}/edit`, 400, {
      method: "POST",
      body: multipart({ title: "", category: "", description: "" }),
    });
    await check(admin, "new schedule, empty", "/admin/schedules/new", 400, {
      method: "POST",
      body: form({ course: "", startDate: "", endDate: "", time: "", days: "", mode: "", location: "", seats: "", totalSeats: "" }),
    });
    await check(admin, "new review, empty", "/admin/reviews/new", 400, {
      method: "POST",
      body: form({ name: "", position: "", image: "", rating: "", course: "", review: "" }),
    });
    await check(admin, "new user, empty", "/admin/users/new", 400, { method: "POST", body: form({ name: "", email: "", password: "", role: "" }) });
    await check(admin, "new user, bad e-mail", "/admin/users/new", 400, {
      method: "POST",
      body: form({ name: "A", email: "not-an-email", password: "long-enough-1", role: "editor" }),
    });
    await check(admin, "new schedule, bad values", "/admin/schedules/new", 400, {
      method: "POST",
      body: form({ course: "x", startDate: "2026-02-30", endDate: "soon", time: "", days: "", mode: "", location: "", seats: "many", totalSeats: "1e999" }),
    });
    await check(admin, "new review, bad values", "/admin/reviews/new", 400, {
      method: "POST",
      body: form({
        name: "A",
        position: "B",
        image: "not a url",
        rating: "9",
        course: "C",
        review: "R",
        linkedin: "javascript:alert(1)",
        videoThumbnail: "/x.png",
      }),
    });
    await check(admin, "user's password, short", `/admin/users/${ids.editor}/password`, 400, {
      method: "POST",
      body: form({ password: "short", confirmPassword: "other" }),
    });
    await check(admin, "own password, empty", "/admin/users/me/password", 400, {
      method: "POST",
      body: form({ currentPassword: "", newPassword: "", confirmPassword: "" }),
    });
    await check(editor, "own daily digest setting", "/admin/users/me/digest");

    // Admin actions that succeed: the reply step, and the list with its banner after a delete.
    const reply = await check(admin, "reply ready", `/admin/contact-queries/${ids.contactQuery}`, 200, { method: "POST", body: form({ intent: "reply" }) });
    expect(reply.url).toContain("reply=ready");
    const deleted = await check(admin, "deleted, with its banner", `/admin/contact-queries/${ids.spareQuery}/delete`, 200, { method: "POST", body: form({}) });
    expect(deleted.url).toBe("/admin/contact-queries");

    folder = fs.mkdtempSync(path.join(os.tmpdir(), "soc-html-"));
    const files = pages.map((page, i) => {
      const file = path.join(folder, `${String(i).padStart(3, "0")}.html`);
      fs.writeFileSync(file, page.html);
      return file;
    });
    const run = spawnSync("java", ["-Xss1m", "-jar", VNU, "--errors-only", "--format", "json", ...files], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
    });
    if (run.error) throw run.error;
    let messages: VnuMessage[];
    try {
      messages = (JSON.parse(run.stderr) as { messages: VnuMessage[] }).messages;
    } catch {
      throw new Error(`The checker did not answer JSON (exit ${run.status}):\n${run.stderr.slice(0, 2000)}${run.stdout.slice(0, 2000)}`);
    }
    // "error" is invalid markup; "non-document-error" means a file could not be checked, which must fail too.
    const problems = messages.filter((m) => m.type === "error" || m.type === "non-document-error");
    const report = problems.map((m) => {
      const file = m.url ? decodeURIComponent(new URL(m.url).pathname) : "?";
      const page = pages[Number(path.basename(file, ".html"))];
      return `${page?.label ?? file} (${file}:${m.lastLine ?? m.firstLine ?? "?"}:${m.lastColumn ?? "?"}) ${m.message}${m.extract ? `\n    ${m.extract.replace(/\s+/g, " ").trim()}` : ""}`;
    });
    const kinds = new Map<string, number>();
    for (const m of problems) kinds.set(m.message, (kinds.get(m.message) ?? 0) + 1);
    const summary = [...kinds].map(([message, count]) => `  ${count} × ${message}`).join("\n");
    expect(
      report,
      `${problems.length} HTML errors in ${new Set(problems.map((p) => p.url)).size} of ${pages.length} documents (kept in ${folder}):\n${summary}\n\n${report.join("\n")}`,
    ).toEqual([]);
    expect(run.status, run.stderr.slice(0, 2000)).toBe(0);
    // Every page route file was reached, and the extras on top.
    expect(pages.length).toBeGreaterThan(PAGE_FILES.length + 30);
    passed = true;
  }, 120_000);
});
