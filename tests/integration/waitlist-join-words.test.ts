import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertSchedule } from "~/models/schedule.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { answerGuardian } from "~/services/guardian-consent.server";
import { enquiryWaitlistStatus, offerHours } from "~/services/waitlist.server";
import { formatDate } from "~/util/dates";
import { waitlistPlaceText } from "~/util/waitlist-text";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";

/**
 * Issue 27 item 2: one who joins a full batch's waitlist is told so, in the same words on the screen (the form's
 * answer is built from waitlistPlaceText) and in the acknowledgement read at a real SMTP server, and the staff
 * alert's subject starts with "Waitlist:"; a minor's waitlist enquiry gets the same words once the guardian consents.
 */
const { smtp } = await startOutboxReceivers();

useTestDatabase();

const visitor = { user: null, ip: "203.0.113.40" };
const COURSE = "Waitlist Words Course";
const START = "2034-01-09";
let n = 0;
const lead = (over: Record<string, unknown> = {}) => {
  n++;
  return {
    fullName: `Neha Waiting${n}`,
    email: `neha.waiting${n}@example.com`,
    phone: `97${String(30_000_000 + n)}`,
    preferredCourse: COURSE,
    preferredMode: "online",
    batchDate: START,
    ...over,
  };
};

beforeAll(async () => {
  const course = await insertCourse({ title: COURSE, category: "beginner", description: "A full batch" });
  await insertSchedule({
    course: course.id,
    startDate: START,
    endDate: "2034-03-09",
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    seats: 0,
    totalSeats: 10,
  });
});

beforeEach(() => {
  smtp.received.length = 0;
});

const mailTo = (address: string) => smtp.received.find((m) => m.envelope.to.includes(address));
const alertAbout = (name: string) => smtp.received.find((m) => m.parsed.subject?.includes(name) && !m.envelope.to.some((to) => to.includes("waiting")));

describe("joining a full batch's waitlist", () => {
  it("says the place on the screen and in the acknowledgement, and the staff alert's subject starts with Waitlist:", async () => {
    const first = lead();
    const second = lead();
    await submitEnquiry(visitor, first, { channel: "enquiry-page" });
    const e = await submitEnquiry(visitor, second, { channel: "enquiry-page" });
    const place = await enquiryWaitlistStatus(e.id);
    expect(place).toMatchObject({ status: "waiting", position: 2, courseName: COURSE, startDate: START });
    const words = waitlistPlaceText(place!, offerHours());
    expect(words).toBe(
      `You are number 2 on the waitlist for ${COURSE}, starting ${formatDate(START)}. When a seat frees we e-mail you a link that holds it for 48 hours.`,
    );

    await drainOutbox();
    await smtp.waitFor(() => true, 4);
    const ack = mailTo(second.email)!;
    expect(ack.parsed.subject).toBe(`You are on the waitlist for ${COURSE} | CyberSOC Academy`);
    expect(ack.parsed.text?.replace(/\s+/g, " ")).toContain(words);
    expect(ack.parsed.text).not.toMatch(/within 24 hours/);
    const alert = alertAbout(second.fullName)!;
    expect(alert.parsed.subject).toBe(`Waitlist: ${second.fullName} is number 2 for ${COURSE}, starting ${formatDate(START)}`);
  });

  it("a minor's waitlist enquiry, held until the guardian consents, then gets the waitlist's words", async () => {
    const minor = lead({ under18: true, guardianName: "Sunil Parent", guardianEmail: "sunil.parent@example.com" });
    const e = await submitEnquiry(visitor, minor, { channel: "enquiry-page" });
    await drainOutbox();
    const request = (await smtp.waitFor((m) => m.envelope.to.includes("sunil.parent@example.com")))[0];
    expect(mailTo(minor.email)).toBeUndefined();
    const token = new URL(/https:\/\/academy\.example\/guardian\/consent\?token=[\w%-]+/.exec(request.parsed.text ?? "")![0]).searchParams.get("token")!;
    expect(await answerGuardian(visitor, token, true)).toMatchObject({ state: "consented" });

    await drainOutbox();
    await smtp.waitFor((m) => m.envelope.to.includes(minor.email));
    const place = (await enquiryWaitlistStatus(e.id))!;
    const ack = mailTo(minor.email)!;
    expect(ack.parsed.subject).toBe(`You are on the waitlist for ${COURSE} | CyberSOC Academy`);
    expect(ack.parsed.text?.replace(/\s+/g, " ")).toContain(waitlistPlaceText(place, offerHours()));
    await smtp.waitFor((m) => m.parsed.subject?.startsWith(`Waitlist: ${minor.fullName}`) ?? false);
  });
});
