import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { insertCourse } from "~/models/course.server";
import type { StaffActor } from "~/services/actor";
import { submitContactQuery } from "~/services/contact-queries.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { answerGuardian } from "~/services/guardian-consent.server";
import { MAILS_PER_TYPED_ADDRESS_PER_DAY, TOO_MANY_TO_ADDRESS } from "~/services/notifications.server";
import { HELD_MESSAGE_RECIPIENT, HELD_MESSAGE_SUBJECT, listOutbox } from "~/services/outbox.server";
import { findPerson, HELD_NAME } from "~/services/privacy-erasure.server";
import { isServiceError } from "~/services/service-error";
import { createUserWithoutActor } from "~/services/users.server";
import { COURSE_REQUIRED } from "~/schemas/enquiry";
import { loader as meLoader, action as meAction } from "~/routes/_site.me";
import { loader as meDataLoader } from "~/routes/me.data[.]json";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";
import type { ReceivedMail } from "../helpers/smtp-sink";
import { callRoute } from "./public-helpers";

/**
 * Issue 36, items 3 and 9, as a visitor or an abuser meets them: an enquiry names a course of the catalogue, never
 * free words the institute's e-mails would carry to any address; mail to a typed address is limited per address;
 * a minor's held record shows editors and the Outbox nothing of the minor; a /me link is exchanged for a cookie
 * scoped to /me, so the token leaves the address bar.
 */
const { smtp } = await startOutboxReceivers();

useTestDatabase();

const visitor = { user: null, ip: "203.0.113.77" };
let admin: StaffActor;
let editor: StaffActor;
let course = "";
let n = 0;
const lead = (over: Record<string, unknown> = {}) => {
  n++;
  return {
    fullName: `Round Five${n}`,
    email: `round.five${n}@example.com`,
    phone: `97${String(30_000_000 + n)}`,
    preferredCourse: course,
    preferredMode: "online",
    ...over,
  };
};

beforeAll(async () => {
  const a = await createUserWithoutActor({ name: "Anu Admin", email: "anu.admin@staff.test", password: "long-enough-password", role: "admin" });
  const e = await createUserWithoutActor({ name: "Eshan Editor", email: "eshan.editor@staff.test", password: "long-enough-password", role: "editor" });
  admin = { user: { id: a.id, name: a.name, email: a.email, role: a.role }, ip: "127.0.0.1", requestId: "t" };
  editor = { user: { id: e.id, name: e.name, email: e.email, role: e.role }, ip: "127.0.0.1", requestId: "t" };
  course = (await insertCourse({ title: "Threat Hunting Bootcamp", category: "advanced", description: "Hunt" })).title;
});

const tokenIn = (mail: ReceivedMail, path: string) =>
  new URL(new RegExp(`https://academy\\.example/${path.replace("/", "\\/")}\\?token=[\\w%-]+`).exec(mail.parsed.text ?? "")![0]).searchParams.get("token")!;

describe("an enquiry's course", () => {
  it("is one of the catalogue's titles (any case, stored as the catalogue spells it) or a fallback title; free words are refused", async () => {
    for (const words of ["Click http://evil.example to claim your refund", "Threat Hunting Bootcamp 2", ""]) {
      await expect(submitEnquiry(visitor, lead({ preferredCourse: words }), { channel: "api" })).rejects.toSatisfy(
        (e) => isServiceError(e, "invalid") && e.fields.preferredCourse === COURSE_REQUIRED,
      );
    }
    const typed = await submitEnquiry(visitor, lead({ preferredCourse: "threat hunting BOOTCAMP" }), { channel: "api" });
    expect(typed.preferredCourse).toBe("Threat Hunting Bootcamp");
    const fallback = await submitEnquiry(visitor, lead({ preferredCourse: "Cloud Security Practitioner" }), { channel: "home" });
    expect(fallback.preferredCourse).toBe("Cloud Security Practitioner");
  });

  it("is refused together with the other fields' mistakes", async () => {
    await expect(submitEnquiry(visitor, lead({ preferredCourse: "Anything at all", phone: "12" }), { channel: "home" })).rejects.toSatisfy(
      (e) => isServiceError(e, "invalid") && e.fields.preferredCourse === COURSE_REQUIRED && Boolean(e.fields.phone),
    );
  });
});

describe("mail to an address someone typed", () => {
  it(`sends at most ${MAILS_PER_TYPED_ADDRESS_PER_DAY} acknowledgements a day to one address; the enquiries and staff alerts all go`, async () => {
    const target = "victim.inbox@example.com";
    const made = [];
    for (let i = 0; i < MAILS_PER_TYPED_ADDRESS_PER_DAY + 2; i++) made.push(await submitEnquiry(visitor, lead({ email: target }), { channel: "home" }));
    await submitContactQuery(visitor, { name: "Also Me", email: target, message: "Hello" });
    const rows = await db()
      .selectFrom("outbox")
      .select(["template", "status", "lastError", "entityId"])
      .where("recipient", "=", target)
      .orderBy("id")
      .execute();
    expect(rows).toHaveLength(made.length + 1);
    expect(rows.filter((r) => r.status !== "failed")).toHaveLength(MAILS_PER_TYPED_ADDRESS_PER_DAY);
    expect(rows.slice(MAILS_PER_TYPED_ADDRESS_PER_DAY).every((r) => r.status === "failed" && r.lastError === TOO_MANY_TO_ADDRESS)).toBe(true);
    // Every enquiry is stored and alerted.
    const alerts = await db()
      .selectFrom("outbox")
      .select("entityId")
      .where("template", "=", "enquiry-alert")
      .where(
        "entityId",
        "in",
        made.map((e) => e.id),
      )
      .execute();
    expect(alerts).toHaveLength(made.length);
    await drainOutbox();
    expect(smtp.received.filter((m) => m.envelope.to.includes(target))).toHaveLength(MAILS_PER_TYPED_ADDRESS_PER_DAY);
  });

  it("counts one inbox however its address is spelt (case, a +tag, Gmail's dots)", async () => {
    for (const email of ["Ra.Vi.Kiran+one@gmail.com", "ravikiran+two@googlemail.com", "RAVIKIRAN@gmail.com", "r.a.v.i.kiran@gmail.com"])
      await submitEnquiry(visitor, lead({ email }), { channel: "home" });
    const rows = await db()
      .selectFrom("outbox")
      .select(["recipient", "lastError"])
      .where("template", "=", "enquiry-ack")
      .orderBy("id", "desc")
      .limit(4)
      .execute();
    expect(rows.map((r) => r.lastError)).toEqual([TOO_MANY_TO_ADDRESS, null, null, null]);
  });

  it("limits a guardian's consent requests the same way", async () => {
    const guardian = "someone.else@example.com";
    for (let i = 0; i < MAILS_PER_TYPED_ADDRESS_PER_DAY + 1; i++)
      await submitEnquiry(visitor, lead({ under18: true, guardianName: "Some One", guardianEmail: guardian }), { channel: "home" });
    const rows = await db().selectFrom("outbox").select(["status", "lastError"]).where("recipient", "=", guardian).orderBy("id").execute();
    expect(rows.map((r) => r.lastError)).toEqual([...Array(MAILS_PER_TYPED_ADDRESS_PER_DAY).fill(null), TOO_MANY_TO_ADDRESS]);
  });
});

describe("words a visitor typed", () => {
  it("never reach an address the visitor typed (a contact message's subject, as the enquiry's course before)", async () => {
    const words = "Your fee refund is ready: claim it at refund-portal.example within 24 hours";
    await submitContactQuery(visitor, { name: "Accounts Desk", email: "victim@example.org", subject: words, message: "Hello there, please see the subject." });
    await submitContactQuery(visitor, {
      name: "Accounts Desk",
      email: "someone@example.org",
      subject: words,
      message: "Hello there, please see the subject.",
      under18: "on",
      guardianName: "Parent",
      guardianEmail: "guardian-victim@example.org",
    });
    await drainOutbox();
    const toVictims = smtp.received.filter((m) => m.envelope.to.some((to) => to === "victim@example.org" || to === "guardian-victim@example.org"));
    expect(toVictims.length).toBe(2);
    for (const mail of toVictims) expect(`${mail.parsed.subject}${mail.parsed.text}${mail.parsed.html}`).not.toContain("refund-portal.example");
  });
});

describe("a minor's record waiting for a guardian", () => {
  it("shows editors on /admin/privacy and the Outbox nothing of the minor until consent; then it shows", async () => {
    const minor = lead({ fullName: "Chinmay Minor", under18: true, guardianName: "Chitra Guardian", guardianEmail: "chitra.guardian@example.com" });
    const held = await submitEnquiry(visitor, minor, { channel: "home" });

    const editorView = await findPerson("chitra.guardian@example.com", editor);
    expect(editorView.map((r) => (r.type === "enquiry" ? [r.record.fullName, r.record.preferredCourse] : []))).toEqual([
      [HELD_NAME, expect.stringContaining("hidden")],
    ]);
    expect(JSON.stringify(editorView)).not.toContain("Chinmay");
    const adminView = await findPerson("chitra.guardian@example.com", admin);
    expect(adminView[0].type === "enquiry" && adminView[0].record.fullName).toBe("Chinmay Minor");

    const outbox = await listOutbox(admin, { limit: 100 });
    const aboutMinor = outbox.data.filter((m) => m.entityId === held.id);
    expect(aboutMinor.length).toBeGreaterThan(0);
    for (const m of aboutMinor) expect([m.subject, m.recipient]).toEqual([HELD_MESSAGE_SUBJECT, HELD_MESSAGE_RECIPIENT]);
    expect(JSON.stringify(outbox.data)).not.toContain("Chinmay");

    await drainOutbox();
    const consentMail = smtp.received.find((m) => m.envelope.to.includes("chitra.guardian@example.com"))!;
    await answerGuardian(visitor, tokenIn(consentMail, "guardian/consent"), true);
    const after = await listOutbox(admin, { limit: 100 });
    expect(after.data.filter((m) => m.entityId === held.id).some((m) => m.subject.includes("Chinmay"))).toBe(true);
  });
});

describe("the /me link", () => {
  it("is exchanged for a cookie scoped to /me and a clean address; the cookie opens the page, the download and the forms", async () => {
    const me = lead();
    await submitEnquiry(visitor, me, { channel: "enquiry-page" });
    await drainOutbox();
    const ack = smtp.received.find((m) => m.envelope.to.includes(me.email as string) && /received your enquiry/.test(m.parsed.subject ?? ""))!;
    const token = tokenIn(ack, "me");

    const opened = await callRoute(meLoader, new Request(`http://localhost/me?token=${token}`));
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe("/me");
    const setCookie = opened.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^me_access=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Path=\/me(;|$)/);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=3600/);
    expect(setCookie).not.toContain(token);
    const cookie = setCookie.split(";")[0];

    const page = await callRoute(meLoader, new Request("http://localhost/me", { headers: { Cookie: cookie } }));
    expect(page.body.view).toMatchObject({ state: "ok", email: me.email });
    // Without the cookie: the "Where is my enquiry?" form, nobody's data.
    expect((await callRoute(meLoader, new Request("http://localhost/me"))).body.view).toEqual({ state: "none" });
    const data = await callRoute(meDataLoader, new Request("http://localhost/me/data.json", { headers: { Cookie: cookie } }));
    expect(data.body.email).toBe(me.email);
    expect((await callRoute(meDataLoader, new Request("http://localhost/me/data.json"))).status).toBe(404);
    // A forged cookie (the link's id without the signature) opens nothing.
    const forged = `me_access=${Buffer.from(JSON.stringify({ link: "x", until: Date.now() + 1e6 })).toString("base64")}`;
    expect((await callRoute(meLoader, new Request("http://localhost/me", { headers: { Cookie: forged } }))).body.view).toEqual({ state: "none" });

    const form = new URLSearchParams({ intent: "marketing", marketing: "withdraw" });
    const withdrawn = await callRoute(meAction, new Request("http://localhost/me", { method: "POST", body: form, headers: { Cookie: cookie } }));
    expect(withdrawn.status).toBe(200);
    const refused = await callRoute(
      meAction,
      new Request("http://localhost/me", { method: "POST", body: new URLSearchParams({ intent: "marketing", marketing: "withdraw" }) }),
    );
    expect(refused.status).toBe(400);

    const erased = await callRoute(
      meAction,
      new Request("http://localhost/me", { method: "POST", body: new URLSearchParams({ intent: "erase", confirm: "on" }), headers: { Cookie: cookie } }),
    );
    expect(erased.body.erased).toBe(1);
    expect(erased.headers.get("Set-Cookie")).toMatch(/me_access=;.*Max-Age=0/);
    expect((await callRoute(meLoader, new Request("http://localhost/me", { headers: { Cookie: cookie } }))).body.view).toEqual({ state: "invalid" });
  });
});
