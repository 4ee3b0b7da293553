import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, db, openDb } from "~db/client.server";
import { ADMIN, API_SECRET, ensureBuilt, freshDatabase, launchServer, signInCookie, type RunningServer } from "../helpers/api-server";
import { addresses, startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";

/**
 * The waitlist of a full batch, end to end on the production build: joining through /schedules' Join waitlist and
 * the /enquiry form (JavaScript off: plain form posts) and through the API; a freed seat offered by e-mail (read at
 * a real SMTP server) with a link that accepts; races for the last seat (the same offer accepted many times at
 * once, an acceptance against a staff enrolment, and on MariaDB two app instances); expiry moving the list on.
 */
const MYSQL = process.env.TEST_MYSQL_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-waitlist-"));
let database: { url: string; drop: () => Promise<void> };
let smtp: SmtpSink;
let a: RunningServer;
let b: RunningServer | null = null;
let admin = "";
let cookie = "";
let course = { id: "", title: "" };
let batchId = "";
const BATCH_DATE = "2031-03-02";

beforeAll(async () => {
  await ensureBuilt();
  database = await freshDatabase(dir);
  smtp = await startSmtpSink();
  const env = { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>", NOTIFY_EMAIL: "desk@cybersoc.test" };
  a = await launchServer({ databaseUrl: database.url, uploadDir: path.join(dir, "uploads"), env });
  // The expiry job is run from this process too (as another instance would): same database, same secret.
  Object.assign(process.env, { ...env, DATABASE_URL: database.url, SESSION_SECRET: API_SECRET, PUBLIC_URL: a.url });
  await openDb(database.url);
  admin = (await call("POST", "/api/auth/login", { body: { email: ADMIN.email, password: ADMIN.password } })).body.token;
  cookie = await signInCookie(a.url);
  const c = (await call("GET", "/api/courses")).body.data[0];
  course = { id: c.id, title: c.title };
  batchId = (
    await call("POST", "/api/schedules", {
      token: admin,
      body: {
        course: course.id,
        startDate: BATCH_DATE,
        endDate: "2031-04-30",
        time: "7 PM",
        days: "Sat",
        mode: "online",
        location: "Online",
        seats: 1,
        totalSeats: 1,
      },
    })
  ).body.data.id;
}, 300_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await smtp?.stop();
  await closeDb();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function call(method: string, p: string, opts: { token?: string; body?: unknown; base?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${opts.base ?? a.url}${p}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: text && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text };
}

let n = 0;
const lead = (fullName: string) => ({
  fullName,
  email: `${fullName.toLowerCase().replace(/\W+/g, ".")}.${++n}@example.com`,
  phone: `9${String(100000000 + n * 7919).padStart(9, "0")}`,
  preferredCourse: course.title,
  preferredMode: "online",
});

const apiJoin = async (fullName: string) => {
  const r = await call("POST", "/api/enquiries", { body: { ...lead(fullName), batchDate: BATCH_DATE } });
  expect(r.status).toBe(201);
  return r.body.data as { id: string; email: string };
};
const setStatus = (id: string, status: string, base?: string) => call("PUT", `/api/enquiries/${id}/status`, { token: admin, body: { status }, base });
const seatsLeft = async () => Number((await db().selectFrom("schedules").select("seats").where("id", "=", batchId).executeTakeFirstOrThrow()).seats);
const enquiryRow = (id: string) => db().selectFrom("enquiries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const enrolledInBatch = async () =>
  (await db().selectFrom("enquiries").select("fullName").where("scheduleId", "=", batchId).where("status", "=", "enrolled").execute())
    .map((r) => r.fullName)
    .sort();
const openOffers = async () => db().selectFrom("waitlist_offers").selectAll().where("scheduleId", "=", batchId).where("status", "=", "open").execute();
const waitlistLines = async (id: string) =>
  (
    await db()
      .selectFrom("timeline_entries")
      .select(["toValue", "text"])
      .where("subjectId", "=", id)
      .where("kind", "=", "waitlist")
      .orderBy("at")
      .orderBy("id")
      .execute()
  ).map((l) => l.toValue);
const statusLines = async (id: string) =>
  (await db().selectFrom("timeline_entries").select("toValue").where("subjectId", "=", id).where("kind", "=", "status").execute()).map((l) => l.toValue);

/** The offer e-mail to `email`, read at the SMTP server, and the link in it. */
async function offerLink(email: string): Promise<string> {
  const [mail] = await smtp.waitFor((m) => addresses(m.parsed.to).includes(email) && /A seat is free for you/.test(m.parsed.subject ?? ""), 1, 30_000);
  const link = /https?:\/\/\S+\/waitlist\/offer\?token=[\w%-]+/.exec(mail.parsed.text ?? "")?.[0];
  expect(link, mail.parsed.text).toBeTruthy();
  expect(String(mail.parsed.html)).toContain(link!.replace(/&/g, "&amp;"));
  return link!;
}

const accept = (link: string, base = a.url, intent = "accept") => {
  const u = new URL(link);
  // A plain form post, as a browser with JavaScript off sends it.
  return fetch(`${base}${u.pathname}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ token: u.searchParams.get("token")!, intent }),
  }).then(async (r) => ({ status: r.status, html: await r.text() }));
};

describe("a full batch's waitlist", () => {
  let first = { id: "" };
  let pageJoiner = { id: "", email: "" };
  let apiJoiner = { id: "", email: "" };

  it("fills the batch; /schedules then offers Join waitlist, and /enquiry says the visitor joins that batch's waitlist", async () => {
    first = await call("POST", "/api/enquiries", { body: { ...lead("First Student"), batchDate: BATCH_DATE } }).then((r) => r.body.data);
    expect((await setStatus(first.id, "enrolled")).status).toBe(200);
    expect(await seatsLeft()).toBe(0);
    expect(await db().selectFrom("waitlist_entries").selectAll().execute()).toEqual([]);

    const html = await (await fetch(`${a.url}/schedules`)).text();
    const at = html.indexOf("Mar 2, 2031");
    const card = html.slice(html.lastIndexOf("<article", at), html.indexOf("</article>", at));
    expect(card).toContain("This batch is full");
    expect(card).not.toContain("Enroll Now");
    const href = /href="(\/enquiry\?[^"]*waitlist=1[^"]*)"[^>]*>\s*Join waitlist/.exec(card)?.[1]?.replace(/&amp;/g, "&");
    expect(href).toBeTruthy();
    const page = await (await fetch(`${a.url}${href}`)).text();
    expect(page).toContain(`You are joining the waitlist for ${course.title}, starting Mar 2, 2031`);
    expect(page).toContain(`name="batchDate" value="${BATCH_DATE}"`);
  });

  it("joins through the /enquiry form without JavaScript and through the API, in order of joining", async () => {
    const form = new FormData();
    const who = lead("Page Joiner");
    for (const [k, v] of Object.entries({ intent: "enquiry", ...who, message: "Waitlist please", batchDate: BATCH_DATE })) form.set(k, v);
    const posted = await fetch(`${a.url}/enquiry?course=${encodeURIComponent(course.title)}&date=${BATCH_DATE}&mode=online&waitlist=1`, {
      method: "POST",
      body: form,
      headers: { Origin: a.url },
    });
    expect(posted.status).toBe(200);
    const row = await db().selectFrom("enquiries").select(["id", "email"]).where("email", "=", who.email).executeTakeFirstOrThrow();
    pageJoiner = row;
    apiJoiner = await apiJoin("Api Joiner");

    const entries = await db()
      .selectFrom("waitlist_entries")
      .select(["enquiryId", "status"])
      .where("scheduleId", "=", batchId)
      .orderBy("joinedAt")
      .orderBy("id")
      .execute();
    expect(entries).toEqual([
      { enquiryId: pageJoiner.id, status: "waiting" },
      { enquiryId: apiJoiner.id, status: "waiting" },
    ]);
    expect(await waitlistLines(apiJoiner.id)).toEqual(["joined"]);

    // Staff see the list in order on the batch's screen, and the place on the enquiry's details.
    const screen = await (await fetch(`${a.url}/admin/schedules/${batchId}/edit`, { headers: { Cookie: cookie } })).text();
    expect(screen).toContain("Waitlist (2)");
    expect(screen.indexOf("Page Joiner")).toBeLessThan(screen.indexOf("Api Joiner"));
    const details = await (await fetch(`${a.url}/admin/enquiries/${apiJoiner.id}`, { headers: { Cookie: cookie } })).text();
    expect(details).toMatch(/Position 2 for [^<]*starts Mar 2, 2031 \(Online\)/);
    const timeline = (await call("GET", `/api/enquiries/${apiJoiner.id}/timeline`, { token: admin })).body.data;
    expect(timeline.map((t: { kind: string }) => t.kind)).toContain("waitlist");
  });

  it("offers a freed seat to the first one waiting by e-mail; the link's page confirms and its form enrols them once", async () => {
    expect((await setStatus(first.id, "closed")).status).toBe(200);
    // The seat is held by the offer: not available to anyone else.
    expect(await seatsLeft()).toBe(0);
    expect((await openOffers()).map((o) => o.enquiryId)).toEqual([pageJoiner.id]);
    const stored = (await openOffers())[0];
    const link = await offerLink(pageJoiner.email);
    expect(link).not.toContain(stored.tokenHash);

    const view = await (await fetch(link)).text();
    expect(view).toContain("A seat is held for you");
    expect(view).toContain("Accept the seat");
    // A look does not accept.
    expect((await enquiryRow(pageJoiner.id)).status).toBe("new");

    const accepted = await accept(link);
    expect(accepted.status).toBe(200);
    expect(accepted.html).toContain("You are enrolled!");
    expect((await enquiryRow(pageJoiner.id)).status).toBe("enrolled");
    expect(await seatsLeft()).toBe(0);
    expect(await enrolledInBatch()).toEqual(["Page Joiner"]);
    expect(await waitlistLines(pageJoiner.id)).toEqual(["joined", "offered", "accepted"]);
    expect(await statusLines(pageJoiner.id)).toEqual(["enrolled"]);
    // Again: already accepted, nothing changes.
    expect((await accept(link)).html).toContain("This seat is yours");
    expect(await statusLines(pageJoiner.id)).toEqual(["enrolled"]);
    expect(await seatsLeft()).toBe(0);
    // The staff's view of the enquiry: off the list.
    expect(await (await fetch(`${a.url}/admin/schedules/${batchId}/edit`, { headers: { Cookie: cookie } })).text()).toContain("Waitlist (1)");
  });

  it("raising the seats offers them; the same offer accepted many times at once enrols exactly once", async () => {
    const put = await call("PUT", `/api/schedules/${batchId}`, {
      token: admin,
      body: {
        course: course.id,
        startDate: BATCH_DATE,
        endDate: "2031-04-30",
        time: "7 PM",
        days: "Sat",
        mode: "online",
        location: "Online",
        seats: 1,
        totalSeats: 2,
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.seats).toBe(0);
    const link = await offerLink(apiJoiner.email);
    const answers = await Promise.all(Array.from({ length: 6 }, () => accept(link)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((r) => r.html.includes("You are enrolled!")).length).toBeGreaterThanOrEqual(1);
    expect(await statusLines(apiJoiner.id)).toEqual(["enrolled"]);
    expect(await enrolledInBatch()).toEqual(["Api Joiner", "Page Joiner"]);
    expect(await seatsLeft()).toBe(0);
  });

  it("an acceptance racing a staff enrolment of the last seat: exactly one gets it", async () => {
    const d = await apiJoin("Dora Waiting");
    const e = await apiJoin("Eshan Waiting");
    expect(await seatsLeft()).toBe(0);
    expect((await setStatus(apiJoiner.id, "contacted")).status).toBe(200);
    const link = await offerLink(d.email);
    // Staff try to enrol Eshan (on the batch, not offered) while Dora accepts.
    const [acc, staff] = await Promise.all([accept(link), setStatus(e.id, "enrolled")]);
    expect(acc.html).toContain("You are enrolled!");
    expect(staff.status).toBe(409);
    expect(await enrolledInBatch()).toEqual(["Dora Waiting", "Page Joiner"]);
    expect(await seatsLeft()).toBe(0);
    expect(await openOffers()).toEqual([]);
  });

  it("an offer that expires unanswered moves to the next one waiting; a declined one too", async () => {
    const e = await db().selectFrom("enquiries").select(["id", "email"]).where("fullName", "=", "Eshan Waiting").executeTakeFirstOrThrow();
    const f = await apiJoin("Farah Waiting");
    expect((await setStatus(pageJoiner.id, "closed")).status).toBe(200);
    const link = await offerLink(e.email);
    const [offer] = await openOffers();
    expect(offer.enquiryId).toBe(e.id);
    await db()
      .updateTable("waitlist_offers")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", offer.id)
      .execute();
    // Past its time, the link says so even before the job runs, and cannot accept.
    expect((await accept(link)).html).toContain("This offer has expired");
    const { runWaitlistJob } = await import("~/services/waitlist.server");
    // Two instances' jobs at once: the offer expires once.
    const expired = await Promise.all([runWaitlistJob(), runWaitlistJob()]);
    expect(expired.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await waitlistLines(e.id)).toEqual(["joined", "offered", "expired"]);
    expect((await openOffers()).map((o) => o.enquiryId)).toEqual([f.id]);
    expect(await seatsLeft()).toBe(0);

    const next = await offerLink(f.email);
    const declined = await accept(next, a.url, "decline");
    expect(declined.html).toContain("You have declined the seat");
    expect(await waitlistLines(f.id)).toEqual(["joined", "offered", "declined"]);
    // Nobody else waits: the seat is free again.
    expect(await openOffers()).toEqual([]);
    expect(await seatsLeft()).toBe(1);
  });

  it("a deleted or moved waiting enquiry leaves the list; an unknown link says so", async () => {
    const g = await apiJoin("Gita Waiting").catch(() => null);
    // The batch has a seat now: a new enquiry for it is an ordinary one.
    expect(await db().selectFrom("waitlist_entries").selectAll().where("enquiryId", "=", g!.id).execute()).toEqual([]);
    expect(await (await fetch(`${a.url}/waitlist/offer?token=not-a-real-token`)).text()).toContain("This link is not valid");
  });
});

describe("staff changes and the waitlist", () => {
  it("a deleted enrolment offers its seat; staff enrolling the offered one use the held seat; closing a waiting one takes it off; a later re-enrolment takes a free seat", async () => {
    const b2 = (
      await call("POST", "/api/schedules", {
        token: admin,
        body: {
          course: course.id,
          startDate: "2031-05-04",
          endDate: "2031-06-30",
          time: "7 PM",
          days: "Sun",
          mode: "online",
          location: "Online",
          seats: 1,
          totalSeats: 1,
        },
      })
    ).body.data.id;
    const seats2 = async () => Number((await db().selectFrom("schedules").select("seats").where("id", "=", b2).executeTakeFirstOrThrow()).seats);
    const join2 = async (name: string) =>
      (await call("POST", "/api/enquiries", { body: { ...lead(name), batchDate: "2031-05-04" } })).body.data as { id: string; email: string };
    const x = await join2("Xavier Seated");
    expect((await setStatus(x.id, "enrolled")).status).toBe(200);
    const y = await join2("Yamini Waiting");
    const z = await join2("Zoya Waiting");
    expect(
      await db()
        .selectFrom("waitlist_entries")
        .select("enquiryId")
        .where("scheduleId", "=", b2)
        .where("status", "=", "waiting")
        .orderBy("joinedAt")
        .orderBy("id")
        .execute(),
    ).toEqual([{ enquiryId: y.id }, { enquiryId: z.id }]);

    expect((await call("DELETE", `/api/enquiries/${x.id}`, { token: admin })).status).toBe(204);
    expect(await seats2()).toBe(0);
    const link = await offerLink(y.email);
    // Staff enrol the offered enquirer themselves: the offer's seat is theirs, no second seat is taken.
    expect((await setStatus(y.id, "enrolled")).status).toBe(200);
    expect(await seats2()).toBe(0);
    expect(await waitlistLines(y.id)).toEqual(["joined", "offered", "accepted"]);
    expect(await (await fetch(link)).text()).toContain("This seat is yours");

    // Zoya is closed while waiting: off the list.
    expect((await setStatus(z.id, "closed")).status).toBe(200);
    expect(await waitlistLines(z.id)).toEqual(["joined", "withdrawn"]);
    // Yamini leaves Enrolled: nobody waits, the seat is free; enrolled again later, she takes it.
    expect((await setStatus(y.id, "contacted")).status).toBe(200);
    expect(await seats2()).toBe(1);
    expect((await setStatus(y.id, "enrolled")).status).toBe(200);
    expect(await seats2()).toBe(0);
  });

  it("the offered enquirer accepting while staff enrol the same enquiry: one enrolment, one seat", async () => {
    const b3 = (
      await call("POST", "/api/schedules", {
        token: admin,
        body: {
          course: course.id,
          startDate: "2031-07-06",
          endDate: "2031-08-30",
          time: "7 PM",
          days: "Sun",
          mode: "online",
          location: "Online",
          seats: 1,
          totalSeats: 1,
        },
      })
    ).body.data.id;
    const seats3 = async () => Number((await db().selectFrom("schedules").select("seats").where("id", "=", b3).executeTakeFirstOrThrow()).seats);
    const join3 = async (name: string) =>
      (await call("POST", "/api/enquiries", { body: { ...lead(name), batchDate: "2031-07-06" } })).body.data as { id: string; email: string };
    const seated = await join3("Seated Person");
    expect((await setStatus(seated.id, "enrolled")).status).toBe(200);
    const w = await join3("Wanted Twice");
    expect((await setStatus(seated.id, "closed")).status).toBe(200);
    const link = await offerLink(w.email);
    const [acc, staff] = await Promise.all([accept(link), setStatus(w.id, "enrolled")]);
    expect(acc.status).toBe(200);
    expect([200, 409]).toContain(staff.status);
    expect(await statusLines(w.id)).toEqual(["enrolled"]);
    expect(await seats3()).toBe(0);
    expect((await enquiryRow(w.id)).status).toBe("enrolled");
  });

  it("an offered enquiry moved to another batch leaves the list and its held seat goes to the next one waiting", async () => {
    const b4 = (
      await call("POST", "/api/schedules", {
        token: admin,
        body: {
          course: course.id,
          startDate: "2031-09-07",
          endDate: "2031-10-30",
          time: "7 PM",
          days: "Sun",
          mode: "online",
          location: "Online",
          seats: 1,
          totalSeats: 1,
        },
      })
    ).body.data.id;
    const join4 = async (name: string) =>
      (await call("POST", "/api/enquiries", { body: { ...lead(name), batchDate: "2031-09-07" } })).body.data as { id: string; email: string };
    const seated = await join4("Seated Four");
    expect((await setStatus(seated.id, "enrolled")).status).toBe(200);
    const mover = await join4("Mover Offered");
    const next = await join4("Next In Line");
    expect((await setStatus(seated.id, "closed")).status).toBe(200);
    expect(
      (await db().selectFrom("waitlist_offers").select("enquiryId").where("scheduleId", "=", b4).where("status", "=", "open").execute()).map(
        (o) => o.enquiryId,
      ),
    ).toEqual([mover.id]);
    const record = (await call("GET", `/api/enquiries/${mover.id}`, { token: admin })).body.data;
    const { fullName, email, phone, preferredCourse, preferredMode, message, whatsappNotifications } = record;
    const moved = await call("PUT", `/api/enquiries/${mover.id}`, {
      token: admin,
      body: { fullName, email, phone, preferredCourse, preferredMode, message, whatsappNotifications, scheduleId: batchId },
    });
    expect(moved.status).toBe(200);
    expect(await waitlistLines(mover.id)).toEqual(["joined", "offered", "withdrawn"]);
    expect(
      (await db().selectFrom("waitlist_offers").select("enquiryId").where("scheduleId", "=", b4).where("status", "=", "open").execute()).map(
        (o) => o.enquiryId,
      ),
    ).toEqual([next.id]);
    expect(Number((await db().selectFrom("schedules").select("seats").where("id", "=", b4).executeTakeFirstOrThrow()).seats)).toBe(0);
  });
});

describe.runIf(MYSQL)("two app instances on one MariaDB database", () => {
  it("accepting one offer on both instances at once enrols exactly once", async () => {
    b = await launchServer({
      databaseUrl: database.url,
      uploadDir: path.join(dir, "uploads"),
      env: { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>", PUBLIC_URL: a.url },
    });
    // Fill the free seat, then one waits and a seat frees.
    const h = await call("POST", "/api/enquiries", { body: { ...lead("Hari Seated"), batchDate: BATCH_DATE } }).then((r) => r.body.data);
    expect((await setStatus(h.id, "enrolled")).status).toBe(200);
    const w = await apiJoin("Isha Waiting");
    expect((await setStatus(h.id, "closed", b.url)).status).toBe(200);
    const link = await offerLink(w.email);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => accept(link, i % 2 ? b!.url : a.url)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(await statusLines(w.id)).toEqual(["enrolled"]);
    expect(await seatsLeft()).toBe(0);
    expect((await enrolledInBatch()).length).toBe(2);
  }, 120_000);
});
