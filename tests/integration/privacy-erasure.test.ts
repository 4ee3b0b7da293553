import { sql } from "kysely";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db, dialect, rawDriver } from "~db/client.server";
import { fileStore } from "~/infra/file-store.server";
import { consumePrivacyAttempt } from "~/infra/rate-limit.server";
import { countEnquiriesWithStatus as countEnquiries } from "~/models/enquiry-day-figures.server";
import { insertCourse } from "~/models/course.server";
import { insertSchedule } from "~/models/schedule.server";
import type { StaffActor } from "~/services/actor";
import { addContactQueryNote, submitContactQuery } from "~/services/contact-queries.server";
import { addEnquiryNote, setEnquiryStatus } from "~/services/enquiries.server";
import { submitEnquiry } from "~/services/enquiry-submissions.server";
import { pipelineFigures } from "~/services/pipeline-figures.server";
import { erasePerson } from "~/services/privacy-erasure.server";
import { makeBackupNow } from "~/services/backups.server";
import { verifyingKey } from "~/infra/backup-signature.server";
import { unpackBackupArchive } from "~/infra/backup-unpack.server";
import { requestMeLink } from "~/services/privacy-me.server";
import { createUserWithoutActor } from "~/services/users.server";
import { listEnquiries } from "~/services/enquiry-lists.server";
import { useTestDatabase } from "../helpers/db";
import { drainOutbox, startOutboxReceivers } from "../helpers/outbox-receivers";
import { filesOnDisk, uploadRoot } from "../helpers/stored-files";

/**
 * Erasure leaves nothing that names the person (DPDP Act): their e-mail, phone and name are searched byte for byte
 * in the SQLite file (and its write-ahead log) or in every MariaDB table, and in the upload folder, after a person
 * with an attachment, notes, a status change, a waitlist place, sent and unsent e-mails, webhooks and a "Where is
 * my enquiry?" request is erased; someone else's records stay whole, and the dashboard's counts do not move.
 */
const { smtp } = await startOutboxReceivers({ env: { RATE_LIMIT: "on", BACKUP_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "erasure-backups-")) } });

useTestDatabase();

const visitor = { user: null, ip: "203.0.113.9" };
let staff: StaffActor;

// Distinctive values, so a byte search finds nothing by chance.
const PERSON = {
  fullName: "Zarina Qadeerabad",
  email: "zarina.qadeerabad@example.org",
  phone: "98111 22233",
  digits: "9811122233",
  guardianEmail: "",
};
const OTHER = { fullName: "Vikram Ostrowski", email: "vikram.ostrowski@example.org", phone: "97000 55566" };
let courseTitle = "";
let batchDate = "";

beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Meera Staff", email: "meera.staff@staff.test", password: "long-enough-password", role: "editor" });
  staff = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  const course = await insertCourse({ title: "Privacy Course", category: "beginner", description: "For erasure tests" });
  courseTitle = course.title;
  batchDate = "2033-03-03";
  // A full batch: the person's second enquiry joins its waitlist.
  await insertSchedule({
    course: course.id,
    startDate: batchDate,
    endDate: "2033-05-05",
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    seats: 0,
    totalSeats: 5,
  });
});

/** An attachment as the /enquiry page stores it: a file in the store, with the visitor's file name in its stored name. */
async function attachment(name: string) {
  const storedName = `${"ab".repeat(16)}-${name}`;
  const tmp = path.join(uploadRoot(), "incoming.tmp");
  fs.mkdirSync(uploadRoot(), { recursive: true });
  fs.writeFileSync(tmp, `%PDF-1.4 resume of ${PERSON.fullName}, ${PERSON.email}, ${PERSON.phone}\n%%EOF\n`);
  const key = `enquiries/${storedName}`;
  const { size } = await fileStore().putFile(key, tmp);
  return { field: "filePaths", kind: "attachment" as const, originalName: name, storedName, url: null, mime: "application/pdf", size, key };
}

/** Every byte the database holds, as text: the SQLite file and its log, or every row of every MariaDB table. */
async function databaseBytes(): Promise<string> {
  if (dialect() === "sqlite") {
    const raw = rawDriver();
    if (raw.dialect !== "sqlite") throw new Error("sqlite expected");
    const file = raw.database.name;
    return [file, `${file}-wal`, `${file}-journal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString("latin1"))
      .join("\n");
  }
  const raw = rawDriver();
  if (raw.dialect !== "mysql") throw new Error("mysql expected");
  const [tables] = await raw.pool.promise().query("select table_name as t from information_schema.tables where table_schema = ?", [raw.databaseName]);
  let all = "";
  for (const { t } of tables as { t: string }[]) {
    const [rows] = await raw.pool.promise().query(`select * from \`${t}\``);
    all += JSON.stringify(rows);
  }
  return all;
}

function uploadsBytes(): string {
  return filesOnDisk()
    .map((rel) => `${rel}\n${fs.readFileSync(path.join(uploadRoot(), rel)).toString("latin1")}`)
    .join("\n");
}

const needles = (p: { fullName: string; email: string; phone: string }) => [p.email, p.fullName, p.phone.replace(/\D/g, ""), p.phone, ...p.fullName.split(" ")];

describe("erasing a person", () => {
  it.skipIf(Boolean(process.env.TEST_MYSQL_URL))(
    "the search index removes a deleted row's terms at once (FTS5 secure-delete), not at a later merge",
    async () => {
      const r = await sql<{ v: number }>`select v from enquiries_search_config where k = 'secure-delete'`.execute(db());
      expect(r.rows.map((row) => Number(row.v))).toEqual([1]);
    },
  );

  it("leaves no e-mail, phone or name in the database, the uploads or the outbox, and the counts stay", async () => {
    // The person: an enquiry with an attachment, followed up; a second enquiry on a full batch's waitlist; a message.
    const first = await submitEnquiry(
      visitor,
      {
        fullName: PERSON.fullName,
        email: PERSON.email,
        phone: PERSON.phone,
        preferredCourse: courseTitle,
        preferredMode: "online",
        message: `Call me on ${PERSON.phone}`,
      },
      { channel: "enquiry-page", files: [await attachment("Zarina-Qadeerabad-resume.pdf")] },
    );
    await submitEnquiry(
      visitor,
      {
        fullName: PERSON.fullName,
        email: PERSON.email,
        phone: PERSON.phone,
        preferredCourse: courseTitle,
        preferredMode: "online",
        batchDate,
        marketingConsent: "on",
      },
      { channel: "home" },
    );
    const message = await submitContactQuery(visitor, {
      name: PERSON.fullName,
      email: PERSON.email,
      phone: PERSON.phone,
      subject: `About ${PERSON.fullName}`,
      message: "Hello",
    });
    await addEnquiryNote(staff, first.id, { text: `Spoke to ${PERSON.fullName} (${PERSON.email}, ${PERSON.phone}): call back Monday` });
    await addContactQueryNote(staff, message.id, { text: `Replied to ${PERSON.email}` });
    await setEnquiryStatus(staff, first.id, { status: "contacted" });
    // Someone else, whose note mentions the person's phone number (a referral).
    const other = await submitEnquiry(visitor, { ...OTHER, preferredCourse: courseTitle, preferredMode: "offline" }, { channel: "api" });
    await addEnquiryNote(staff, other.id, { text: `Referred by a friend, ${PERSON.phone}` });
    await drainOutbox();
    // A sent acknowledgement to the person exists, and one more e-mail is waiting: a link asked for just now.
    expect(smtp.received.some((m) => m.envelope.to.includes(PERSON.email))).toBe(true);
    await requestMeLink(visitor, { email: PERSON.email });
    await consumePrivacyAttempt("me-link-address", PERSON.email);
    const pending = await db().selectFrom("outbox").select("id").where("status", "in", ["pending", "waiting"]).where("recipient", "=", PERSON.email).execute();
    expect(pending.length).toBe(1);

    const countsBefore = { newEnquiries: await countEnquiries("new"), figures: await pipelineFigures(staff) };
    expect(await databaseBytes()).toContain(PERSON.email);
    expect(uploadsBytes()).toContain(PERSON.email);

    const result = await erasePerson(staff, { email: PERSON.email.toUpperCase() });
    expect(result.enquiries).toHaveLength(2);
    expect(result.contactQueries).toEqual([message.id]);
    expect(result.files).toBe(1);

    const bytes = await databaseBytes();
    for (const needle of needles(PERSON)) expect(bytes.includes(needle), `database still holds "${needle}"`).toBe(false);
    const files = uploadsBytes();
    for (const needle of needles(PERSON)) expect(files.includes(needle), `uploads still hold "${needle}"`).toBe(false);

    // Nothing unsent about them is left; the other person's records, notes and mail are untouched (but for the person's phone).
    const unsent = await db().selectFrom("outbox").select(["recipient", "subject"]).where("status", "in", ["pending", "waiting", "failed"]).execute();
    expect(unsent.filter((r) => r.recipient.includes("qadeerabad"))).toEqual([]);
    const others = await listEnquiries(staff, { q: OTHER.email });
    expect(others.data.map((e) => e.fullName)).toEqual([OTHER.fullName]);
    expect(bytes).toContain(OTHER.email);
    expect(bytes).toContain("Referred by a friend, [erased]");

    // Staff lists no longer show the person; the dashboard's figures of what happened are as they were.
    expect((await listEnquiries(staff, { q: "Qadeerabad" })).total).toBe(0);
    expect(await countEnquiries("new")).toBe(countsBefore.newEnquiries);
    const after = await pipelineFigures(staff);
    expect(after.funnels).toEqual(countsBefore.figures.funnels);
    expect(after.weekly).toEqual(countsBefore.figures.weekly);
    expect(after.byCourse).toEqual(countsBefore.figures.byCourse);
    expect(after.bySource).toEqual(countsBefore.figures.bySource);

    // The audit log records the erasure, by record id, without the person.
    const audit = await db().selectFrom("audit_log").selectAll().where("action", "=", "erase").execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].summary).toContain(first.id);
    expect(audit[0].userName).toBe("Meera Staff");

    // A second request finds nothing left to erase.
    expect(await erasePerson(staff, { email: PERSON.email })).toEqual({ enquiries: [], contactQueries: [], files: 0 });

    // A backup made now holds nothing of them either (issue 32): every file of the unpacked archive, byte for byte.
    const made = await makeBackupNow(() => {});
    const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "erased-backup-"));
    try {
      await unpackBackupArchive(made.file, unpacked, { key: verifyingKey() });
      const archived = (fs.readdirSync(unpacked, { recursive: true }) as string[])
        .map((rel) => path.join(unpacked, rel))
        .filter((f) => fs.statSync(f).isFile())
        .map((f) => fs.readFileSync(f).toString("latin1"))
        .join("\n");
      expect(archived).toContain(OTHER.email);
      for (const needle of needles(PERSON)) expect(archived.includes(needle), `the new backup still holds "${needle}"`).toBe(false);
    } finally {
      fs.rmSync(unpacked, { recursive: true, force: true });
    }
  });
});
