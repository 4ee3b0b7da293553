import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, ensureBuilt, freshDatabase, launchServer, type RunningServer } from "../helpers/api-server";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { startWebhookSink, type WebhookSink } from "../helpers/webhook-sink";

/**
 * The outbox in the BUILT server, end to end: a real SMTP server and a webhook receiver in this process,
 * the app in child processes on a fresh SQLite file or MariaDB database (TEST_MYSQL_URL). The app's answer
 * never waits for delivery; an SMTP outage, a crash (SIGKILL) and a second process on the same database
 * change when a message arrives, never whether or how often.
 */
const SECRET = `whsec_${Buffer.from("outbox-delivery-test-secret-32bytes!").toString("base64")}`;
let smtp: SmtpSink;
let hooks: WebhookSink;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  await ensureBuilt();
  smtp = await startSmtpSink();
  hooks = await startWebhookSink(SECRET);
}, 6 * 60_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await smtp?.stop();
  await hooks?.close();
}, 60_000);

/** A fresh database and upload folder, removed after the file. */
async function freshData() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-outbox-"));
  const db = await freshDatabase(dir);
  cleanups.push(async () => {
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { databaseUrl: db.url, uploadDir: path.join(dir, "uploads") };
}

async function launch(data: { databaseUrl: string; uploadDir: string }, env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await launchServer({
    ...data,
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>",
      NOTIFY_EMAIL: "desk@cybersoc.test",
      WEBHOOK_URL: hooks.url,
      WEBHOOK_SECRET: SECRET,
      ...env,
    },
  });
  cleanups.push(() => server.stop());
  return server;
}

async function post(server: RunningServer, p: string, json: unknown) {
  const started = Date.now();
  const res = await fetch(`${server.url}${p}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(json) });
  const body = (await res.json()) as { data: { id: string } };
  return { status: res.status, id: body.data?.id, ms: Date.now() - started };
}

async function outbox(server: RunningServer, query = "") {
  const login = await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) });
  const { token } = (await login.json()) as { token: string };
  const res = await fetch(`${server.url}/api/outbox?limit=100${query}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (
    (await res.json()) as {
      data: { id: string; kind: string; subject: string; recipient: string; status: string; attempts: number; lastError: string | null; entityId: string }[];
    }
  ).data;
}

const enquiry = (fullName: string, email = "student@example.com") => ({
  fullName,
  email,
  phone: "98765 43210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online",
});

describe("one app process", () => {
  let data: { databaseUrl: string; uploadDir: string };
  let server: RunningServer;
  beforeAll(async () => {
    data = await freshData();
    server = await launch(data);
  }, 120_000);

  it("answers a new enquiry at once and delivers the alert, the acknowledgement and the signed webhook within seconds", async () => {
    const sent = await post(server, "/api/enquiries", enquiry("Asha Flow", "asha@example.com"));
    expect(sent.status).toBe(201);
    const [alert] = await smtp.waitFor((m) => m.parsed.subject === "New enquiry: Asha Flow for SOC Analyst Training Program (Online)", 1, 5_000);
    // NOTIFY_EMAIL, and the staff member the round-robin gave the enquiry to (the only one: the first admin).
    expect(alert.envelope.to).toEqual(["desk@cybersoc.test", ADMIN.email]);
    expect(alert.parsed.text).toContain("Assigned to Administrator.");
    expect(alert.parsed.text).toContain(`${server.url}/admin/enquiries/${sent.id}`);
    expect(typeof alert.parsed.html).toBe("string");
    const [ack] = await smtp.waitFor((m) => m.envelope.to.includes("asha@example.com"), 1, 5_000);
    expect(ack.parsed.text).toContain("Dear Asha Flow");
    const [hook] = await hooks.waitFor((h) => (h.payload as { data?: { id?: string } })?.data?.id === sent.id, 1, 5_000);
    expect(hook.verified).toBe(true);

    await expect.poll(async () => (await outbox(server)).filter((r) => r.entityId === sent.id && r.status === "sent").length, { timeout: 5_000 }).toBe(3);
    const rows = (await outbox(server)).filter((r) => r.entityId === sent.id);
    expect(rows.map((r) => [r.kind, r.status, r.attempts]).sort()).toEqual([
      ["email", "sent", 1],
      ["email", "sent", 1],
      ["webhook", "sent", 1],
    ]);
    // The Message-ID is the row's, so every attempt at one message carries the same one.
    expect([alert.parsed.messageId, ack.parsed.messageId].sort()).toEqual(
      rows
        .filter((r) => r.kind === "email")
        .map((r) => `<${r.id}@cybersoc.test>`)
        .sort(),
    );
    expect(hook.headers["webhook-id"]).toBe(`msg_${rows.find((r) => r.kind === "webhook")!.id}`);
  });

  it("sends a contact query's alert and acknowledgement too", async () => {
    const sent = await post(server, "/api/contact-queries", { name: "Meera Flow", email: "meera@example.com", message: "Fees?" });
    expect(sent.status).toBe(201);
    const [alert] = await smtp.waitFor((m) => m.parsed.subject === "New contact message: Meera Flow", 1, 5_000);
    expect(alert.parsed.text).toContain(`${server.url}/admin/contact-queries/${sent.id}`);
    await smtp.waitFor((m) => m.envelope.to.includes("meera@example.com"), 1, 5_000);
    await hooks.waitFor((h) => (h.payload as { type?: string })?.type === "contact_query.created", 1, 5_000);
  });

  it("keeps the visitor's answer fast while the mail server hangs", async () => {
    smtp.stall(true);
    try {
      const sent = await post(server, "/api/enquiries", enquiry("Hang Fast"));
      expect(sent.status).toBe(201);
      expect(sent.ms).toBeLessThan(1_500);
    } finally {
      smtp.stall(false);
    }
  });

  it("holds mail while the SMTP server is down, and delivers it (once) after it comes back; a failing webhook is retried the same way", async () => {
    await smtp.stop();
    let refused = false;
    hooks.answer((_call, body) => {
      if (refused || !body.includes("Outage Olga")) return 204;
      refused = true;
      return 500;
    });
    const sent = await post(server, "/api/enquiries", enquiry("Outage Olga", "olga@example.com"));
    expect(sent.status).toBe(201);
    // The first attempts fail and are put off for 30 seconds.
    await expect
      .poll(async () => (await outbox(server)).filter((r) => r.entityId === sent.id && r.attempts === 1 && r.status === "pending").length, { timeout: 10_000 })
      .toBe(3);
    const failed = (await outbox(server)).filter((r) => r.entityId === sent.id);
    expect(failed.find((r) => r.kind === "email")!.lastError).toMatch(/ECONNREFUSED/);
    expect(failed.find((r) => r.kind === "webhook")!.lastError).toBe("HTTP 500 Internal Server Error");
    await smtp.start();
    await smtp.waitFor((m) => m.envelope.to.includes("olga@example.com"), 1, 45_000);
    await expect
      .poll(async () => (await outbox(server)).filter((r) => r.entityId === sent.id).map((r) => `${r.status}/${r.attempts}`), { timeout: 10_000 })
      .toEqual(["sent/2", "sent/2", "sent/2"]);
    const hooksForIt = hooks.received.filter((h) => (h.payload as { data?: { id?: string } })?.data?.id === sent.id);
    expect(hooksForIt.map((h) => h.status)).toEqual([500, 204]);
    expect(new Set(hooksForIt.map((h) => h.headers["webhook-id"])).size).toBe(1);
    expect(smtp.received.filter((m) => m.envelope.to.includes("olga@example.com"))).toHaveLength(1);
  }, 90_000);
});

describe("a crash", () => {
  it("loses nothing: killed with SIGKILL right after the 201, the mail goes out after the restart", async () => {
    const data = await freshData();
    // The mail server takes the message and never answers: the app holds it, mid-send, when it is killed.
    smtp.stall(true);
    let server = await launch(data);
    const sent = await post(server, "/api/enquiries", enquiry("Crash Chandra", "chandra@example.com"));
    expect(sent.status).toBe(201);
    await server.stop("SIGKILL");
    smtp.stall(false);
    expect(smtp.received.filter((m) => m.envelope.to.includes("chandra@example.com"))).toHaveLength(0);

    server = await launch(data);
    // Due at once if it had not been claimed yet; otherwise when the dead process's 30-second lease runs out.
    const [ack] = await smtp.waitFor((m) => m.envelope.to.includes("chandra@example.com"), 1, 50_000);
    await smtp.waitFor((m) => m.parsed.subject!.includes("Crash Chandra"), 1, 10_000);
    // The receiver has it a moment before the app has recorded the answer.
    await expect
      .poll(async () => (await outbox(server)).filter((r) => r.entityId === sent.id).map((r) => r.status), { timeout: 10_000 })
      .toEqual(["sent", "sent", "sent"]);
    const rows = (await outbox(server)).filter((r) => r.entityId === sent.id);
    expect(ack.parsed.messageId).toBe(`<${rows.find((r) => r.recipient === "chandra@example.com")!.id}@cybersoc.test>`);
    expect(smtp.received.filter((m) => m.envelope.to.includes("chandra@example.com"))).toHaveLength(1);
  }, 120_000);
});

describe("two app processes on one database", () => {
  it("deliver every message exactly once", async () => {
    const data = await freshData();
    // One after the other: on a brand-new SQLite file two processes would both run the migrations (Kysely
    // takes no migration lock on SQLite). Once both are up they run side by side.
    const a = await launch(data);
    const b = await launch(data);
    const ids: string[] = [];
    const posts = Array.from({ length: 24 }, (_, i) => post(i % 2 ? b : a, "/api/enquiries", enquiry(`Twin ${i}`, `twin${i}@example.com`)));
    for (const r of await Promise.all(posts)) {
      expect(r.status).toBe(201);
      ids.push(r.id);
    }
    const mine = (to: string[]) => to.some((t) => /^twin\d+@example\.com$/.test(t));
    await smtp.waitFor((m) => mine(m.envelope.to), 24, 30_000);
    await smtp.waitFor((m) => m.parsed.subject!.startsWith("New enquiry: Twin "), 24, 30_000);
    await hooks.waitFor((h) => ids.includes((h.payload as { data?: { id?: string } })?.data?.id ?? ""), 24, 30_000);
    // Both keep polling for a while: nothing comes a second time.
    await new Promise((r) => setTimeout(r, 3_000));
    const mails = smtp.received.filter((m) => mine(m.envelope.to) || m.parsed.subject!.startsWith("New enquiry: Twin "));
    expect(mails).toHaveLength(48);
    expect(new Set(mails.map((m) => m.parsed.messageId)).size).toBe(48);
    const twinHooks = hooks.received.filter((h) => ids.includes((h.payload as { data?: { id?: string } })?.data?.id ?? ""));
    expect(twinHooks).toHaveLength(24);
    expect(new Set(twinHooks.map((h) => h.headers["webhook-id"])).size).toBe(24);
    await expect.poll(async () => (await outbox(a)).filter((r) => ids.includes(r.entityId) && r.status === "sent").length, { timeout: 10_000 }).toBe(72);
    const rows = (await outbox(a)).filter((r) => ids.includes(r.entityId));
    expect(rows).toHaveLength(72);
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  }, 120_000);
});
