import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, db, openDb } from "~db/client.server";
import { ADMIN, ensureBuilt, freshDatabase, launchServer, type RunningServer, signInCookie } from "../helpers/api-server";
import { freePort } from "../helpers/ports";
import { startHaproxy, type Proxy } from "../helpers/haproxy";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";

/**
 * Two instances of the production build on one MariaDB database and one shared upload folder, behind a real
 * HAProxy (round-robin, health checks on /healthz): nothing that must be shared lives in one process. Runs with
 * the MySQL suite (`npm run test:mysql`, which CI runs); SQLite is one file for one process.
 */
const MYSQL = process.env.TEST_MYSQL_URL;

describe.runIf(MYSQL)("two instances behind HAProxy on one MariaDB database", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-two-"));
  const uploadDir = path.join(dir, "uploads");
  let database: { url: string; drop: () => Promise<void> };
  let proxy: Proxy;
  let smtp: SmtpSink;
  const ports = { a: 0, b: 0, proxy: 0 };
  const servers: Record<"a" | "b", RunningServer | null> = { a: null, b: null };
  let env: Record<string, string> = {};
  const url = (name: "a" | "b") => `http://127.0.0.1:${ports[name]}`;
  const launch = (name: "a" | "b") => launchServer({ databaseUrl: database.url, uploadDir, env, port: ports[name] }).then((s) => (servers[name] = s));

  beforeAll(async () => {
    await ensureBuilt();
    database = await freshDatabase(dir);
    smtp = await startSmtpSink();
    ports.a = await freePort();
    ports.b = await freePort();
    ports.proxy = await freePort();
    env = {
      PUBLIC_URL: `http://127.0.0.1:${ports.proxy}`,
      TRUST_PROXY: "true",
      RATE_LIMIT: "on",
      FORM_RATE_LIMIT: "3",
      SHUTDOWN_DRAIN_SECONDS: "2",
      // Both outbox workers deliver to one real SMTP server: each message must arrive once.
      SMTP_URL: smtp.url,
      MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>",
      NOTIFY_EMAIL: "desk@cybersoc.test",
    };
    // Both at once, on an empty database.
    await Promise.all([launch("a"), launch("b")]);
    proxy = await startHaproxy(ports.proxy, [
      { name: "a", port: ports.a },
      { name: "b", port: ports.b },
    ]);
    await openDb(database.url);
  }, 240_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([servers.a?.stop(), servers.b?.stop()]);
    await smtp?.stop();
    await closeDb();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const json = async (base: string, method: string, p: string, opts: { token?: string; cookie?: string; body?: unknown; origin?: boolean } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.Cookie = opts.cookie;
    if (opts.origin) headers.Origin = env.PUBLIC_URL;
    if (opts.body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`${base}${p}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), redirect: "manual" });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text };
  };
  const login = async (base: string, password = ADMIN.password) =>
    (await json(base, "POST", "/api/auth/login", { body: { email: ADMIN.email, password } })).body.token as string;

  it("started together on an empty database, they migrated, seeded and made the first admin once", async () => {
    const logs = [servers.a!.output(), servers.b!.output()];
    expect(logs.filter((l) => l.includes("Applied migrations")).length).toBe(1);
    expect(logs.filter((l) => l.includes("Seeded demo content")).length).toBe(1);
    expect(
      Number(
        (
          await db()
            .selectFrom("users")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(1);
    expect(
      Number(
        (
          await db()
            .selectFrom("courses")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(5);
  });

  it("a session made on A works on B, and signing out on B ends it on A", async () => {
    const cookie = await signInCookie(url("a"));
    expect((await fetch(`${url("b")}/admin/courses`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(200);
    const out = await fetch(`${url("b")}/admin/logout`, { method: "POST", headers: { Cookie: cookie, Origin: url("b") }, redirect: "manual" });
    expect(out.status).toBe(302);
    expect((await fetch(`${url("a")}/admin/courses`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(302);
  });

  it("a password change on A ends the user's tokens on B", async () => {
    const token = await login(url("a"));
    expect((await json(url("b"), "GET", "/api/auth/me", { token })).status).toBe(200);
    const me = (await json(url("a"), "GET", "/api/auth/me", { token })).body.data.id;
    const changed = await json(url("a"), "PUT", `/api/users/${me}`, { token, body: { currentPassword: ADMIN.password, password: "two-instance-pass-1" } });
    expect(changed.status).toBe(200);
    expect((await json(url("b"), "GET", "/api/auth/me", { token })).status).toBe(401);
    expect((await json(url("b"), "GET", "/api/auth/me", { token: changed.body.token })).status).toBe(200);
    const back = await json(url("b"), "PUT", `/api/users/${me}`, {
      token: changed.body.token,
      body: { currentPassword: "two-instance-pass-1", password: ADMIN.password },
    });
    expect(back.status).toBe(200);
  });

  it("the form rate limit counts across both instances", async () => {
    const post = (base: string) => json(base, "POST", "/api/contact-queries", { body: { name: "Shared Limit", email: "limit@example.com", message: "Hello" } });
    expect((await post(url("a"))).status).toBe(201);
    expect((await post(url("b"))).status).toBe(201);
    expect((await post(url("a"))).status).toBe(201);
    const fourth = await post(url("b"));
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a course image uploaded through A is served by B", async () => {
    const token = await login(url("a"));
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("title", "Shared Storage Course");
    form.append("category", "advanced");
    form.append("description", "Stored once, served anywhere");
    form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "cover.png");
    const made = await fetch(`${url("a")}/api/courses`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(made.status).toBe(201);
    const image = ((await made.json()) as { data: { image: string } }).data.image;
    const fromB = await fetch(`${url("b")}${image}`);
    expect([fromB.status, fromB.headers.get("content-type")]).toEqual([200, "image/webp"]);
    expect((await sharp(Buffer.from(await fromB.arrayBuffer())).metadata()).width).toBe(40);
  });

  it("a course edit through A shows on B's public pages within one second", async () => {
    const token = await login(url("a"));
    const course = (await json(url("b"), "GET", "/api/courses")).body.data[0];
    // B has the page in its page cache before the edit.
    expect(await (await fetch(`${url("b")}/courses`)).text()).toContain(course.title);
    expect((await fetch(`${url("b")}/courses`)).headers.get("x-page-cache")).toBe("hit");
    const title = `Edited Through A ${Date.now()}`;
    const put = await json(url("a"), "PUT", `/api/courses/${course.id}`, {
      token,
      body: { title, category: course.category, description: course.description },
    });
    expect(put.status).toBe(200);
    const deadline = Date.now() + 1000;
    let html = "";
    do {
      html = await (await fetch(`${url("b")}/courses`)).text();
      if (html.includes(title)) break;
      await new Promise((r) => setTimeout(r, 50));
    } while (Date.now() < deadline);
    expect(html).toContain(title);
  });

  it("a rolling restart of A then B under load answers every request, loses no acknowledged enquiry and mails each one once", async () => {
    const token = await login(proxy.url);
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let sent = 0;
    let running = true;
    const worker = async (n: number) => {
      for (let i = 0; running; i++) {
        const kind = (n + i) % 3;
        sent++;
        try {
          if (kind === 2) {
            // A staff token: integrations are not counted against the visitors' form limit.
            const r = await json(proxy.url, "POST", "/api/enquiries", {
              token,
              body: {
                fullName: `Rolling ${n}-${i}`,
                email: `rolling${n}x${i}@example.com`,
                phone: "9123456789",
                preferredCourse: "SOC Analyst Training Program",
                preferredMode: "online",
              },
            });
            if (r.status === 201) acknowledged.push(r.body.data.id);
            else failures.push(`POST ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          } else {
            const r = await fetch(`${proxy.url}${kind === 0 ? "/" : "/api/courses"}`);
            await r.arrayBuffer();
            if (r.status !== 200) failures.push(`GET ${r.status}`);
          }
        } catch (error) {
          failures.push(`network: ${(error as Error).message}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 20 }, (_, n) => worker(n)));
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await pause(2000);
    for (const name of ["a", "b"] as const) {
      await servers[name]!.stop(); // SIGTERM: drains (healthz 503), then closes
      await launch(name);
      await pause(2000); // HAProxy sees it healthy again (rise 2 × 500 ms)
    }
    await pause(2000);
    running = false;
    await load;
    const stored = await db()
      .selectFrom("enquiries")
      .select("id")
      .where("id", "in", acknowledged.length ? acknowledged : [""])
      .execute();
    console.log(
      `rolling restart: ${sent} requests, ${failures.length} failed, ${acknowledged.length} enquiries acknowledged, ${acknowledged.length - stored.length} lost`,
    );
    if (failures.length) console.log(proxy.output());
    expect(failures).toEqual([]);
    expect(stored.length).toBe(acknowledged.length);
    expect(acknowledged.length).toBeGreaterThan(20);

    // Every acknowledged enquiry's acknowledgement reaches the visitor exactly once, whichever instance took
    // it, and whichever delivered it while the other was restarting.
    const isAck = (to: string[]) => to.some((a) => a.startsWith("rolling"));
    await smtp.waitFor((m) => isAck(m.envelope.to), acknowledged.length, 90_000);
    await new Promise((r) => setTimeout(r, 2000)); // a late duplicate would arrive by now
    const acks = smtp.received.filter((m) => isAck(m.envelope.to));
    const perVisitor = new Map<string, number>();
    for (const m of acks) perVisitor.set(m.envelope.to[0], (perVisitor.get(m.envelope.to[0]) ?? 0) + 1);
    expect([...perVisitor.values()].filter((n) => n !== 1)).toEqual([]);
    expect(perVisitor.size).toBe(acknowledged.length);
    const alerts = smtp.received.filter((m) => m.envelope.to.includes("desk@cybersoc.test") && m.parsed.subject?.startsWith("New enquiry: Rolling"));
    expect(new Set(alerts.map((m) => m.parsed.messageId)).size).toBe(alerts.length);
    expect(alerts.length).toBe(acknowledged.length);
  }, 240_000);
});
