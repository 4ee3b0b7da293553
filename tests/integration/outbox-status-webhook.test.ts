import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { db, inTransaction } from "~db/client.server";
import { runOutboxPass } from "~/infra/outbox-worker.server";
import { issueToken } from "~/web/token.server";
import { webhookIdFor } from "~/infra/webhooks.server";
import { getEnquiry, insertEnquiry, type Enquiry } from "~/models/enquiry.server";
import { listOutboxMessages } from "~/models/outbox.server";
import { getUserWithSecret } from "~/models/user.server";
import { action as bulkAction } from "~/routes/admin.enquiries";
import { action as apiStatusAction } from "~/routes/api.enquiries.$id.status";
import type { StaffActor } from "~/services/actor";
import { assignEnquiry, bulkUpdateEnquiries, setEnquiryStatus, updateEnquiry } from "~/services/enquiries.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";
import { startWebhookSink, type ReceivedHook } from "../helpers/webhook-sink";
import { makeRequest, run, staffCookie } from "./admin-route-helpers";

/**
 * `enquiry.status_changed`: every status change (the status screen's service call, the bulk action, the API)
 * queues one signed webhook per WEBHOOK_URL in the change's own transaction; the worker's passes run here and
 * deliver to two real HTTP receivers. No change of status, no webhook.
 */
const SECRET = `whsec_${Buffer.from("status-webhook-test-secret-of-32-bytes!").toString("base64")}`;
const first = await startWebhookSink(SECRET);
const second = await startWebhookSink(SECRET);
// Read once, at the first env() call: set before any code runs.
Object.assign(process.env, { WEBHOOK_URL: `${first.url}, ${second.url}`, WEBHOOK_SECRET: SECRET, PUBLIC_URL: "https://academy.example", TRUST_PROXY: "true" });

useTestDatabase();
afterAll(async () => {
  await first.close();
  await second.close();
});

const logs: string[] = [];
/** Runs worker passes until nothing is due. */
async function drain() {
  for (let i = 0; i < 20 && (await runOutboxPass((l) => logs.push(l))) > 0; i++);
}

type StatusHook = {
  type: string;
  timestamp: string;
  data: { id: string; previousStatus: string; status: string; changedAt: string; changedBy: { id: string; name: string; email: string } };
};

/** The signature checked again here, as a receiver would, with the standardwebhooks library and the secret. */
function verified(hook: ReceivedHook): StatusHook {
  return new Webhook(SECRET).verify(hook.body, hook.headers as Record<string, string>) as StatusHook;
}

let n = 0;
const enquiry = () =>
  insertEnquiry({
    fullName: `Status Lead ${++n}`,
    email: `status${n}@example.com`,
    phone: `98${String(20_000_000 + n)}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    message: "Call me",
  });

let priya: StaffActor;
beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Priya Status", email: "priya.status@staff.test", password: "long-enough-password", role: "editor" });
  priya = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
});

beforeEach(async () => {
  for (const sink of [first, second]) {
    sink.received.length = 0;
    sink.answer(() => 204);
  }
  await db().deleteFrom("outbox").execute();
});

/** Every received webhook of an enquiry, at one receiver, its signature verified. */
const hooksFor = (sink: typeof first, id: string) => sink.received.map(verified).filter((h) => h.data.id === id);

describe("enquiry.status_changed", () => {
  it("is queued with the change and delivered, signed, to every WEBHOOK_URL: id, old and new status, who and when", async () => {
    const e = await enquiry();
    const saved = await setEnquiryStatus(priya, e.id, { status: "contacted" });
    const rows = (await listOutboxMessages()).data;
    expect(rows.map((r) => [r.kind, r.event, r.subject, r.entityType, r.entityId, r.status]).sort()).toEqual([
      ["webhook", "enquiry.status_changed", "enquiry.status_changed", "enquiry", e.id, "pending"],
      ["webhook", "enquiry.status_changed", "enquiry.status_changed", "enquiry", e.id, "pending"],
    ]);
    expect(rows.map((r) => r.recipient).sort()).toEqual([first.url, second.url].sort());

    await drain();
    for (const sink of [first, second]) {
      expect(sink.received).toHaveLength(1);
      const [hook] = sink.received;
      expect(hook.verified).toBe(true);
      const row = (await listOutboxMessages()).data.find((r) => r.recipient === sink.url)!;
      expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
      expect(hook.headers["webhook-id"]).toBe(webhookIdFor(row.id));
      expect(JSON.parse(hook.body)).toEqual({
        type: "enquiry.status_changed",
        timestamp: saved.updatedAt,
        data: {
          id: e.id,
          previousStatus: "new",
          status: "contacted",
          changedAt: saved.updatedAt,
          changedBy: { id: priya.user.id, name: "Priya Status", email: "priya.status@staff.test" },
        },
      });
      expect(verified(hook).data.status).toBe("contacted");
      // Nothing of the enquirer's beyond the id: the receiver had the record with enquiry.created.
      for (const value of [e.fullName, e.email, e.phone, e.message]) expect(hook.body).not.toContain(value);
    }
    // A signature made with another secret does not pass.
    const other = new Webhook(`whsec_${Buffer.from("another-secret-entirely-32-bytes-long").toString("base64")}`);
    expect(() => other.verify(first.received[0].body, first.received[0].headers as Record<string, string>)).toThrow();
  });

  it("is sent once per change: new → contacted → closed → contacted gives three", async () => {
    const e = await enquiry();
    for (const status of ["contacted", "closed", "contacted"]) await setEnquiryStatus(priya, e.id, { status });
    await drain();
    expect(
      hooksFor(first, e.id)
        .map((h) => [h.data.previousStatus, h.data.status])
        .sort(),
    ).toEqual(
      [
        ["new", "contacted"],
        ["contacted", "closed"],
        ["closed", "contacted"],
      ].sort(),
    );
    expect(hooksFor(second, e.id)).toHaveLength(3);
    expect(new Set(first.received.map((h) => h.headers["webhook-id"])).size).toBe(3);
  });

  it("is not sent when the status did not change: the same status again, an owner or a field edit", async () => {
    const e = await enquiry();
    await setEnquiryStatus(priya, e.id, { status: "new" });
    await assignEnquiry(priya, e.id, { assigneeId: priya.user.id });
    const now = (await getEnquiry(e.id))!;
    await updateEnquiry(priya, e.id, {
      fullName: now.fullName,
      email: now.email,
      phone: now.phone,
      preferredCourse: now.preferredCourse,
      preferredMode: now.preferredMode,
      message: "Evenings, please",
      status: "new",
    });
    expect((await getEnquiry(e.id))!.message).toBe("Evenings, please");
    expect(await bulkUpdateEnquiries(priya, { ids: [e.id], status: "new" })).toBe(1);
    expect((await listOutboxMessages()).total).toBe(0);
    await drain();
    expect([first.received, second.received]).toEqual([[], []]);
  });

  it("is not queued when the change rolls back", async () => {
    const e = await enquiry();
    await expect(
      inTransaction(async () => {
        await setEnquiryStatus(priya, e.id, { status: "enrolled" });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect((await getEnquiry(e.id))!.status).toBe("new");
    expect((await listOutboxMessages()).total).toBe(0);
  });

  it("comes once per enquiry from the bulk action on the list screen, as the signed-in staff member", async () => {
    const cookie = await staffCookie("editor");
    const staff = await db().selectFrom("users").select(["id", "name", "email"]).where("email", "like", "editor-%@staff.test").executeTakeFirstOrThrow();
    const list: Enquiry[] = [await enquiry(), await enquiry(), await enquiry()];
    // One is already Closed: it is not changed, so it gets no webhook.
    await setEnquiryStatus(priya, list[2].id, { status: "closed" });
    await db().deleteFrom("outbox").execute();

    const out = await run(bulkAction, makeRequest("/admin/enquiries", { cookie, form: { ids: list.map((e) => e.id), status: "closed" } }));
    expect(out.status).toBe(302);
    for (const e of list) expect((await getEnquiry(e.id))!.status).toBe("closed");
    expect((await listOutboxMessages()).total).toBe(4);

    await drain();
    for (const sink of [first, second]) {
      expect(sink.received).toHaveLength(2);
      expect(sink.received.every((h) => h.verified)).toBe(true);
      const bodies = sink.received.map(verified);
      expect(bodies.map((b) => b.data.id).sort()).toEqual([list[0].id, list[1].id].sort());
      for (const b of bodies) {
        expect(b.type).toBe("enquiry.status_changed");
        expect(b.data).toMatchObject({ previousStatus: "new", status: "closed", changedBy: { id: staff.id, name: staff.name, email: staff.email } });
      }
    }
  });

  it("names the API token's user when the status is set through PUT /api/enquiries/:id/status", async () => {
    const u = await createUserWithoutActor({ name: "Api Arjun", email: "arjun.api@staff.test", password: "long-enough-password", role: "editor" });
    const token = await issueToken((await getUserWithSecret({ id: u.id }))!);
    const e = await enquiry();
    const request = new Request(`http://localhost/api/enquiries/${e.id}/status`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "enrolled" }),
    });
    const out = await run(apiStatusAction, request, { id: e.id });
    expect(out.status).toBe(200);
    await drain();
    const [hook] = await first.waitFor(() => true, 1, 5_000);
    expect(hook.verified).toBe(true);
    expect(verified(hook).data).toMatchObject({
      id: e.id,
      previousStatus: "new",
      status: "enrolled",
      changedBy: { id: u.id, name: "Api Arjun", email: "arjun.api@staff.test" },
    });
    expect(second.received.map(verified).map((h) => h.data.changedBy.id)).toEqual([u.id]);
  });

  it("is retried like any webhook: a receiver's failure is tried again with the same webhook-id and body", async () => {
    const e = await enquiry();
    first.answer((call) => (call === 1 ? 500 : 204));
    await setEnquiryStatus(priya, e.id, { status: "contacted" });
    await drain();
    const row = (await listOutboxMessages()).data.find((r) => r.recipient === first.url)!;
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 500 Internal Server Error" });
    await db()
      .updateTable("outbox")
      .set({ nextAttemptAt: new Date(0).toISOString() })
      .where("id", "=", row.id)
      .execute();
    await drain();
    expect(first.received.map((h) => h.status)).toEqual([500, 204]);
    expect(first.received[0].body).toBe(first.received[1].body);
    expect(new Set(first.received.map((h) => h.headers["webhook-id"]))).toEqual(new Set([webhookIdFor(row.id)]));
    expect(first.received.every((h) => h.verified)).toBe(true);
  });
});
