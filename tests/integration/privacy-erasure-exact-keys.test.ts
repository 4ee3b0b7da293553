import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { insertCourse } from "~/models/course.server";
import type { StaffActor } from "~/services/actor";
import { signIn } from "~/services/auth.server";
import { addEnquiryNote } from "~/services/enquiries.server";
import { getEnquiryRecord } from "~/services/enquiry-lists.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { answerGuardian } from "~/services/guardian-consent.server";
import { erasePerson } from "~/services/privacy-erasure.server";
import { eraseMe, exportMyData } from "~/services/privacy-me.server";
import { createMeLink } from "~/infra/privacy-mail.server";
import { createUserWithoutActor } from "~/services/users.server";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";
import type { ReceivedMail } from "../helpers/smtp-sink";

/**
 * Erasure touches only its person (issue 36, item 2). The reviewer's attack: an anonymous under-18 enquiry whose
 * e-mail is a piece of the admin's address, whose phone is another lead's and whose name is common words, refused
 * by its "guardian", turned the audit line "Sign-in with admin@… failed" into "[erased]-in with admi[erased]
 * [erased]", scrubbed every outbox row to the admin and another lead's staff note. Rows are now found by the
 * person's records' ids and by exact keys only, other people's rows keep everything but the exact whole-token
 * occurrences of a verified address (and of a phone number no one else has), and an unverified record erases only
 * the rows it created.
 */
const { smtp } = await startOutboxReceivers({ env: { NOTIFY_EMAIL: "admin@institute.test" } });

useTestDatabase();

const visitor = { user: null, ip: "203.0.113.50" };
let staff: StaffActor;
let course = "";

beforeAll(async () => {
  const admin = await createUserWithoutActor({ name: "Asha Admin", email: "admin@institute.test", password: "long-enough-password", role: "admin" });
  staff = { user: { id: admin.id, name: admin.name, email: admin.email, role: admin.role }, ip: "127.0.0.1", requestId: "test" };
  course = (await insertCourse({ title: "Exact Keys Course", category: "beginner", description: "Erasure by exact keys" })).title;
});

const lead = (fullName: string, email: string, phone: string) => ({ fullName, email, phone, preferredCourse: course, preferredMode: "online" as const });

/** Every row of the tables an erasure may write, as text, to compare before and after. */
async function snapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of ["audit_log", "outbox", "timeline_entries", "enquiries", "contact_queries", "rate_limits"] as const) {
    const rows = await db().selectFrom(table).selectAll().execute();
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

const tokenIn = (mail: ReceivedMail, path: string) =>
  new URL(new RegExp(`https://academy\\.example/${path.replace("/", "\\/")}\\?token=[\\w%-]+`).exec(mail.parsed.text ?? "")![0]).searchParams.get("token")!;

describe("a minor's record refused by its guardian", () => {
  it("erases only the rows it created: a substring of the admin's address, another lead's phone and common-word names touch nobody", async () => {
    // What was there before: a failed sign-in with the admin's address, another lead with a staff note, mail to the admin.
    await signIn({ email: "admin@institute.test", password: "wrong-password-1" }, visitor).catch(() => undefined);
    const lakshmi = await submitEnquiry(visitor, lead("Lakshmi Narayanan", "lakshmi.n@example.org", "90000 11111"), { channel: "home" });
    await addEnquiryNote(staff, lakshmi.id, { text: "Sign in failed on the portal; call 90000 11111 and mail min@institute.test after 6" });
    await drainOutbox();
    const before = await snapshot();
    expect(before.audit_log.some((r) => r.includes("Sign-in with admin@institute.test failed"))).toBe(true);

    // The attack: e-mail "min@institute.test" (a piece of "admin@institute.test"), Lakshmi's phone, a name of common words.
    const minor = await submitEnquiry(
      visitor,
      { ...lead("Sign In Failed", "min@institute.test", "90000 11111"), under18: true, guardianName: "Admin Call", guardianEmail: "guardian@evil.test" },
      { channel: "home" },
    );
    await drainOutbox();
    const consentMail = smtp.received.find((m) => m.envelope.to.includes("guardian@evil.test"));
    expect(consentMail).toBeDefined();
    const made = await snapshot();
    expect(await answerGuardian(visitor, tokenIn(consentMail!, "guardian/consent"), false)).toMatchObject({ state: "refused" });
    const after = await snapshot();

    // The minor's record is erased.
    const row = await db().selectFrom("enquiries").select(["privacyState", "fullName", "email", "phone"]).where("id", "=", minor.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ privacyState: "erased", fullName: "", email: "", phone: "" });
    // Nothing that existed before the minor's record changed: the audit log, the outbox, Lakshmi's record and note.
    for (const table of Object.keys(before)) {
      const changed = before[table].filter((r) => !after[table].includes(r));
      expect(changed, `${table} rows from before the attack were rewritten`).toEqual([]);
    }
    expect(after.audit_log.some((r) => r.includes("Sign-in with admin@institute.test failed"))).toBe(true);
    expect((await getEnquiryRecord(lakshmi.id)).phone).toBe("9000011111");
    const note = await db()
      .selectFrom("timeline_entries")
      .select("text")
      .where("subjectId", "=", lakshmi.id)
      .where("kind", "=", "note")
      .executeTakeFirstOrThrow();
    expect(note.text).toBe("Sign in failed on the portal; call 90000 11111 and mail min@institute.test after 6");
    // Of the rows the minor's record created, none still names it.
    const created =
      made.outbox.filter((r) => !before.outbox.includes(r)).length + made.timeline_entries.filter((r) => !before.timeline_entries.includes(r)).length;
    expect(created).toBeGreaterThan(0);
    for (const table of ["outbox", "timeline_entries", "audit_log"]) {
      const own = after[table].filter((r) => !before[table].includes(r));
      for (const r of own) expect(r).not.toMatch(/guardian@evil\.test|"min@institute\.test"|Sign In Failed/);
    }
  });
});

describe("a person erased on their request (verified address)", () => {
  it("takes their exact address and their own phone out of other leads' notes, and nothing else", async () => {
    const person = await submitEnquiry(visitor, lead("Will Hope", "will.hope@example.org", "91234 56780"), { channel: "enquiry-page" });
    // Another person shares a phone number with them: that number is not theirs alone.
    const shared = await submitEnquiry(visitor, lead("Will Hope", "will.hope@example.org", "99887 76655"), { channel: "home" });
    const sibling = await submitEnquiry(visitor, lead("Rekha Sibling", "rekha.sibling@example.org", "99887 76655"), { channel: "home" });
    const other = await submitEnquiry(visitor, lead("Farhan Other", "farhan.other@example.org", "97777 00000"), { channel: "home" });
    const notes = [
      "Referred by will.hope@example.org, phone +91 91234-56780",
      "Not the same as xwill.hope@example.org or will.hope@example.org.in",
      "Will call back; hope to enrol. Family number 99887 76655",
    ];
    for (const text of notes) await addEnquiryNote(staff, other.id, { text });
    await addEnquiryNote(staff, sibling.id, { text: "Sibling of will.hope@example.org" });
    await signIn({ email: "will.hope@example.org", password: "not-a-staff-password" }, visitor).catch(() => undefined);
    await drainOutbox();
    const auditBefore = (
      await db()
        .selectFrom("audit_log")
        .select(["id", "summary"])
        .where((eb) => eb.or([eb("entityId", "is", null), eb("entityId", "<>", person.id)]))
        .execute()
    ).filter((r) => r.summary.includes("will.hope@example.org"));

    const result = await erasePerson(staff, { email: "will.hope@example.org" });
    expect(result.enquiries.sort()).toEqual([person.id, shared.id].sort());

    const otherNotes = await db()
      .selectFrom("timeline_entries")
      .select("text")
      .where("subjectId", "=", other.id)
      .where("kind", "=", "note")
      .orderBy("id")
      .execute();
    expect(otherNotes.map((n) => n.text)).toEqual([
      "Referred by [erased], phone [erased]",
      "Not the same as xwill.hope@example.org or will.hope@example.org.in",
      // A common-word name stays, and so does a number another person's record has.
      "Will call back; hope to enrol. Family number 99887 76655",
    ]);
    const siblingNote = await db()
      .selectFrom("timeline_entries")
      .select("text")
      .where("subjectId", "=", sibling.id)
      .where("kind", "=", "note")
      .executeTakeFirstOrThrow();
    expect(siblingNote.text).toBe("Sibling of [erased]");
    expect((await getEnquiryRecord(sibling.id)).phone).toBe("9988776655");
    // Audit entries about anything but their records are never rewritten, the failed sign-in with their address included.
    for (const entry of auditBefore) {
      const now = await db().selectFrom("audit_log").select("summary").where("id", "=", entry.id).executeTakeFirstOrThrow();
      expect(now.summary).toBe(entry.summary);
    }
    // The rows that found their mentions no longer hold them.
    const mentions = await db()
      .selectFrom("contact_mentions")
      .select("mention")
      .where("mention", "in", ["email:will.hope@example.org", "phone:9123456780"])
      .execute();
    expect(mentions).toEqual([]);
  });
});

describe("phone numbers written next to a date or to another number (red team on issue 36)", () => {
  it("takes the person's number out of another lead's notes wherever it is written, and nothing around it", async () => {
    const person = await submitEnquiry(visitor, lead("Kiran Dates", "kiran.dates@example.org", "91230 45678"), { channel: "home" });
    const other = await submitEnquiry(visitor, lead("Meena Other", "meena.other@example.org", "97777 12121"), { channel: "home" });
    // Read whole, each of these runs was no number at all ("05-06-2025 9123045678" has 18 digits): the erasure left them.
    const notes = ["Called 05-06-2025 9123045678, no answer", "Numbers 9123045678 9000000001 (office)", "Family: +91 91230 45678 / 97777 12121"];
    for (const text of notes) await addEnquiryNote(staff, other.id, { text });
    await erasePerson(staff, { email: "kiran.dates@example.org" });
    expect(person.id).toBeTruthy();
    const after = await db().selectFrom("timeline_entries").select("text").where("subjectId", "=", other.id).where("kind", "=", "note").orderBy("id").execute();
    expect(after.map((n) => n.text)).toEqual([
      "Called 05-06-2025 [erased], no answer",
      "Numbers [erased] 9000000001 (office)",
      "Family: [erased] / 97777 12121",
    ]);
  });
});

describe("contact details the database's collation counts as one (MariaDB)", () => {
  it("saves a note and an enquiry naming an address with and without an accent, and a pasted link longer than any address", async () => {
    // MariaDB's utf8mb4_general_ci takes "josé@…" and "jose@…" as equal: the second key of the line broke the primary
    // key and the note failed to save; so did the enquiry of a visitor whose campaign link carried both as tags.
    const sender = await submitEnquiry(visitor, lead("Jose Tags", "jose.tags@example.org", "93333 22222"), {
      channel: "api",
      source: { utmSource: "josé@example.org", utmMedium: "email", utmCampaign: "jose@example.org", referrer: null },
    });
    await addEnquiryNote(staff, sender.id, { text: "Wrote to josé@example.org and to JOSE@example.org" });
    // An e-mail-shaped token longer than an address may be (a pasted link): "Data too long" on MariaDB before.
    await addEnquiryNote(staff, sender.id, { text: `Profile: https://medium.com/@jose/${"a-long-article-title-".repeat(20)}.html` });
    // The exact address goes from the lines; its accented look-alike stays.
    const other = await submitEnquiry(visitor, lead("Jose Plain", "jose@example.org", "93333 44444"), { channel: "home" });
    await erasePerson(staff, { email: "jose@example.org" });
    expect(other.id).toBeTruthy();
    const lines = await db().selectFrom("timeline_entries").select("text").where("subjectId", "=", sender.id).orderBy("id").execute();
    expect(lines.map((l) => l.text)).toContain("Wrote to josé@example.org and to [erased]");
  });
});

describe("the person's own copy of their data (red team on issue 36)", () => {
  it("names an e-mail's recipient only when it is exactly their address, not an address that contains it", async () => {
    // "min@institute.test" is a piece of the admin's "admin@institute.test", to whom every new enquiry is alerted.
    const mine = await submitEnquiry(visitor, lead("Mini Substring", "min@institute.test", "95555 66666"), { channel: "home" });
    const { url } = await createMeLink("enquiry", mine.id, "min@institute.test");
    const exported = await exportMyData(visitor, { token: new URL(url).searchParams.get("token")! });
    const emails = exported.emails as { recipient: string }[];
    const recipients = emails.map((e) => e.recipient);
    expect(recipients).toContain("min@institute.test");
    expect(recipients).toContain("(the institute's staff or systems)");
    expect(recipients).not.toContain("admin@institute.test");
  });
});

describe("a person erasing from their own page", () => {
  it("takes their verified address out of other leads' notes, never a phone number they typed", async () => {
    // A father's number written only in a staff note on his daughter's enquiry: no record has it as its phone.
    const daughter = await submitEnquiry(visitor, lead("Priya Daughter", "priya.d@example.org", "97777 33333"), { channel: "home" });
    await addEnquiryNote(staff, daughter.id, { text: "Father will pay; call him on 98888 77777 after 6, copy stranger@evil.test" });
    // Anyone may type that number on an enquiry from an address they own, open its link and erase "their" data.
    const stranger = await submitEnquiry(visitor, lead("Some Stranger", "stranger@evil.test", "98888 77777"), { channel: "home" });
    const { url } = await createMeLink("enquiry", stranger.id, "stranger@evil.test");
    await eraseMe(visitor, { token: new URL(url).searchParams.get("token")! }, { confirm: "on" });
    const note = await db()
      .selectFrom("timeline_entries")
      .select("text")
      .where("subjectId", "=", daughter.id)
      .where("kind", "=", "note")
      .executeTakeFirstOrThrow();
    expect(note.text).toBe("Father will pay; call him on 98888 77777 after 6, copy [erased]");
  });
});
