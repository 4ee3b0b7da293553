import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, inTransaction } from "~db/client.server";
import { insertCourse } from "~/models/course.server";
import { insertSchedule } from "~/models/schedule.server";
import { GUARDIAN_CONSENT_DAYS } from "~/config/privacy-notice";
import { offerToken } from "~/infra/waitlist-token.server";
import type { StaffActor } from "~/services/actor";
import { getEnquiryRecord, listEnquiries } from "~/services/enquiry-lists.server";
import { enquiryConfirmation, submitEnquiry } from "~/services/enquiry-submissions.server";
import { guardianWaitText } from "~/services/guardian-consent.server";
import { myBatchCalendar, setMyWhatsapp, viewMe, type MeView } from "~/services/privacy-me.server";
import { acceptOffer, acceptedOfferCalendar, declineOffer, viewOffer } from "~/services/waitlist-offers.server";
import { offerFreedSeats } from "~/services/waitlist.server";
import { createUserWithoutActor } from "~/services/users.server";
import { formatDateTime } from "~/util/dates";
import { enquiryReference, referenceIdPrefix } from "~/util/enquiry-reference";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";
import type { ReceivedMail } from "../helpers/smtp-sink";

/**
 * Issue 37, items 4, 8 and 9, at the service layer on a real database and a real SMTP server: a minor is told what
 * their enquiry waits for and when it is deleted; a confirmation carries a reference that staff search finds exactly,
 * what was sent and where the copy went; /me says where each person stands for a batch (waiting, offered with the
 * link, enrolled, declined) with a calendar only for the enrolled, and turns WhatsApp updates off and on.
 */
const { smtp } = await startOutboxReceivers();

useTestDatabase();

const visitor = { user: null, ip: "203.0.113.77" };
const COURSE = "Round Two Course";
const START = "2035-02-04";
let staff: StaffActor;
let scheduleId = "";
let n = 0;
const lead = (over: Record<string, unknown> = {}) => {
  n++;
  return {
    fullName: `Kiran Round${n}`,
    email: `kiran.round${n}@example.com`,
    phone: `96${String(40_000_000 + n)}`,
    preferredCourse: COURSE,
    preferredMode: "online",
    ...over,
  };
};
const meToken = async (email: string) => {
  await drainOutbox();
  const mail = smtp.received.find((m: ReceivedMail) => m.envelope.to.includes(email) && /\/me\?token=/.test(m.parsed.text ?? ""));
  if (!mail) throw new Error(`no mail with a /me link to ${email}`);
  return new URL(/https:\/\/academy\.example\/me\?token=[\w%-]+/.exec(mail.parsed.text ?? "")![0]).searchParams.get("token")!;
};
const okView = (v: MeView) => {
  if (v.state !== "ok") throw new Error(v.state);
  return v;
};

beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Round Staff", email: "round.staff@staff.test", password: "long-enough-password", role: "admin" });
  staff = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  const course = await insertCourse({ title: COURSE, category: "beginner", description: "Round two" });
  scheduleId = (
    await insertSchedule({
      course: course.id,
      startDate: START,
      endDate: "2035-04-04",
      time: "7 PM",
      days: "Sat",
      mode: "online",
      location: "Online",
      seats: 0,
      totalSeats: 10,
    })
  ).id;
});

beforeEach(() => {
  smtp.received.length = 0;
});

describe("an honest answer to a minor (item 4)", () => {
  it("says the guardian was e-mailed and when the enquiry is deleted without consent; no copy, no reference, nothing to the minor", async () => {
    const minor = lead({ preferredCourse: "SOC Analyst Training Program" });
    const held = await submitEnquiry(
      visitor,
      { ...minor, under18: "on", guardianName: "Meera Parent", guardianEmail: "meera.parent@example.com" },
      { channel: "enquiry-page" },
    );
    const answer = await enquiryConfirmation(held);
    const deadline = new Date(Date.parse(held.createdAt) + GUARDIAN_CONSENT_DAYS * 86_400_000).toISOString();
    expect(answer.title).toBe("We have asked your parent or guardian");
    expect(answer.text).toBe(
      `We have e-mailed Meera Parent to ask for consent. We cannot contact you until they agree; if they do not by ${formatDateTime(deadline)} (Hyderabad time), we delete your enquiry.`,
    );
    expect(answer.text).not.toMatch(/24 hours|Successful/);
    expect(answer.reference).toBeUndefined();
    expect(answer.copyTo).toBeUndefined();
    await drainOutbox();
    // Only the guardian's request: no acknowledgement reaches the minor until the guardian consents.
    expect(smtp.received.map((m) => m.envelope.to[0])).toEqual(["meera.parent@example.com"]);
    expect(guardianWaitText("Meera Parent", held.createdAt)).toBe(answer.text);
  });

  it("shows the same words on /me for the held enquiry", async () => {
    const person = lead({ preferredCourse: "SOC Analyst Training Program" });
    await submitEnquiry(visitor, person, { channel: "home" });
    const token = await meToken(person.email);
    const held = await submitEnquiry(
      visitor,
      { ...person, under18: "on", guardianName: "Anil Guardian", guardianEmail: "anil.guardian@example.com" },
      { channel: "home" },
    );
    const view = okView(await viewMe(visitor, { token }));
    const card = view.enquiries.find((e) => e.id === held.id)!;
    expect(card.held).toBe(true);
    expect(card.heldText).toBe(guardianWaitText("Anil Guardian", held.createdAt));
    expect(card.heldText).toContain("We have e-mailed Anil Guardian to ask for consent.");
  });
});

describe("a confirmation a person can keep (item 9)", () => {
  it("gives a reference that staff search finds exactly, what was sent, and where the copy went (and the copy carries it)", async () => {
    const person = lead({ preferredCourse: "SOC Analyst Training Program", message: "Evenings suit me" });
    const saved = await submitEnquiry(visitor, person, { channel: "enquiry-page" });
    await submitEnquiry(visitor, lead({ preferredCourse: "SOC Analyst Training Program" }), { channel: "enquiry-page" });
    const answer = await enquiryConfirmation(saved);
    expect(answer.reference).toBe(enquiryReference(saved.id));
    expect(answer.reference).toMatch(/^ENQ-[0-9A-F]{8}$/);
    expect(answer.copyTo).toBe(person.email);
    expect(answer.summary).toEqual(
      expect.arrayContaining([
        { label: "Name", value: person.fullName },
        { label: "Email", value: person.email },
        { label: "Course", value: "SOC Analyst Training Program" },
        { label: "Mode", value: "Online" },
        { label: "Message", value: "Evenings suit me" },
      ]),
    );
    // Staff search: the reference as quoted, in any case, with or without the hyphen, finds that enquiry alone.
    for (const typed of [answer.reference!, answer.reference!.toLowerCase(), ` ${answer.reference!.replace("-", " ")} `]) {
      const found = await listEnquiries(staff, { q: typed });
      expect(found.data.map((e) => e.id)).toEqual([saved.id]);
      expect(found.total).toBe(1);
    }
    expect(referenceIdPrefix("ENQ-12")).toBeNull();
    expect((await listEnquiries(staff, { q: "ENQ-00000000" })).total).toBe(0);
    await drainOutbox();
    const ack = smtp.received.find((m) => m.envelope.to.includes(person.email))!;
    expect(ack.parsed.text).toContain(`Your reference: ${answer.reference}`);
  });

  it("gives every new enquiry a reference of its own", async () => {
    const refs = new Set<string>();
    for (let i = 0; i < 20; i++)
      refs.add(enquiryReference((await submitEnquiry(visitor, lead({ preferredCourse: "SOC Analyst Training Program" }), { channel: "api" })).id));
    expect(refs.size).toBe(20);
  });

  it("says a copy was sent only when one is on its way (not past the address's daily limit)", async () => {
    const person = lead({ preferredCourse: "SOC Analyst Training Program" });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await enquiryConfirmation(await submitEnquiry(visitor, person, { channel: "enquiry-page" })));
    expect(answers.slice(0, 3).map((a) => a.copyTo)).toEqual([person.email, person.email, person.email]);
    // The fourth acknowledgement to one inbox in a day is refused (36.9): the visitor is not told it was sent.
    expect(answers[3].copyTo).toBeUndefined();
    expect(answers[3].reference).toMatch(/^ENQ-/);
  });
});

describe("/me tells the truth about seats (item 8), the offer pages (item 9)", () => {
  it("words each state, links a live offer, gives a calendar only to the enrolled; Decline and Accept as the offer page does", async () => {
    const [a, b, c] = [lead({ batchDate: START }), lead({ batchDate: START }), lead({ batchDate: START })];
    const ea = await submitEnquiry(visitor, a, { channel: "enquiry-page" });
    const eb = await submitEnquiry(visitor, b, { channel: "enquiry-page" });
    const ec = await submitEnquiry(visitor, c, { channel: "enquiry-page" });
    const [ta, tb, tc] = [await meToken(a.email), await meToken(b.email), await meToken(c.email)];
    const seatOf = async (token: string) => okView(await viewMe(visitor, { token })).enquiries[0].seat;
    expect(await seatOf(tc)).toEqual({ state: "waiting", position: 3 });

    // A seat frees: offered to the first one waiting, who sees until when and the link to answer.
    await db().updateTable("schedules").set({ seats: 1 }).where("id", "=", scheduleId).execute();
    await inTransaction(() => offerFreedSeats(scheduleId));
    const offered = await seatOf(ta);
    expect(offered).toMatchObject({ state: "offered" });
    const offerRow = await db().selectFrom("waitlist_offers").selectAll().where("enquiryId", "=", ea.id).executeTakeFirstOrThrow();
    expect(offered).toEqual({ state: "offered", until: offerRow.expiresAt, link: `/waitlist/offer?token=${encodeURIComponent(offerToken(offerRow.id))}` });
    // The list's numbers count the one holding an offer, as staff's list does.
    expect(await seatOf(tb)).toEqual({ state: "waiting", position: 2 });

    // Declined: said so, and no calendar.
    expect((await declineOffer(offerToken(offerRow.id))).state).toBe("declined");
    expect(await seatOf(ta)).toEqual({ state: "declined" });
    expect(await myBatchCalendar(visitor, { token: ta }, ea.id)).toBeNull();

    // The seat went to B, who accepts: enrolled, with a calendar; the accepted page has the fee and the reference.
    const offerB = await db().selectFrom("waitlist_offers").selectAll().where("enquiryId", "=", eb.id).executeTakeFirstOrThrow();
    const tokenB = offerToken(offerB.id);
    expect(await acceptedOfferCalendar(tokenB)).toBeNull();
    const accepted = await acceptOffer(visitor, tokenB);
    expect(accepted).toMatchObject({ state: "accepted", acceptedNow: true, reference: enquiryReference(eb.id) });
    expect(accepted.fee).toMatch(/^Fee/);
    expect(accepted.batch?.id).toBe(scheduleId);
    expect((await viewOffer(tokenB)).reference).toBe(enquiryReference(eb.id));
    expect((await acceptedOfferCalendar(tokenB))?.text).toContain("BEGIN:VCALENDAR");
    expect(await seatOf(tb)).toEqual({ state: "enrolled" });
    expect((await myBatchCalendar(visitor, { token: tb }, eb.id))?.text).toContain("BEGIN:VCALENDAR");
    expect(await seatOf(tc)).toEqual({ state: "waiting", position: 1 });
    expect(await myBatchCalendar(visitor, { token: tc }, ec.id)).toBeNull();
  });
});

describe("WhatsApp updates off and on from /me (item 8)", () => {
  it("turns them off on every enquiry of the person, with a consent row each, and on again", async () => {
    const person = lead({ preferredCourse: "SOC Analyst Training Program", whatsappNotifications: "on" });
    const first = await submitEnquiry(visitor, person, { channel: "enquiry-page" });
    const second = await submitEnquiry(visitor, { ...person, preferredMode: "offline" }, { channel: "home" });
    const token = await meToken(person.email);
    expect(okView(await viewMe(visitor, { token })).whatsapp).toBe(true);
    const before = await getEnquiryRecord(first.id);
    expect(await setMyWhatsapp(visitor, { token }, false)).toBe(2);
    expect(okView(await viewMe(visitor, { token })).whatsapp).toBe(false);
    for (const id of [first.id, second.id]) {
      const record = await getEnquiryRecord(id);
      expect(record.whatsappNotifications).toBe(false);
      expect(record.consents.filter((c) => c.purpose === "whatsapp").map((c) => `${c.action}:${c.channel}`)).toEqual(["withdrawn:me"]);
    }
    // A staff screen opened before the change is refused rather than putting the old choice back.
    expect((await getEnquiryRecord(first.id)).version).toBeGreaterThan(before.version);
    expect(await setMyWhatsapp(visitor, { token }, false)).toBe(0);
    expect(await setMyWhatsapp(visitor, { token }, true)).toBe(2);
    expect((await getEnquiryRecord(second.id)).whatsappNotifications).toBe(true);
  });
});
