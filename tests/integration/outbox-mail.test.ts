import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { db, inTransaction } from "~db/client.server";
import { BACKOFF_MS } from "~/infra/outbox-worker.server";
import { postWebhook, webhookIdFor } from "~/infra/webhooks.server";
import { insertContactQuery } from "~/models/contact-query.server";
import { insertEnquiry, type EnquiryInput } from "~/models/enquiry.server";
import { claimOutboxMessage, listOutboxMessages } from "~/models/outbox.server";
import { NOT_ONE_ADDRESS, queueContactQueryNotifications, queueEnquiryNotifications } from "~/services/notifications.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";
import { addresses } from "../helpers/smtp-sink";

/**
 * What the outbox sends, checked at real receivers: an SMTP server in this process (parsed with mailparser)
 * and a local HTTP server that verifies webhook signatures. The worker's passes run here, one at a time.
 * Rows made from records a form would refuse (a name with CR/LF, an address with commas) are inserted
 * through the models, so the mail's own defences are what is tested.
 */
const { smtp, hooks } = await startOutboxReceivers({ env: { NOTIFY_EMAIL: "staff.one@example.com, Staff.Two@example.com" } });

useTestDatabase();

const logs: string[] = [];
const log = (line: string) => logs.push(line);

beforeEach(async () => {
  smtp.received.length = 0;
  hooks.received.length = 0;
  hooks.answer(() => 204);
  await db().deleteFrom("outbox").execute();
});

const base: EnquiryInput = {
  fullName: "Ravi Kumar",
  email: "ravi@example.com",
  phone: "98765 43210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "hybrid",
  message: "Weekend batch, please",
};

async function enquiry(over: Partial<EnquiryInput> = {}) {
  return inTransaction(async () => {
    const e = await insertEnquiry({ ...base, ...over });
    await queueEnquiryNotifications(e);
    return e;
  });
}

describe("a new enquiry", () => {
  it("alerts staff with every field, the attachments by name and the admin link; acknowledges the student", async () => {
    const e = await enquiry({ filePaths: ["0123456789abcdef0123456789abcdef-resume.pdf", "fedcba9876543210fedcba9876543210-marks card.png"] });
    await drainOutbox(log);
    const [alert] = await smtp.waitFor((m) => m.parsed.subject!.startsWith("New enquiry"));
    expect(alert.envelope.to.sort()).toEqual(["staff.one@example.com", "staff.two@example.com"]);
    expect(alert.envelope.from).toBe("no-reply@cybersoc.test");
    expect(alert.user).toBe("outbox");
    expect(alert.parsed.subject).toBe("New enquiry: Ravi Kumar for SOC Analyst Training Program (Hybrid)");
    expect(addresses(alert.parsed.replyTo)).toEqual(["ravi@example.com"]);
    expect(alert.parsed.headers.get("auto-submitted")).toBe("auto-generated");
    const link = `https://academy.example/admin/enquiries/${e.id}`;
    for (const part of [alert.parsed.text!, alert.parsed.html as string]) {
      for (const value of [
        "Ravi Kumar",
        "ravi@example.com",
        "98765 43210",
        "SOC Analyst Training Program",
        "Hybrid",
        "Weekend batch, please",
        "resume.pdf",
        "marks card.png",
        link,
      ]) {
        expect(part).toContain(value);
      }
      expect(part).not.toContain("0123456789abcdef0123456789abcdef");
    }
    // Attachments are named, not attached.
    expect(alert.parsed.attachments).toEqual([]);
    expect(alert.raw).toMatch(/Content-Type: multipart\/alternative/i);

    const [ack] = await smtp.waitFor((m) => m.envelope.to.includes("ravi@example.com"));
    expect(ack.envelope.to).toEqual(["ravi@example.com"]);
    expect(ack.parsed.subject).toBe("We have received your enquiry | CyberSOC Academy");
    expect(addresses(ack.parsed.replyTo)).toEqual(["info@cybersocacademy.in"]);
    for (const part of [ack.parsed.text!, ack.parsed.html as string]) {
      for (const value of [
        "Dear Ravi Kumar",
        "within 24 hours",
        "Mon-Fri: 9:00-18:00",
        "Sat: 10:00-14:00",
        "Sunday: Closed",
        "+91 98765 43210",
        "wa.me/919876543210",
      ])
        expect(part).toContain(value);
    }
    expect(smtp.received).toHaveLength(2);
  });

  it("posts a signed enquiry.created webhook with the record and nothing internal", async () => {
    const e = await enquiry();
    await drainOutbox(log);
    const [hook] = await hooks.waitFor(() => true);
    expect(hook.verified).toBe(true);
    const row = (await listOutboxMessages()).data.find((m) => m.kind === "webhook")!;
    expect(hook.headers["webhook-id"]).toBe(webhookIdFor(row.id));
    expect(hook.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(hook.body);
    expect(body).toEqual({ type: "enquiry.created", timestamp: e.createdAt, data: JSON.parse(JSON.stringify(e)) });
    expect(body.data).not.toHaveProperty("phoneDigits");
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null, recipient: hooks.url, subject: "enquiry.created" });
  });

  it("is not queued outside the submission's transaction", async () => {
    const e = await insertEnquiry(base);
    await expect(queueEnquiryNotifications(e)).rejects.toThrow(/inside the submission's transaction/);
  });

  it("is queued with the enquiry or not at all: a rolled-back submission leaves no message", async () => {
    await expect(
      inTransaction(async () => {
        await queueEnquiryNotifications(await insertEnquiry(base));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect((await listOutboxMessages()).total).toBe(0);
    await submitEnquiry({ user: null, ip: "203.0.113.1" }, { ...base, preferredMode: "online" }, { channel: "api" });
    expect((await listOutboxMessages()).data.map((m) => m.kind).sort()).toEqual(["email", "email", "webhook"]);
  });
});

describe("what a visitor typed cannot get out of its place", () => {
  it("a name with <script> and CR/LF is escaped in the HTML and adds no header or recipient", async () => {
    const hostile = '<script>alert("x")</script>\r\nBcc: evil@example.com\r\nX-Injected: yes';
    await enquiry({ fullName: hostile, message: "<img src=x onerror=alert(1)>" });
    await drainOutbox(log);
    const mails = await smtp.waitFor(() => true, 2);
    for (const m of mails) {
      expect(m.envelope.to).not.toContain("evil@example.com");
      expect(m.parsed.headers.has("bcc")).toBe(false);
      expect(m.parsed.headers.has("x-injected")).toBe(false);
      expect(m.parsed.bcc).toBeUndefined();
      const html = m.parsed.html as string;
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img/i);
      expect(html).toContain("&lt;script&gt;");
    }
    const alert = mails.find((m) => m.parsed.subject!.startsWith("New enquiry"))!;
    expect(alert.parsed.subject).toBe(
      'New enquiry: <script>alert("x")</script> Bcc: evil@example.com X-Injected: yes for SOC Analyst Training Program (Hybrid)',
    );
    expect(alert.envelope.to.sort()).toEqual(["staff.one@example.com", "staff.two@example.com"]);
    expect(alert.parsed.html as string).toContain("&lt;img src=x onerror=alert(1)&gt;");
    const ack = mails.find((m) => m.envelope.to.includes("ravi@example.com"))!;
    expect(ack.envelope.to).toEqual(["ravi@example.com"]);
    expect(addresses(ack.parsed.to)).toEqual(["ravi@example.com"]);
  });

  it("a name with direction controls reads in the order typed in the subject, stored and old rows alike", async () => {
    // Through the service: the one-line field loses them before it is stored.
    await submitEnquiry(
      { user: null, ip: "203.0.113.1" },
      { ...base, fullName: "Ravi \u202Efdp.exe\u202C Kumar", preferredMode: "online" },
      { channel: "api" },
    );
    // A row stored before the rule keeps them; the subject drops them all the same.
    await enquiry({ fullName: "\u2067Meera\u2069 \u202DDas" });
    await drainOutbox(log);
    const alerts = (await smtp.waitFor((m) => m.parsed.subject!.startsWith("New enquiry"), 2)).filter((m) => m.parsed.subject!.startsWith("New enquiry"));
    const subjects = alerts.map((m) => m.parsed.subject!).sort();
    expect(subjects).toEqual([
      "New enquiry: Meera Das for SOC Analyst Training Program (Hybrid)",
      "New enquiry: Ravi fdp.exe Kumar for SOC Analyst Training Program (Online)",
    ]);
    for (const m of await listOutboxMessages().then((l) => l.data)) expect(m.subject, m.subject).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });

  it("an e-mail with commas gets no acknowledgement (the screen says why) and adds no recipient", async () => {
    await enquiry({ email: "victim@example.com, other@example.com" });
    await drainOutbox(log);
    const [alert] = await smtp.waitFor(() => true);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received).toHaveLength(1);
    expect(alert.envelope.to.sort()).toEqual(["staff.one@example.com", "staff.two@example.com"]);
    // Reply-To is left out rather than set to something that reads as two addresses.
    expect(alert.parsed.replyTo).toBeUndefined();
    const ack = (await listOutboxMessages()).data.find((m) => m.subject.startsWith("We have received"))!;
    expect(ack).toMatchObject({ status: "failed", lastError: NOT_ONE_ADDRESS, attempts: 0 });
  });
});

describe("a contact query", () => {
  it("alerts staff with the link and acknowledges the sender", async () => {
    const q = await inTransaction(async () => {
      const q = await insertContactQuery({ name: "Meera Das", email: "meera@example.com", subject: "Fees", message: "What are the fees?" });
      await queueContactQueryNotifications(q);
      return q;
    });
    await drainOutbox(log);
    const [alert] = await smtp.waitFor((m) => m.parsed.subject === "New contact message: Meera Das: Fees");
    expect(alert.parsed.text).toContain(`https://academy.example/admin/contact-queries/${q.id}`);
    expect(alert.parsed.text).toContain("What are the fees?");
    expect(alert.parsed.text).toContain("Phone: Not given");
    const [ack] = await smtp.waitFor((m) => m.envelope.to.includes("meera@example.com"));
    expect(ack.parsed.subject).toBe("We have received your message | CyberSOC Academy");
    // The sender typed the address: the acknowledgement carries none of their own words (the subject stays out).
    expect(ack.parsed.text).toContain("We have received your message and will reply within 24 hours");
    expect(`${ack.parsed.text}${ack.parsed.html}`).not.toContain("Fees");
    expect(ack.parsed.html as string).toContain("Mon-Fri: 9:00-18:00");
    const [hook] = await hooks.waitFor(() => true);
    expect(JSON.parse(hook.body).type).toBe("contact_query.created");
    expect(hook.verified).toBe(true);
  });
});

describe("delivery", () => {
  it("keeps one Message-ID per message: a repeat (after a crash) is recognisable", async () => {
    await enquiry();
    await drainOutbox(log);
    const first = await smtp.waitFor(() => true, 2);
    const ids = first.map((m) => m.parsed.messageId).sort();
    const rows = (await listOutboxMessages()).data.filter((m) => m.kind === "email");
    expect(ids).toEqual(rows.map((r) => `<${r.id}@cybersoc.test>`).sort());
    // As if the process had died after sending but before recording it.
    await db().updateTable("outbox").set({ status: "pending", sentAt: null }).execute();
    await drainOutbox(log);
    const all = await smtp.waitFor(() => true, 4);
    expect(
      all
        .slice(2)
        .map((m) => m.parsed.messageId)
        .sort(),
    ).toEqual(ids);
  });

  it("retries a failing webhook with growing pauses, the same webhook-id and a fresh valid signature, then gives up after the window", async () => {
    hooks.answer((call) => (call <= 2 ? 500 : 200));
    await enquiry();
    const started = Date.now();
    await drainOutbox(log);
    let row = (await listOutboxMessages()).data.find((m) => m.kind === "webhook")!;
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 500 Internal Server Error" });
    expect(Date.parse(row.nextAttemptAt) - started).toBeGreaterThanOrEqual(BACKOFF_MS[0] - 1000);
    expect(Date.parse(row.nextAttemptAt) - started).toBeLessThan(BACKOFF_MS[0] + 5000);

    const due = async () =>
      db()
        .updateTable("outbox")
        .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() })
        .where("id", "=", row.id)
        .execute();
    await due();
    await drainOutbox(log);
    row = (await listOutboxMessages()).data.find((m) => m.id === row.id)!;
    expect(row.attempts).toBe(2);
    expect(Date.parse(row.nextAttemptAt) - Date.now()).toBeGreaterThan(BACKOFF_MS[1] - 5000);
    await due();
    await drainOutbox(log);
    row = (await listOutboxMessages()).data.find((m) => m.id === row.id)!;
    expect(row).toMatchObject({ status: "sent", attempts: 3, lastError: null });
    expect(new Set(hooks.received.map((h) => h.headers["webhook-id"]))).toEqual(new Set([webhookIdFor(row.id)]));
    expect(hooks.received.every((h) => h.verified)).toBe(true);

    // Past its 24-hour window a failure is final.
    hooks.answer(() => 503);
    await db()
      .updateTable("outbox")
      .set({ status: "pending", retryUntil: new Date(Date.now() + 10_000).toISOString(), nextAttemptAt: new Date(0).toISOString() })
      .where("id", "=", row.id)
      .execute();
    await drainOutbox(log);
    row = (await listOutboxMessages()).data.find((m) => m.id === row.id)!;
    expect(row).toMatchObject({ status: "failed", attempts: 4, lastError: "HTTP 503 Service Unavailable" });
  });

  it("renders from the record when sending: an enquiry deleted first gets no e-mail, and the screen says why", async () => {
    const e = await enquiry();
    await db().deleteFrom("enquiries").where("id", "=", e.id).execute();
    await drainOutbox(log);
    expect(smtp.received).toHaveLength(0);
    const emails = (await listOutboxMessages()).data.filter((m) => m.kind === "email");
    expect(emails.map((m) => [m.status, m.lastError])).toEqual([
      ["failed", "Not sent: the enquiry was deleted first"],
      ["failed", "Not sent: the enquiry was deleted first"],
    ]);
    // The webhook carries the record as it was when it came in, so it still goes.
    expect((await listOutboxMessages()).data.find((m) => m.kind === "webhook")!.status).toBe("sent");
  });

  it("a redirect and a refused connection are not deliveries", async () => {
    await expect(postWebhook("http://127.0.0.1:9/nothing", "x", "{}")).rejects.toThrow(/Could not connect/);
    hooks.answer(() => 302);
    await expect(postWebhook(hooks.url, "x", "{}")).rejects.toThrow("HTTP 302");
  });

  it("sends e-mails that waited for configuration once it is there", async () => {
    await enquiry();
    await db().updateTable("outbox").set({ status: "waiting" }).where("kind", "=", "email").execute();
    await sql`select 1`.execute(db());
    // A fresh pass with SMTP_URL set releases them (the worker does so at start and every minute).
    const { startOutboxWorker, stopOutboxWorker } = await import("~/infra/outbox-worker.server");
    startOutboxWorker(log);
    try {
      await smtp.waitFor(() => true, 2, 10_000);
    } finally {
      await stopOutboxWorker();
    }
    expect((await listOutboxMessages()).data.every((m) => m.status === "sent")).toBe(true);
    expect(logs.some((l) => l.includes("sending 2 e-mail(s) that waited for it"))).toBe(true);
  });

  it("lets exactly one of many simultaneous claims win a row, and a row under a live lease is not claimable", async () => {
    await enquiry();
    const id = (await listOutboxMessages()).data[0].id;
    const now = new Date().toISOString();
    const lease = new Date(Date.now() + 30_000).toISOString();
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimOutboxMessage(id, now, lease)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimOutboxMessage(id, new Date().toISOString(), lease)).toBeNull();
    // Once the lease has run out (its holder died), another worker claims it.
    const later = new Date(Date.now() + 31_000).toISOString();
    expect(await claimOutboxMessage(id, later, new Date(Date.now() + 61_000).toISOString())).not.toBeNull();
  });
});
