import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, inTransaction } from "~db/client.server";
import { newTimeOrderedId } from "~/util/ids";
import { getContactQuery } from "~/models/contact-query.server";
import { getEnquiry } from "~/models/enquiry.server";
import type { StaffActor } from "~/services/actor";
import { deleteContactQuery, submitContactQuery } from "~/services/contact-queries.server";
import { deleteEnquiry, setEnquiryStatus } from "~/services/enquiries.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";

/**
 * Deleting an enquiry or a contact query takes its personal data out of the outbox in the same transaction:
 * its messages not sent yet are deleted (nothing about a deleted record goes out, not even on Resend), and the
 * sent ones keep their row for the Outbox screen but not the webhook body, which held the record.
 */
const { smtp, hooks } = await startOutboxReceivers();

useTestDatabase();

const logs: string[] = [];
const visitor = { user: null, ip: "203.0.113.7" };
let priya: StaffActor;
beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Priya Delete", email: "priya.delete@staff.test", password: "long-enough-password", role: "editor" });
  priya = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
});

beforeEach(async () => {
  smtp.received.length = 0;
  hooks.received.length = 0;
  hooks.answer(() => 204);
  await db().deleteFrom("outbox").execute();
});

let n = 0;
const lead = () => {
  n++;
  return {
    fullName: `Meena Private${n}`,
    email: `meena.private${n}@example.com`,
    phone: `97${String(30_000_000 + n)}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    message: `My secret note ${n}`,
  };
};

/** Every outbox row about a record, straight from the table (the payload included). */
const rowsAbout = (id: string) =>
  db().selectFrom("outbox").select(["id", "kind", "event", "status", "payload", "recipient", "subject"]).where("entityId", "=", id).orderBy("id").execute();

describe("deleting an enquiry", () => {
  it("deletes its messages not sent yet, with the enquiry: nothing about it goes out afterwards", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "api" });
    await setEnquiryStatus(priya, e.id, { status: "contacted" });
    const before = await rowsAbout(e.id);
    // Alert, acknowledgement, enquiry.created and enquiry.status_changed, none sent yet.
    expect(before.map((r) => `${r.kind}/${r.event}/${r.status}`).sort()).toEqual([
      "email/enquiry.created/pending",
      "email/enquiry.created/pending",
      "webhook/enquiry.created/pending",
      "webhook/enquiry.status_changed/pending",
    ]);
    expect(before.find((r) => r.event === "enquiry.created" && r.kind === "webhook")!.payload).toContain(e.email);

    await deleteEnquiry(priya, e.id);
    expect(await getEnquiry(e.id)).toBeNull();
    expect(await rowsAbout(e.id)).toEqual([]);
    await drainOutbox((l) => logs.push(l));
    expect(smtp.received).toHaveLength(0);
    expect(hooks.received).toHaveLength(0);
  });

  it("deletes retrying, waiting and failed messages too (a failed one could be resent), and keeps sent ones without their payload", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "api" });
    await drainOutbox((l) => logs.push(l));
    await hooks.waitFor(() => true);
    await smtp.waitFor(() => true, 2);
    const sent = await rowsAbout(e.id);
    expect(sent.every((r) => r.status === "sent")).toBe(true);
    const sentWebhook = sent.find((r) => r.kind === "webhook")!;
    expect(sentWebhook.payload).toContain(e.fullName);

    // Then: a status change whose webhook is being retried, and messages in every other unsent state.
    hooks.answer(() => 503);
    await setEnquiryStatus(priya, e.id, { status: "contacted" });
    await drainOutbox((l) => logs.push(l));
    const retrying = (await rowsAbout(e.id)).find((r) => r.event === "enquiry.status_changed")!;
    expect(retrying.status).toBe("pending");
    const copies = sent.filter((r) => r.kind === "email").map((r) => ({ ...r }));
    for (const [i, status] of (["waiting", "failed"] as const).entries()) {
      // Made the way an e-mail waiting for SMTP_URL, or one that gave up, would be.
      await db()
        .insertInto("outbox")
        .values({
          ...copies[i],
          id: newTimeOrderedId(),
          template: "enquiry-ack",
          entityType: "enquiry",
          entityId: e.id,
          status,
          attempts: 0,
          nextAttemptAt: new Date().toISOString(),
          retryUntil: new Date(Date.now() + 60_000).toISOString(),
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        })
        .execute();
    }
    expect((await rowsAbout(e.id)).map((r) => r.status).sort()).toEqual(["failed", "pending", "sent", "sent", "sent", "waiting"]);

    await deleteEnquiry(priya, e.id);
    const after = await rowsAbout(e.id);
    expect(after.map((r) => r.id).sort()).toEqual(sent.map((r) => r.id).sort());
    expect(after.every((r) => r.status === "sent" && r.payload === "")).toBe(true);
    for (const r of after) {
      expect(r.payload).not.toContain(e.email);
      expect(r.payload).not.toContain(e.message);
    }
    // Still on the Outbox screen: what was sent, where, when.
    expect(after.find((r) => r.kind === "webhook")).toMatchObject({ event: "enquiry.created", recipient: hooks.url, subject: "enquiry.created" });

    hooks.answer(() => 204);
    hooks.received.length = 0;
    await db()
      .updateTable("outbox")
      .set({ nextAttemptAt: new Date(0).toISOString() })
      .execute();
    await drainOutbox((l) => logs.push(l));
    expect(hooks.received).toHaveLength(0);
  });

  it("leaves other records' messages alone", async () => {
    const kept = await submitEnquiry(visitor, lead(), { channel: "api" });
    const gone = await submitEnquiry(visitor, lead(), { channel: "api" });
    const keptRows = await rowsAbout(kept.id);
    await deleteEnquiry(priya, gone.id);
    expect(await rowsAbout(kept.id)).toEqual(keptRows);
    await drainOutbox((l) => logs.push(l));
    const [hook] = await hooks.waitFor(() => true);
    expect(hook.verified).toBe(true);
    expect((hook.payload as { data: { id: string } }).data.id).toBe(kept.id);
    expect(hooks.received).toHaveLength(1);
    // The alert goes to the desk and to the staff member the round-robin gave the enquiry to (issue 37.6).
    const owner = kept.assigneeId ? await db().selectFrom("users").select("email").where("id", "=", kept.assigneeId).executeTakeFirstOrThrow() : null;
    expect(smtp.received.flatMap((m) => m.envelope.to).sort()).toEqual(["desk@cybersoc.test", kept.email, ...(owner ? [owner.email] : [])].sort());
  });

  it("is one transaction: a delete that rolls back leaves the messages as they were", async () => {
    const e = await submitEnquiry(visitor, lead(), { channel: "api" });
    const rows = await rowsAbout(e.id);
    await expect(
      inTransaction(async () => {
        await deleteEnquiry(priya, e.id);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await getEnquiry(e.id)).not.toBeNull();
    expect(await rowsAbout(e.id)).toEqual(rows);
  });
});

describe("deleting a contact query", () => {
  it("deletes its messages not sent yet and blanks the sent webhook's body", async () => {
    const sentQuery = await submitContactQuery(visitor, { name: "Ravi Private", email: "ravi.private@example.com", message: "My private question" });
    await drainOutbox((l) => logs.push(l));
    await hooks.waitFor(() => true);
    expect((await rowsAbout(sentQuery.id)).find((r) => r.kind === "webhook")!.payload).toContain("ravi.private@example.com");
    const pending = await submitContactQuery(visitor, { name: "Sita Private", email: "sita.private@example.com", message: "Another private question" });
    expect(await rowsAbout(pending.id)).toHaveLength(3);

    await deleteContactQuery(priya, sentQuery.id);
    await deleteContactQuery(priya, pending.id);
    expect(await getContactQuery(pending.id)).toBeNull();
    expect(await rowsAbout(pending.id)).toEqual([]);
    const sent = await rowsAbout(sentQuery.id);
    expect(sent.map((r) => [r.kind, r.status, r.payload]).sort()).toEqual([
      ["email", "sent", ""],
      ["email", "sent", ""],
      ["webhook", "sent", ""],
    ]);
    hooks.received.length = 0;
    smtp.received.length = 0;
    await drainOutbox((l) => logs.push(l));
    expect([hooks.received.length, smtp.received.length]).toEqual([0, 0]);
  });
});
