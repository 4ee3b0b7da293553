import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, db, migrateToLatest, openDb } from "~db/client.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { createUserWithoutActor } from "~/services/users.server";
import { ensureBuilt, freshDatabase, launchServer, signInCookie, type RunningServer } from "../helpers/api-server";
import { startSmtpSink } from "../helpers/smtp-sink";

/**
 * The daily digest in built servers: two instances on one database (at the same moment on MariaDB, one after
 * the other on SQLite, which is one file for one process) each run the digest job when they start; with
 * DIGEST_HOUR=0 the hour has always passed, so both try to send today's digests. Each staff member gets one.
 * Then the switch on /admin/users/me/digest, as a browser without JavaScript uses it.
 */
const smtp = await startSmtpSink();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-digest-"));
let database: Awaited<ReturnType<typeof freshDatabase>>;
const servers: RunningServer[] = [];
const EDITOR = { name: "Esha Editor", email: "esha@example.com", password: "Editor-Password-42", role: "editor" as const };
const ADMIN = { name: "Arjun Admin", email: "arjun@example.com", password: "Admin-Password-42", role: "admin" as const };
const OFF = { name: "Olu Off", email: "olu@example.com", password: "Editor-Password-43", role: "editor" as const };
let waitingId = "";

beforeAll(async () => {
  await ensureBuilt();
  database = await freshDatabase(dir);
  // Staff and one New enquiry two days old, unassigned: on everybody's digest.
  await openDb(database.url);
  await migrateToLatest(db());
  await createUserWithoutActor(ADMIN);
  await createUserWithoutActor(EDITOR);
  const off = await createUserWithoutActor(OFF);
  await db().updateTable("users").set({ dailyDigest: 0 }).where("id", "=", off.id).execute();
  waitingId = (
    await insertEnquiry(
      { fullName: "Waiting Varun", email: "varun@example.com", phone: "9876543210", preferredCourse: "SOC Analyst Training Program", preferredMode: "online" },
      { createdAt: new Date(Date.now() - 48 * 3_600_000).toISOString() },
    )
  ).id;
  await closeDb();
  const env = { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>", DIGEST_HOUR: "0", SEED_DEMO: "false" };
  const launch = () => launchServer({ databaseUrl: database.url, uploadDir: path.join(dir, "uploads"), env });
  if (process.env.TEST_MYSQL_URL) servers.push(...(await Promise.all([launch(), launch()])));
  else {
    servers.push(await launch());
    servers.push(await launch());
  }
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await smtp.stop();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("two instances", () => {
  it("send each opted-in staff member one digest, with the enquiry's link", async () => {
    const isDigest = (m: (typeof smtp.received)[number]) => /^Your daily digest for /.test(m.parsed.subject ?? "");
    await smtp.waitFor(isDigest, 2, 30_000);
    // Both instances have run the job; give a late second copy time to show up.
    await new Promise((r) => setTimeout(r, 3_000));
    const digests = smtp.received.filter(isDigest);
    expect(digests.map((m) => m.envelope.to[0]).sort()).toEqual(["arjun@example.com", "esha@example.com"]);
    // The same untouched enquiry is past the 24-hour promise: the admin gets its escalation once, apart from the digest.
    const escalations = smtp.received.filter((m) => !isDigest(m));
    expect(escalations.map((m) => [m.envelope.to[0], m.parsed.subject])).toEqual([
      ["arjun@example.com", "Escalation: Waiting Varun (SOC Analyst Training Program) has had no reply for 24 hours"],
    ]);
    for (const mail of digests) {
      expect(mail.parsed.subject).toMatch(/^Your daily digest for /);
      expect(mail.parsed.text).toContain("New enquiries waiting more than 24 hours (1)");
      expect(mail.parsed.text).toMatch(new RegExp(`http://127\\.0\\.0\\.1:\\d+/admin/enquiries/${waitingId}`));
    }
  });
});

describe("the switch at /admin/users/me/digest, without JavaScript", () => {
  it("shows the setting, and a form post without the box switches it off, then on", async () => {
    const url = servers[0].url;
    let cookie = await signInCookie(url, EDITOR);
    const page = async () => (await fetch(`${url}/admin/users/me/digest`, { headers: { Cookie: cookie } })).text();
    let html = await page();
    expect(html).toContain("Daily digest e-mail");
    expect(html).toMatch(/<input[^>]*name="dailyDigest"[^>]*checked=""/);
    expect(html).toContain("Today&#x27;s digest is done.");

    const post = (body: Record<string, string>) =>
      fetch(`${url}/admin/users/me/digest`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
        redirect: "manual",
      });
    let res = await post({});
    expect(res.status).toBe(302);
    // The notice rides in the session cookie to the next page.
    cookie =
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith("__session="))
        ?.split(";")[0] ?? cookie;
    expect(res.headers.get("location")).toBe("/admin/users/me/digest");
    html = await page();
    expect(html).toContain("Daily digest e-mail switched off");
    expect(html).not.toMatch(/<input[^>]*name="dailyDigest"[^>]*checked=""/);
    expect(html).toContain("You get no digest e-mail.");

    res = await post({ dailyDigest: "on" });
    expect(res.status).toBe(302);
    html = await page();
    expect(html).toMatch(/<input[^>]*name="dailyDigest"[^>]*checked=""/);
  });

  it("is for signed-in staff only", async () => {
    const res = await fetch(`${servers[0].url}/admin/users/me/digest`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/\/admin\/login/);
  });
});
