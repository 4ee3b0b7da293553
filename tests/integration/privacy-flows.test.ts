import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { PRIVACY_NOTICE_VERSION } from "~/config/privacy-notice";
import { insertEnquiry } from "~/models/enquiry.server";
import { insertContactQuery } from "~/models/contact-query.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import type { StaffActor } from "~/services/actor";
import { submitContactQuery } from "~/services/contact-queries.server";
import { enquiryTimeline, updateEnquiry } from "~/services/enquiries.server";
import { getEnquiryRecord, listEnquiries } from "~/services/enquiry-lists.server";
import { enquiryAsSeenBy, submitEnquiry } from "~/services/enquiry-submissions.server";
import { answerGuardian, viewGuardianRequest } from "~/services/guardian-consent.server";
import { correctMyDetails, eraseMe, exportMyData, requestMeLink, setMyMarketing, viewMe } from "~/services/privacy-me.server";
import { monthsBefore, runPrivacyJob } from "~/services/privacy-retention.server";
import { breachList } from "~/services/privacy-breach.server";
import { eraseAgain, erasedSince, erasePerson } from "~/services/privacy-erasure.server";
import { createUserWithoutActor } from "~/services/users.server";
import { GUARDIAN_EMAIL_SAME, GUARDIAN_NAME_REQUIRED } from "~/schemas/privacy";
import { isServiceError } from "~/services/service-error";
import { timelineLines } from "~/web/timeline-lines";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";
import type { ReceivedMail } from "../helpers/smtp-sink";

/**
 * The privacy flows at the service layer, on a real database and a real SMTP server: consent rows per submission,
 * the /me link read from the e-mail and what it opens (exactly that person; not with another, a tampered or an
 * expired token), the person's own actions, a minor's enquiry held until the guardian's link is followed, and the
 * retention job erasing each old record once even when two runs overlap.
 */
const { smtp, hooks } = await startOutboxReceivers({ env: { RETENTION_MONTHS: "24", RETENTION_ENROLLED_MONTHS: "60" } });

useTestDatabase();

const visitor = { user: null, ip: "203.0.113.10" };
let staff: StaffActor;
let n = 0;
const lead = (over: Record<string, unknown> = {}) => {
  n++;
  return {
    fullName: `Asha Privacy${n}`,
    email: `asha.privacy${n}@example.com`,
    phone: `98${String(20_000_000 + n)}`,
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
    ...over,
  };
};
const tokenIn = (mail: ReceivedMail, path: "me" | "guardian/consent") =>
  new URL(new RegExp(`https://academy\\.example/${path.replace("/", "\\/")}\\?token=[\\w%-]+`).exec(mail.parsed.text ?? "")![0]).searchParams.get("token")!;

beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Ravi Staff", email: "ravi.staff@staff.test", password: "long-enough-password", role: "admin" });
  staff = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
});

beforeEach(() => {
  smtp.received.length = 0;
  hooks.received.length = 0;
});

describe("consent, recorded", () => {
  it("records the notice version shown with every submission; marketing only when ticked; both in the API record and timeline", async () => {
    const plain = await submitEnquiry(visitor, { ...lead(), noticeVersion: PRIVACY_NOTICE_VERSION }, { channel: "enquiry-page" });
    expect(plain.marketingConsent).toBe(false);
    expect(plain.consents.map((c) => [c.purpose, c.action, c.channel, c.noticeVersion])).toEqual([["notice", "given", "enquiry-page", PRIVACY_NOTICE_VERSION]]);
    const keen = await submitEnquiry(visitor, { ...lead(), marketingConsent: "on" }, { channel: "home" });
    expect((await getEnquiryRecord(keen.id)).consents.map((c) => `${c.purpose}:${c.action}:${c.channel}`)).toEqual([
      "notice:given:home",
      "marketing:given:home",
    ]);
    // An unknown version sent (a forged or stale field) is recorded as the current one.
    const api = await submitEnquiry(visitor, { ...lead(), noticeVersion: "1999-01-01" }, { channel: "api" });
    expect(api.noticeVersion).toBe(PRIVACY_NOTICE_VERSION);
    // An anonymous caller's receipt stays what it was: the record's own fields as sent, no consents or pipeline.
    expect(enquiryAsSeenBy(visitor, api)).not.toHaveProperty("consents");
    const lines = (await enquiryTimeline(keen.id)).filter((l) => l.kind === "consent");
    expect(lines.map((l) => l.text).sort()).toEqual([
      `Marketing messages: consent given (home page form, notice ${PRIVACY_NOTICE_VERSION})`,
      `Privacy notice version ${PRIVACY_NOTICE_VERSION} shown with the home page form`,
    ]);
    // Staff read them on the enquiry's screen.
    expect(timelineLines(await enquiryTimeline(keen.id)).map((l) => l.what)).toContain(
      `Privacy: Privacy notice version ${PRIVACY_NOTICE_VERSION} shown with the home page form`,
    );
    const message = await submitContactQuery(visitor, { name: "Chand", email: "chand@example.com", message: "Hi" }, { channel: "contact-page" });
    const rows = await db().selectFrom("consents").selectAll().where("subjectId", "=", message.id).execute();
    expect(rows.map((r) => `${r.purpose}:${r.channel}:${r.noticeVersion}`)).toEqual([`notice:contact-page:${PRIVACY_NOTICE_VERSION}`]);
  });
});

describe("a person's own page", () => {
  it("is opened by the link read at the SMTP server, shows exactly that person, and refuses other, tampered and expired tokens", async () => {
    const mine = lead();
    const first = await submitEnquiry(visitor, mine, { channel: "enquiry-page" });
    await submitContactQuery(visitor, { name: mine.fullName, email: mine.email, message: "A question" });
    const someone = await submitEnquiry(visitor, lead(), { channel: "api" });
    await drainOutbox();
    // The acknowledgement carries the link.
    const ack = smtp.received.find((m) => m.envelope.to.includes(mine.email) && /received your enquiry/.test(m.parsed.subject ?? ""))!;
    const token = tokenIn(ack, "me");
    const view = await viewMe(visitor, { token: token });
    if (view.state !== "ok") throw new Error(view.state);
    expect(view.email).toBe(mine.email);
    expect(view.enquiries.map((e) => e.id)).toEqual([first.id]);
    expect(view.messages).toHaveLength(1);

    // "Where is my enquiry?": the same answer for any address; a link only to one on file.
    await requestMeLink(visitor, { email: "nobody@example.com" });
    await requestMeLink(visitor, { email: mine.email.toUpperCase() });
    await drainOutbox();
    const asked = smtp.received.filter((m) => /your link/.test(m.parsed.subject ?? ""));
    expect(asked.map((m) => m.envelope.to)).toEqual([[mine.email]]);
    const fresh = tokenIn(asked[0], "me");
    expect((await viewMe(visitor, { token: fresh })).state).toBe("ok");

    const other = smtp.received.find((m) => m.envelope.to.includes(someone.email) && /received your enquiry/.test(m.parsed.subject ?? ""))!;
    const theirs = await viewMe(visitor, { token: tokenIn(other, "me") });
    expect(theirs.state === "ok" && theirs.enquiries.map((e) => e.id)).toEqual([someone.id]);
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect((await viewMe(visitor, { token: tampered })).state).toBe("invalid");
    expect((await viewMe(visitor, { token: "" })).state).toBe("invalid");
    await db()
      .updateTable("privacy_links")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await viewMe(visitor, { token: token })).state).toBe("expired");
    await expect(exportMyData(visitor, { token: token })).rejects.toSatisfy((e) => isServiceError(e, "invalid"));
  });

  it("opens only the address its link was mailed to: staff changing the record's e-mail end its links, and a link for a changed address opens nothing", async () => {
    const mine = lead();
    const enquiry = await submitEnquiry(visitor, mine, { channel: "enquiry-page" });
    const newcomer = lead();
    // Someone else already enquired with the address staff will put on the record.
    const theirs = await submitEnquiry(visitor, { ...newcomer, preferredMode: "offline" }, { channel: "home" });
    await drainOutbox();
    const ack = smtp.received.find((m) => m.envelope.to.includes(mine.email) && /received your enquiry/.test(m.parsed.subject ?? ""))!;
    const token = tokenIn(ack, "me");
    expect((await viewMe(visitor, { token: token })).state).toBe("ok");

    const stored = await getEnquiryRecord(enquiry.id);
    await updateEnquiry(staff, enquiry.id, { ...mine, email: newcomer.email, version: stored.version });
    // The old link neither follows the new address (the other person's records) nor opens anything.
    expect((await viewMe(visitor, { token: token })).state).toBe("invalid");
    await expect(exportMyData(visitor, { token: token })).rejects.toSatisfy((e) => isServiceError(e, "invalid"));
    await expect(eraseMe(visitor, { token: token }, { confirm: "on" })).rejects.toSatisfy((e) => isServiceError(e, "invalid"));
    expect((await getEnquiryRecord(theirs.id)).email).toBe(newcomer.email);

    // A link made for the old address (an e-mail queued before the change, sent after) opens nothing either.
    await db().updateTable("enquiries").set({ email: mine.email }).where("id", "=", enquiry.id).execute();
    await requestMeLink(visitor, { email: mine.email });
    await db().updateTable("enquiries").set({ email: newcomer.email }).where("id", "=", enquiry.id).execute();
    await drainOutbox();
    const late = smtp.received.filter((m) => m.envelope.to.includes(mine.email) && /your link/.test(m.parsed.subject ?? ""));
    expect(late).toHaveLength(1);
    expect((await viewMe(visitor, { token: tokenIn(late[0], "me") })).state).toBe("invalid");
  });

  it("withdraws marketing, corrects details, exports every row and erases, all on every record of the person", async () => {
    const mine = lead({ marketingConsent: true });
    const a = await submitEnquiry(visitor, mine, { channel: "api" });
    const b = await submitEnquiry(visitor, { ...mine, preferredMode: "offline" }, { channel: "home" });
    await drainOutbox();
    const token = tokenIn(
      smtp.received.find((m) => m.envelope.to.includes(mine.email))!,
      "me",
    );

    expect(await setMyMarketing(visitor, { token: token }, false)).toBe(2);
    for (const id of [a.id, b.id]) {
      const record = await getEnquiryRecord(id);
      expect(record.marketingConsent).toBe(false);
      expect(record.consents.at(-1)).toMatchObject({ purpose: "marketing", action: "withdrawn", channel: "me" });
    }
    await expect(correctMyDetails(visitor, { token: token }, { phone: "12" })).rejects.toSatisfy((e) => isServiceError(e, "invalid"));
    await correctMyDetails(visitor, { token: token }, { name: "Asha Corrected", phone: "+91 90000 12345" });
    expect((await getEnquiryRecord(a.id)).fullName).toBe("Asha Corrected");
    expect((await getEnquiryRecord(b.id)).phone).toBe("9000012345");

    const data = (await exportMyData(visitor, { token: token })) as {
      email: string;
      enquiries: { fullName: string; consents: unknown[]; timeline: unknown[] }[];
      emails: unknown[];
    };
    expect(data.email).toBe(mine.email);
    // Both enquiries, named as the person knows them (the copy carries no internal ids: issue 37.10).
    expect(data.enquiries.map((e) => e.fullName)).toEqual(["Asha Corrected", "Asha Corrected"]);
    expect(data.enquiries.every((e) => e.consents.length >= 2 && e.timeline.length >= 2)).toBe(true);
    expect(data.emails.length).toBeGreaterThan(0);

    await expect(eraseMe(visitor, { token: token }, {})).rejects.toSatisfy((e) => isServiceError(e, "invalid"));
    const erased = await eraseMe(visitor, { token: token }, { confirm: "on" });
    expect(erased.enquiries.sort()).toEqual([a.id, b.id].sort());
    expect((await viewMe(visitor, { token: token })).state).toBe("invalid");
    const audit = await db().selectFrom("audit_log").select(["userName", "summary"]).where("action", "=", "erase").execute();
    expect(audit.at(-1)?.userName).toBe("The person (own page)");
    expect(audit.at(-1)?.summary).not.toContain(mine.email);
  });
});

describe("someone under 18", () => {
  it("is asked for a guardian, is held from staff, alerts and webhooks until the guardian's link is followed", async () => {
    const minor = lead();
    await expect(submitEnquiry(visitor, { ...minor, under18: "on" }, { channel: "home" })).rejects.toSatisfy(
      (e) => isServiceError(e, "invalid") && e.fields.guardianName === GUARDIAN_NAME_REQUIRED,
    );
    await expect(
      submitEnquiry(visitor, { ...minor, under18: "on", guardianName: "Parent", guardianEmail: minor.email }, { channel: "home" }),
    ).rejects.toSatisfy((e) => isServiceError(e, "invalid") && e.fields.guardianEmail === GUARDIAN_EMAIL_SAME);
    const held = await submitEnquiry(
      visitor,
      { ...minor, under18: "on", guardianName: "Lata Parent", guardianEmail: "lata.parent@example.com" },
      { channel: "home" },
    );
    await drainOutbox();
    expect((await listEnquiries(staff, { q: minor.email })).total).toBe(0);
    expect(smtp.received.map((m) => m.envelope.to[0])).toEqual(["lata.parent@example.com"]);
    expect(hooks.received).toHaveLength(0);

    const token = tokenIn(smtp.received[0], "guardian/consent");
    expect(await viewGuardianRequest(visitor, token)).toMatchObject({ state: "open", childName: minor.fullName, guardianName: "Lata Parent" });
    const answered = await answerGuardian(visitor, token, true);
    expect(answered).toMatchObject({ state: "consented", answeredNow: true });
    // A second click changes nothing and sends nothing twice.
    expect(await answerGuardian(visitor, token, true)).toMatchObject({ state: "consented" });
    await drainOutbox();
    expect((await listEnquiries(staff, { q: minor.email })).data.map((e) => e.id)).toEqual([held.id]);
    expect(smtp.received.map((m) => m.envelope.to[0]).sort()).toEqual(["desk@cybersoc.test", "lata.parent@example.com", minor.email].sort());
    await hooks.waitFor(() => true, 1);
    expect(hooks.received).toHaveLength(1);
    expect((await getEnquiryRecord(held.id)).consents.map((c) => c.purpose)).toEqual(["notice", "guardian"]);
  });

  it("is erased when the guardian refuses, or after 7 days without an answer", async () => {
    const refused = await submitContactQuery(visitor, {
      name: "Kid One",
      email: "kid.one@example.com",
      message: "Hi",
      under18: true,
      guardianName: "P",
      guardianEmail: "p.one@example.com",
    });
    await drainOutbox();
    const token = tokenIn(
      smtp.received.find((m) => m.envelope.to.includes("p.one@example.com"))!,
      "guardian/consent",
    );
    expect(await answerGuardian(visitor, token, false)).toMatchObject({ state: "refused" });
    const row = await db().selectFrom("contact_queries").select(["privacyState", "name", "email"]).where("id", "=", refused.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ privacyState: "erased", name: "", email: "" });

    const old = await submitEnquiry(visitor, { ...lead(), under18: true, guardianName: "Q", guardianEmail: "q.two@example.com" }, { channel: "api" });
    await db()
      .updateTable("enquiries")
      .set({ createdAt: new Date(Date.now() - 8 * 86_400_000).toISOString() })
      .where("id", "=", old.id)
      .execute();
    const counts = await runPrivacyJob();
    expect(counts.heldWithoutConsent).toBe(1);
    expect((await db().selectFrom("enquiries").select("privacyState").where("id", "=", old.id).executeTakeFirstOrThrow()).privacyState).toBe("erased");
  });
});

describe("the retention job", () => {
  it("erases records idle past RETENTION_MONTHS (enrolled ones past theirs) once, with one audit line per run that erased", async () => {
    await runPrivacyJob();
    const now = new Date();
    const long = monthsBefore(now, 25);
    const veryLong = monthsBefore(now, 61);
    const make = (createdAt: string, over: Record<string, unknown> = {}) =>
      insertEnquiry({ ...lead(), preferredMode: "online", ...over } as Parameters<typeof insertEnquiry>[0], { createdAt });
    const idle = await Promise.all([make(long), make(long), make(long)]);
    const touched = await make(long);
    await insertTimelineEntry("enquiry", touched.id, { userId: null, userName: "Staff", kind: "note", fromValue: null, toValue: null, text: "Still talking" });
    const enrolledRecent = await make(long);
    await db().updateTable("enquiries").set({ status: "enrolled" }).where("id", "=", enrolledRecent.id).execute();
    const enrolledOld = await make(veryLong);
    await db().updateTable("enquiries").set({ status: "enrolled" }).where("id", "in", [enrolledOld.id]).execute();
    const query = await insertContactQuery({ name: "Old Message", email: "old.message@example.com", message: "Years ago" }, { createdAt: long });
    // updatedAt follows createdAt on insert; the status changes above moved it to now: set them back.
    await db().updateTable("enquiries").set({ updatedAt: long }).where("id", "=", enrolledRecent.id).execute();
    await db().updateTable("enquiries").set({ updatedAt: veryLong }).where("id", "=", enrolledOld.id).execute();

    const before = new Set((await db().selectFrom("audit_log").select("id").where("action", "=", "erase").execute()).map((r) => r.id));
    // Two overlapping runs, as two instances would: each record is erased by exactly one of them.
    const [one, two] = await Promise.all([runPrivacyJob(now), runPrivacyJob(now)]);
    expect(one.enquiries + two.enquiries).toBe(3);
    expect(one.enrolledEnquiries + two.enrolledEnquiries).toBe(1);
    expect(one.contactQueries + two.contactQueries).toBe(1);
    const states = await db()
      .selectFrom("enquiries")
      .select(["id", "privacyState"])
      .where("id", "in", [...idle.map((e) => e.id), touched.id, enrolledRecent.id, enrolledOld.id])
      .execute();
    const state = Object.fromEntries(states.map((s) => [s.id, s.privacyState]));
    for (const e of idle) expect(state[e.id]).toBe("erased");
    expect(state[touched.id]).toBe("");
    expect(state[enrolledRecent.id]).toBe("");
    expect(state[enrolledOld.id]).toBe("erased");
    expect((await db().selectFrom("contact_queries").select("privacyState").where("id", "=", query.id).executeTakeFirstOrThrow()).privacyState).toBe("erased");
    const lines = (await db().selectFrom("audit_log").select(["id", "summary", "userName"]).where("action", "=", "erase").execute()).filter(
      (l) => !before.has(l.id),
    );
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(2);
    const total = lines.reduce((sum, l) => sum + Number(/erased (\d+) record/.exec(l.summary)?.[1] ?? 0), 0);
    expect(total).toBe(5);
    expect(lines.every((l) => l.userName === "Retention job")).toBe(true);
    // Nothing is left to do.
    expect(await runPrivacyJob(now)).toEqual({ enquiries: 0, enrolledEnquiries: 0, contactQueries: 0, heldWithoutConsent: 0, links: 0 });
  });
});

describe("the breach list", () => {
  it("names everyone whose data a window touched, by table, once per e-mail, guardians too, nobody erased", async () => {
    const from = new Date().toISOString();
    const a = lead();
    await submitEnquiry(visitor, a, { channel: "api" });
    await submitContactQuery(visitor, { name: a.fullName, email: a.email, message: "Also this" });
    await submitContactQuery(visitor, {
      name: "Young One",
      email: "young.one@example.com",
      message: "Hi",
      under18: true,
      guardianName: "Guard Ian",
      guardianEmail: "guard.ian@example.com",
    });
    const to = new Date(Date.now() + 1000).toISOString();
    const people = await breachList({ from, to });
    const mine = people.find((p) => p.email === a.email)!;
    expect(mine).toMatchObject({ name: a.fullName, phone: a.phone });
    expect(mine.tables).toEqual(expect.arrayContaining(["enquiries", "contact_queries"]));
    expect(mine.records).toHaveLength(2);
    expect(people.map((p) => p.email)).toEqual(expect.arrayContaining(["young.one@example.com", "guard.ian@example.com"]));
    expect((await breachList({ from, to, tables: ["outbox"] })).map((p) => p.email)).toContain(a.email);
    await expect(breachList({ from: "2026-02-30", to: "x" })).rejects.toSatisfy((e) => isServiceError(e, "invalid") && "from" in e.fields && "to" in e.fields);
    await expect(breachList({ from, to, tables: ["users"] })).rejects.toSatisfy((e) => isServiceError(e, "invalid") && "tables" in e.fields);
  });
});

describe("erasures and a restored backup", () => {
  it("lists the records erased on request since a moment, and erases them again once they come back", async () => {
    const since = new Date().toISOString();
    const a = lead();
    const e = await submitEnquiry(visitor, a, { channel: "api" });
    const q = await submitContactQuery(visitor, { name: a.fullName, email: a.email, message: "Bye" });
    await erasePerson(staff, { email: a.email });
    const ids = await erasedSince(since);
    expect(ids).toEqual({ enquiries: [e.id], contactQueries: [q.id], onRequest: [e.id, q.id] });
    // The backup taken before the erasure is restored: the person is back.
    await db().updateTable("enquiries").set({ privacyState: "", fullName: a.fullName, email: a.email }).where("id", "=", e.id).execute();
    await db().updateTable("contact_queries").set({ privacyState: "", name: a.fullName, email: a.email }).where("id", "=", q.id).execute();
    const again = await eraseAgain(ids);
    expect(again).toEqual({ enquiries: [e.id], contactQueries: [q.id], files: 0 });
    expect(await db().selectFrom("enquiries").select(["privacyState", "email"]).where("id", "=", e.id).executeTakeFirstOrThrow()).toEqual({
      privacyState: "erased",
      email: "",
    });
    expect(await eraseAgain(ids)).toEqual({ enquiries: [], contactQueries: [], files: 0 });
  });
});
