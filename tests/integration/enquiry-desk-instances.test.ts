import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, db, openDb } from "~db/client.server";
import { ADMIN, API_SECRET, ensureBuilt, freshDatabase, launchServer, type RunningServer } from "../helpers/api-server";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";

/**
 * The desk across app instances, on the production build: two instances on one database (MariaDB under npm run
 * test:mysql, one SQLite file otherwise) give new enquiries round-robin to three staff evenly; an untouched New
 * enquiry past ESCALATION_HOURS is escalated once, whichever instance gets there, and the e-mail is read at a real
 * SMTP server; the API refuses a write drawn from an older version (If-Match) with 409.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-desk-"));
let database: { url: string; drop: () => Promise<void> };
let smtp: SmtpSink;
let a: RunningServer;
let b: RunningServer;
let admin = "";
const staffIds: string[] = [];

async function call(base: string, method: string, p: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${base}${p}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text };
}

let n = 0;
const lead = () => ({
  fullName: `Round Robin ${++n}`,
  email: `rr${n}@example.com`,
  phone: `96${String(30_000_000 + n).padStart(8, "0")}`,
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online",
});

beforeAll(async () => {
  await ensureBuilt();
  database = await freshDatabase(dir);
  smtp = await startSmtpSink();
  const env = { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>", ESCALATION_HOURS: "2" };
  a = await launchServer({ databaseUrl: database.url, uploadDir: path.join(dir, "uploads"), env });
  b = await launchServer({ databaseUrl: database.url, uploadDir: path.join(dir, "uploads"), env });
  Object.assign(process.env, { ...env, DATABASE_URL: database.url, SESSION_SECRET: API_SECRET, PUBLIC_URL: a.url });
  await openDb(database.url);
  admin = (await call(a.url, "POST", "/api/auth/login", { body: { email: ADMIN.email, password: ADMIN.password } })).body.token;
  // Three staff take enquiries: the first admin and two editors.
  staffIds.push((await call(a.url, "GET", "/api/auth/me", { token: admin })).body.data.id);
  for (const name of ["Priya Sharma", "Arjun Varma"]) {
    const made = await call(a.url, "POST", "/api/auth/register", {
      token: admin,
      body: { name, email: `${name.split(" ")[0].toLowerCase()}@desk.test`, password: "long-enough-password", role: "editor" },
    });
    expect(made.status).toBe(201);
    staffIds.push(made.body.data.id);
  }
}, 300_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await smtp?.stop();
  await closeDb();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("two instances, one desk", () => {
  it("gives new enquiries round-robin to the three staff, evenly however the arrivals are spread and interleaved", async () => {
    const posted = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(i % 2 ? b.url : a.url, "POST", "/api/enquiries", { token: admin, body: lead() })),
    );
    expect(posted.map((p) => p.status)).toEqual(Array(30).fill(201));
    const owners = posted.map((p) => p.body.data.assigneeId as string);
    const counts = staffIds.map((id) => owners.filter((o) => o === id).length);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(30);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it("escalates an untouched New enquiry once to the admins, read at the SMTP server, whichever instance's job gets there", async () => {
    const made = await call(a.url, "POST", "/api/enquiries", { body: { ...lead(), fullName: "Waiting Long" } });
    const id = made.body.data.id as string;
    await db()
      .updateTable("enquiries")
      .set({ createdAt: new Date(Date.now() - 3 * 3_600_000).toISOString() })
      .where("id", "=", id)
      .execute();
    // This process is a third instance: its job and the two servers' (every minute) race for the same enquiry.
    const { runEscalationJob } = await import("~/services/escalation.server");
    await Promise.all([runEscalationJob(), runEscalationJob()]);
    const [mail] = await smtp.waitFor((m) => /^Escalation: Waiting Long/.test(m.parsed.subject ?? ""), 1, 60_000);
    expect(mail.envelope.to).toEqual([ADMIN.email]);
    expect(mail.parsed.text).toContain("Nobody has replied to this enquiry for 2 hours");
    expect(mail.parsed.text).toContain(`/admin/enquiries/${id}`);
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received.filter((m) => /^Escalation: Waiting Long/.test(m.parsed.subject ?? ""))).toHaveLength(1);
    expect((await call(b.url, "GET", `/api/enquiries/${id}`, { token: admin })).body.data.escalatedAt).not.toBeNull();
  });

  it("the API writes only over what the caller read: If-Match with an older ETag is a 409 and changes nothing", async () => {
    const made = await call(a.url, "POST", "/api/enquiries", { token: admin, body: lead() });
    const id = made.body.data.id as string;
    const read = await call(b.url, "GET", `/api/enquiries/${id}`, { token: admin });
    const etag = read.headers.get("etag")!;
    expect(etag).toBe(`"${read.body.data.version}"`);
    const first = await call(a.url, "PUT", `/api/enquiries/${id}/status`, { token: admin, body: { status: "contacted" }, headers: { "If-Match": etag } });
    expect([first.status, first.headers.get("etag")]).toEqual([200, `"${read.body.data.version + 1}"`]);
    const late = await call(b.url, "PUT", `/api/enquiries/${id}/status`, { token: admin, body: { status: "closed" }, headers: { "If-Match": etag } });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("edit_conflict");
    expect(late.body.error.message).toMatch(/^This enquiry was changed by Administrator at .+ IST\. Here is what it holds now\.$/);
    expect((await call(a.url, "GET", `/api/enquiries/${id}`, { token: admin })).body.data.status).toBe("contacted");
    expect(
      (await call(a.url, "PUT", `/api/enquiries/${id}/status`, { token: admin, body: { status: "closed" }, headers: { "If-Match": "yesterday" } })).status,
    ).toBe(400);
  });
});
