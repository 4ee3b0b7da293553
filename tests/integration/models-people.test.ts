import { describe, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import { db, dialect } from "~db/client.server";
import * as m0003 from "~db/migrations/0003-phone-digits";
import * as m0050 from "~db/migrations/0050-indexed-search";
import * as m0100 from "~db/migrations/0100-list-and-figure-indexes";
import * as m0150 from "~db/migrations/0150-covering-list-indexes";
import * as m0160 from "~db/migrations/0160-queue-indexes";
import * as m0190 from "~db/migrations/0190-search-shown-only";
import { insertContactQuery, deleteContactQueryRow, getContactQuery, listContactQueries, setContactQueryStatusRow } from "~/models/contact-query.server";
import { countEnquiriesWithStatus as countEnquiries } from "~/models/enquiry-day-figures.server";
import { eachEnquiry, insertEnquiry, deleteEnquiryRow, getEnquiry, pageEnquiries, updateEnquiryRow } from "~/models/enquiry.server";
import { approveReviewRow, insertReview, deleteReviewRow, getReview, listReviews, reviewStats, updateReviewRow } from "~/models/review.server";
import { hashPassword, verifyPassword } from "~/infra/password.server";
import { countUsers, deleteUserRow, EmailTakenError, getUser, getUserWithSecret, listUsers, updateUserRow } from "~/models/user.server";
import { createUserWithoutActor } from "~/services/users.server";
import { isSessionRevoked, revokeSession } from "~/models/revoked-session.server";
import { useTestDatabase } from "../helpers/db";

useTestDatabase();

const enquiry = {
  fullName: "Ravi Kumar",
  email: "ravi@example.com",
  phone: "98765 43210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online" as const,
};

describe("enquiry model", () => {
  it("stores new enquiries with status new, booleans and file lists", async () => {
    const e = await insertEnquiry({ ...enquiry, message: "Weekend batch?", whatsappNotifications: false, filePaths: ["abc-cv.pdf"] });
    expect(await getEnquiry(e.id)).toMatchObject({
      ...enquiry,
      message: "Weekend batch?",
      whatsappNotifications: false,
      filePaths: ["abc-cv.pdf"],
      status: "new",
    });
    const d = await insertEnquiry(enquiry);
    expect(d).toMatchObject({ whatsappNotifications: true, filePaths: [], message: "" });
  });

  it("filters by status, searches name/e-mail/phone, pages newest first", async () => {
    const t0 = Date.parse("2031-01-01T00:00:00Z");
    const made = [];
    for (let i = 0; i < 6; i++) {
      made.push(
        await insertEnquiry(
          { ...enquiry, fullName: `Search Person ${i}`, email: `p${i}@mail.test`, phone: `90000 0000${i}` },
          { createdAt: new Date(t0 + i * 1000).toISOString() },
        ),
      );
    }
    await updateEnquiryRow(made[1].id, { status: "contacted" });
    await updateEnquiryRow(made[2].id, { status: "enrolled" });
    expect((await pageEnquiries({ status: "contacted" })).data.map((e) => e.id)).toEqual([made[1].id]);
    expect((await pageEnquiries({ q: "Search Person" })).total).toBe(6);
    expect((await pageEnquiries({ q: "p3@mail" })).data.map((e) => e.id)).toEqual([made[3].id]);
    expect((await pageEnquiries({ q: "9000000004" })).data.map((e) => e.id)).toEqual([made[4].id]);
    // Digits match however the phone was typed, and however the search is typed.
    expect((await pageEnquiries({ q: "+91-90000-00005" })).data.map((e) => e.id)).toEqual([made[5].id]);
    expect((await pageEnquiries({ q: "(90000) 00005" })).data.map((e) => e.id)).toEqual([made[5].id]);
    expect((await pageEnquiries({ q: "000 0000 5" })).data.map((e) => e.id)).toEqual([made[5].id]);
    await updateEnquiryRow(made[0].id, { phone: "+91 (81234) 56-789" });
    expect((await pageEnquiries({ q: "9181234567" })).data.map((e) => e.id)).toEqual([made[0].id]);
    expect((await pageEnquiries({ q: "90000 00000" })).total).toBe(0);
    // The search column is the store's business, not the caller's.
    expect(Object.keys((await getEnquiry(made[0].id))!)).not.toContain("phoneDigits");
    expect((await pageEnquiries({ q: "100%_" })).total).toBe(0);
    const page2 = await pageEnquiries({ q: "Search Person", limit: 4, page: 2 });
    expect(page2.data.map((e) => e.fullName)).toEqual(["Search Person 1", "Search Person 0"]);
    expect(page2.pages).toBe(2);
    expect(await countEnquiries("enrolled")).toBeGreaterThanOrEqual(1);
  });

  it("updates fields and status, deletes", async () => {
    const e = await insertEnquiry(enquiry);
    expect(await updateEnquiryRow(e.id, { message: "Updated", status: "closed" })).toMatchObject({ message: "Updated", status: "closed" });
    expect(await updateEnquiryRow("missing", { status: "closed" })).toBeNull();
    expect((await deleteEnquiryRow(e.id))?.id).toBe(e.id);
    expect(await getEnquiry(e.id)).toBeNull();
  });

  it("reads every match for an export a page at a time, newest first, ties on the same moment included", async () => {
    const at = "2032-02-02T10:00:00.000Z";
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(
        await insertEnquiry(
          { ...enquiry, fullName: `Export Person ${i}`, email: `x${i}@mail.test` },
          { createdAt: i < 3 ? at : `2032-02-02T10:00:0${i}.000Z` },
        ),
      );
    const pages: string[][] = [];
    for await (const page of eachEnquiry({ q: "Export Person" }, 2)) pages.push(page.map((e) => e.id));
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const expected = [made[4].id, made[3].id, ...[made[0].id, made[1].id, made[2].id].sort().reverse()];
    expect(pages.flat()).toEqual(expected);
  });
});

describe("contact query model", () => {
  it("stores optional phone and subject as null, sets status, searches and deletes", async () => {
    const q = await insertContactQuery({ name: "Meera", email: "meera@example.com", message: "Fees?", phone: "", subject: "" });
    expect(q).toMatchObject({ phone: null, subject: null, status: "new" });
    expect(await setContactQueryStatusRow(q.id, "replied", q.version, "Tester")).toMatchObject({ status: "replied", version: 2, updatedBy: "Tester" });
    expect((await listContactQueries({ status: "replied" })).data.map((r) => r.id)).toContain(q.id);
    expect((await listContactQueries({ q: "meera@" })).data.map((r) => r.id)).toEqual([q.id]);
    const withPhone = await insertContactQuery({ name: "Kiran", email: "kiran@example.com", message: "Batch?", phone: "+91 70123-45678" });
    expect((await listContactQueries({ q: "7012345678" })).data.map((r) => r.id)).toEqual([withPhone.id]);
    expect(Object.keys(withPhone)).not.toContain("phoneDigits");
    expect(await deleteContactQueryRow(q.id)).toBe(true);
    expect(await getContactQuery(q.id)).toBeNull();
  });
});

describe("review model", () => {
  const review = {
    name: "Asha",
    position: "SOC Analyst",
    image: "/images/avatars/a.svg",
    rating: 4,
    review: "Great labs",
    course: "SOC Analyst Training Program",
  };

  it("starts unapproved, approves, filters, averages approved ratings only", async () => {
    expect(await reviewStats()).toEqual({ count: 0, average: null });
    const r = await insertReview(review);
    expect(r).toMatchObject({ approved: false, type: "text", videoThumbnail: null, linkedin: null });
    await insertReview({ ...review, rating: 5, approved: true, course: "Cloud Security Practitioner" });
    await insertReview({ ...review, rating: 2, approved: false });
    expect(await reviewStats()).toEqual({ count: 1, average: 5 });
    expect((await approveReviewRow(r.id, "Priya"))?.approved).toBe(true);
    expect(await reviewStats()).toEqual({ count: 2, average: 4.5 });
    expect((await listReviews({ status: "pending" })).total).toBe(1);
    expect((await listReviews({ status: "approved", courseContains: "Cloud" })).data.map((x) => x.course)).toEqual(["Cloud Security Practitioner"]);
  });

  it("keeps the video thumbnail only for video reviews; edits can unapprove", async () => {
    const r = await insertReview({ ...review, type: "video", videoThumbnail: "https://img.example.com/t.jpg", approved: true });
    expect(r.videoThumbnail).toBe("https://img.example.com/t.jpg");
    const u = await updateReviewRow(
      r.id,
      { ...review, type: "text", videoThumbnail: "https://img.example.com/t.jpg", approved: false },
      { updatedBy: "Priya" },
    );
    expect(u).toMatchObject({ type: "text", videoThumbnail: null, approved: false });
    expect(await deleteReviewRow(r.id)).toBe(true);
    expect(await getReview(r.id)).toBeNull();
  });
});

describe("user model", () => {
  it("hashes passwords with argon2id and never returns them", async () => {
    const u = await createUserWithoutActor({ name: " Editor One ", email: "Editor@Example.com", password: "correct horse" });
    expect(u).toEqual({
      id: u.id,
      name: "Editor One",
      email: "editor@example.com",
      role: "editor",
      createdAt: u.createdAt,
      updatedAt: u.updatedAt,
      dailyDigest: true,
      takesEnquiries: true,
      version: 1,
      updatedBy: null,
    });
    const secret = await getUserWithSecret({ email: "EDITOR@example.com" });
    expect(secret!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(secret!.passwordHash, "correct horse")).toBe(true);
  });

  it("refuses a taken e-mail, keeps the password when none is given, bumps the session version on change", async () => {
    const u = await createUserWithoutActor({ name: "Admin Two", email: "admin2@example.com", password: "password-one", role: "admin" });
    await expect(createUserWithoutActor({ name: "x", email: "ADMIN2@example.com", password: "password-two" })).rejects.toMatchObject({
      kind: "conflict",
      code: "email_taken",
    });
    const before = await getUserWithSecret({ id: u.id });
    await updateUserRow(u.id, { name: "Admin 2", passwordHash: "" });
    const same = await getUserWithSecret({ id: u.id });
    expect(same!.passwordHash).toBe(before!.passwordHash);
    expect(same!.sessionVersion).toBe(before!.sessionVersion);
    await updateUserRow(u.id, { passwordHash: await hashPassword("password-new") });
    const changed = await getUserWithSecret({ id: u.id });
    expect(changed!.sessionVersion).toBe(before!.sessionVersion + 1);
    expect(await verifyPassword(changed!.passwordHash, "password-new")).toBe(true);
    const other = await createUserWithoutActor({ name: "Other", email: "other@example.com", password: "password-3" });
    await expect(updateUserRow(other.id, { email: "admin2@example.com" })).rejects.toBeInstanceOf(EmailTakenError);
  });

  it("lists and deletes", async () => {
    const n = await countUsers();
    const u = await createUserWithoutActor({ name: "Temp", email: "temp@example.com", password: "password-4" });
    expect((await listUsers()).total).toBe(n + 1);
    expect(await deleteUserRow(u.id)).toBe(true);
    expect(await getUser(u.id)).toBeNull();
  });
});

describe("migration 0003 (phone digits for search)", () => {
  it("fills the digits of rows written before it, on this database", async () => {
    const kysely = db() as unknown as Kysely<unknown>;
    // A later migration (0010) indexes the column; it goes and comes back with it.
    await sql`drop index enquiries_phone_digits_created ${dialect() === "mysql" ? sql`on enquiries` : sql``}`.execute(kysely);
    // And 0050's search index reads it: it goes first and comes back last (after 0100, which replaced two of its
    // indexes, and 0150 and 0160, which replaced four of 0100's); 0190 remade it over a view that reads it too.
    await m0190.down(kysely);
    await m0160.down(kysely);
    await m0150.down(kysely);
    await m0100.down(kysely);
    await m0050.down(kysely);
    await m0003.down(kysely);
    const at = "2030-06-01T00:00:00.000Z";
    await sql`insert into enquiries (id, fullName, email, phone, preferredCourse, preferredMode, message, whatsappNotifications, filePaths, status, createdAt, updatedAt)
      values ('old-enquiry', 'Old Timer', 'old@example.com', '+91 (99887) 766-55', 'SOC Analyst Training Program', 'online', '', 1, '[]', 'new', ${at}, ${at})`.execute(
      kysely,
    );
    await sql`insert into contact_queries (id, name, email, phone, subject, message, status, createdAt, updatedAt)
      values ('old-query', 'Old Query', 'oldq@example.com', null, null, 'Hello', 'new', ${at}, ${at})`.execute(kysely);
    await m0003.up(kysely);
    await sql`create index enquiries_phone_digits_created on enquiries (phoneDigits, createdAt)`.execute(kysely);
    await m0050.up(kysely);
    await m0100.up(kysely);
    await m0150.up(kysely);
    await m0160.up(kysely);
    await m0190.up(kysely);
    expect((await pageEnquiries({ q: "9988776655" })).data.map((e) => e.id)).toEqual(["old-enquiry"]);
    const row = await db().selectFrom("contact_queries").select("phoneDigits").where("id", "=", "old-query").executeTakeFirstOrThrow();
    expect(row.phoneDigits).toBe("");
  });
});

describe("revoked sessions", () => {
  it("signing out the same session twice at once is fine, and expired entries are cleared", async () => {
    const until = new Date(Date.now() + 60_000);
    await Promise.all([revokeSession("sid-twice", until), revokeSession("sid-twice", until), revokeSession("sid-twice", until)]);
    expect(await isSessionRevoked("sid-twice")).toBe(true);
    await revokeSession("sid-old", new Date(Date.now() - 1000));
    await revokeSession("sid-next", until);
    expect(await isSessionRevoked("sid-old")).toBe(false);
    expect(await isSessionRevoked("sid-next")).toBe(true);
  });
});
