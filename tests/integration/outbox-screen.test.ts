import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { listAuditEntries } from "~/models/audit-log.server";
import { getOutboxMessage, listOutboxMessages } from "~/models/outbox.server";
import * as dashboard from "~/routes/admin.dashboard";
import * as outbox from "~/routes/admin.outbox";
import { submitContactQuery } from "~/services/contact-queries.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * The Outbox screen and the dashboard's warning, through their real loaders and actions, with e-mail NOT
 * configured (SMTP_URL unset, the quick start): e-mails wait, and the screen and dashboard say so.
 */
useTestDatabase();

let admin: string;
let editor: string;
const visitor = { user: null, ip: "203.0.113.5" };

beforeAll(async () => {
  admin = await staffCookie("admin");
  editor = await staffCookie("editor");
  await submitEnquiry(
    visitor,
    { fullName: "Screen Sita", email: "sita@example.com", phone: "9876543210", preferredCourse: "SOC Analyst Training Program", preferredMode: "offline" },
    { channel: "api" },
  );
  await submitContactQuery(visitor, { name: "Screen Sam", email: "sam@example.com", message: "Hello" });
});

type Loaded = {
  list: { data: { id: string; status: string; kind: string; subject: string; recipient: string }[]; total: number };
  error: string | null;
  mailConfigured: boolean;
};

describe("the Outbox screen", () => {
  it("lists every message for an admin, e-mails waiting for configuration, newest first", async () => {
    const out = await run(outbox.loader, makeRequest("/admin/outbox", { cookie: admin }));
    expect(out.status).toBe(200);
    const body = out.body as Loaded;
    expect(body.mailConfigured).toBe(false);
    expect(body.error).toBeNull();
    // Each submission: a staff alert (to the admins, NOTIFY_EMAIL being unset) and an acknowledgement.
    expect(body.list.total).toBe(4);
    expect(body.list.data.every((m) => m.kind === "email" && m.status === "waiting")).toBe(true);
    // The contact query came last: its two messages lead.
    expect(
      body.list.data
        .slice(0, 2)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(["New contact message: Screen Sam", "We have received your message | CyberSOC Academy"]);
    const alert = body.list.data.find((m) => m.subject.startsWith("New enquiry"))!;
    expect(alert.subject).toBe("New enquiry: Screen Sita for SOC Analyst Training Program (Offline)");
    expect(alert.recipient).toMatch(/^admin-\w+@staff\.test$/);
  });

  it("filters by status tab; an unknown tab shows all", async () => {
    const waiting = (await run(outbox.loader, makeRequest("/admin/outbox?status=waiting", { cookie: admin }))).body as Loaded;
    expect(waiting.list.total).toBe(4);
    const sent = (await run(outbox.loader, makeRequest("/admin/outbox?status=sent", { cookie: admin }))).body as Loaded;
    expect(sent.list.total).toBe(0);
    const bogus = (await run(outbox.loader, makeRequest("/admin/outbox?status=bogus", { cookie: admin }))).body as Loaded;
    expect(bogus.list.total).toBe(4);
  });

  it("refuses editors (403) and sends visitors to sign in, for the list and for Resend", async () => {
    const id = (await listOutboxMessages()).data[0].id;
    await db().updateTable("outbox").set({ status: "failed", lastError: "550 No such user" }).where("id", "=", id).execute();
    expect((await run(outbox.loader, makeRequest("/admin/outbox", { cookie: editor }))).status).toBe(403);
    expect((await run(outbox.action, makeRequest("/admin/outbox", { cookie: editor, form: { intent: "resend", id } }))).status).toBe(403);
    const anon = await run(outbox.action, makeRequest("/admin/outbox", { form: { intent: "resend", id } }));
    expect([anon.status, anon.location]).toEqual([302, "/admin/login"]);
    expect((await getOutboxMessage(id))!.status).toBe("failed");
  });

  it("Resend puts a failed message back in line (waiting, as e-mail is not set up), audited with the admin's name, and keeps the tab", async () => {
    const id = (await listOutboxMessages({ status: "failed" })).data[0].id;
    const out = await run(outbox.action, makeRequest("/admin/outbox?status=failed&page=1", { cookie: admin, form: { intent: "resend", id } }));
    expect([out.status, out.location]).toEqual([302, "/admin/outbox?status=failed&page=1"]);
    expect(await flashOf(out)).toEqual({ kind: "notice", message: "The message will be sent once e-mail is configured." });
    const saved = (await getOutboxMessage(id))!;
    expect(saved.status).toBe("waiting");
    const audit = (await listAuditEntries({ entityType: "outbox" })).data;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "resend", entityId: id, userName: "Test admin" });
    expect(audit[0].summary).toContain(saved.subject);

    // Pressed again (already back in line): a notice, no change, no second audit entry.
    const again = await run(outbox.action, makeRequest("/admin/outbox", { cookie: admin, form: { intent: "resend", id } }));
    expect((await flashOf(again))?.message).toBe("Only a failed message can be sent again; this one is no longer failed.");
    expect((await listAuditEntries({ entityType: "outbox" })).total).toBe(1);
    const unknown = await run(outbox.action, makeRequest("/admin/outbox", { cookie: admin, form: { intent: "resend", id: "no-such-id" } }));
    expect(await flashOf(unknown)).toEqual({ kind: "error", message: "Failed to send the message again. Please try again." });
  });
});

describe("the dashboard's warning", () => {
  it("says e-mail is not set up, with how many wait, and the Outbox link for admins only", async () => {
    const forAdmin = (await run(dashboard.loader, makeRequest("/admin/dashboard", { cookie: admin }))).body as { outbox: unknown; isAdmin: boolean };
    expect(forAdmin).toMatchObject({ isAdmin: true, outbox: { mailConfigured: false, waiting: 4, failedRecently: 0 } });
    const forEditor = (await run(dashboard.loader, makeRequest("/admin/dashboard", { cookie: editor }))).body as { isAdmin: boolean };
    expect(forEditor.isAdmin).toBe(false);
  });

  it("counts messages that failed in the last 24 hours, not older ones", async () => {
    const [recent, old] = (await listOutboxMessages()).data;
    await db()
      .updateTable("outbox")
      .set({ status: "failed", updatedAt: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "=", recent.id)
      .execute();
    await db()
      .updateTable("outbox")
      .set({ status: "failed", updatedAt: new Date(Date.now() - 25 * 3600_000).toISOString() })
      .where("id", "=", old.id)
      .execute();
    const body = (await run(dashboard.loader, makeRequest("/admin/dashboard", { cookie: admin }))).body as { outbox: { failedRecently: number } };
    expect(body.outbox.failedRecently).toBe(1);
  });
});
