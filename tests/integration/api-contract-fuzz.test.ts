import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, apiClient, startApiServer } from "../helpers/api-server";
import { Contract, formReadings, invalidBodyArb, invalidQueryArb, queryArb, valueArb, type Hint, type Json, type Operation } from "../helpers/contract";
import { PDF, png } from "./upload-fixtures";

/**
 * Property-based contract test: fast-check sends requests generated from the OpenAPI document's own schemas to
 * every operation, as anonymous, editor, admin and bad-token callers, and checks each answer against the
 * document:
 * - never a 5xx; always a status the operation documents, with a body that matches its schema;
 * - a request the document calls valid is accepted, or refused only for a documented reason: no or the wrong
 *   credentials, an unknown id, a taken e-mail, a wrong file, or a rule the document states in words (the
 *   allow-list below names the fields);
 * - a request the document calls invalid is refused with a 4xx, never stored.
 * Every operation must reach its success path at least once. Fixed seed; FUZZ_SEED and FUZZ_RUNS override it.
 * The server runs with RATE_LIMIT=off; the signed-in admin and editor are never edited or deleted.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20260512);
const VALID_RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const INVALID_RUNS = Math.ceil(VALID_RUNS / 2);
// FUZZ_SHRINK=0 reports the first failing request as sent, without looking for a smaller one.
const END_ON_FAILURE = process.env.FUZZ_SHRINK === "0";

const server = startApiServer();
const api = apiClient(server);

let contract: Contract;
let tokens: { admin: string; editor: string; adminId: string; editorId: string };

/** Fields a request the document calls valid may still be refused on (400): rules JSON Schema cannot state, each described in the document. */
const BEYOND_SCHEMA: Record<string, string[]> = {
  // publishAt: a future date-time when the state is scheduled (its description says so).
  "POST /api/schedules": ["course", "endDate", "publishAt"],
  // totalSeats: not below the seats taken (the description says so).
  "PUT /api/schedules/{id}": ["course", "endDate", "totalSeats", "publishAt"],
  "POST /api/courses": ["image", "syllabusFile", "publishAt"],
  "PUT /api/courses/{id}": ["image", "syllabusFile", "publishAt"],
  "POST /api/reviews": ["publishAt"],
  "PUT /api/reviews/{id}": ["publishAt"],
  "PUT /api/users/{id}": ["confirmPassword"],
  "GET /api/audit-log": ["to"],
  // An existing user and batch; a follow-up date-time that reads as one (its two forms are in the description); a batch
  // of another course than the enquiry's asks for confirmCourseChange (the description says so); a fee plan that exists.
  "PUT /api/enquiries/{id}": ["assigneeId", "scheduleId", "followUpAt", "feePlanId", "confirmCourseChange"],
  // Enrolled needs a batch when the enquiry's course has upcoming batches (the description says so).
  "PUT /api/enquiries/{id}/status": ["scheduleId", "feePlanId"],
  // under18 needs a guardian's name and an e-mail other than the sender's (the description says so).
  // preferredCourse: the title of a published course (or a form's fallback title), as its description says.
  "POST /api/enquiries": ["guardianName", "guardianEmail", "preferredCourse"],
  "POST /api/contact-queries": ["guardianName", "guardianEmail"],
  // Fees: a plan's percentages add up to 100 % (or all amounts), an early-bird date has its discount, a course or
  // batch that exists; a payment needs an enrolled student (a fee account), a reference unless cash, a day not in
  // the future; a refund at most what is left; a concession at most the unbilled dues; a plan that fits the course.
  "POST /api/fee-plans": ["instalments", "earlyBirdDiscountPaise", "courseId", "scheduleId"],
  "PUT /api/fee-plans/{id}": ["instalments", "earlyBirdDiscountPaise", "courseId", "scheduleId"],
  "POST /api/enquiries/{id}/payments": ["amountPaise", "reference", "receivedOn"],
  "POST /api/enquiries/{id}/concessions": ["amountPaise"],
  "PUT /api/concessions/{id}": ["amountPaise"],
  "POST /api/payments/{id}/refunds": ["amountPaise"],
};

/** Fee operations answered 409 for a documented reason (already reversed, cancelled or decided; a form posted twice). */
const FEE_CONFLICTS = [
  "POST /api/enquiries/{id}/payments",
  "POST /api/payments/{id}/reversal",
  "POST /api/payments/{id}/refunds",
  "POST /api/invoices/{id}/credit-note",
  "PUT /api/concessions/{id}",
];
/** Staff operations only admins may complete (the description says so): an editor gets 403. */
const ADMIN_DECIDES = ["POST /api/invoices/{id}/credit-note", "PUT /api/concessions/{id}"];

/** Writes that take the version they were drawn from (If-Match or `version`): 409 edit_conflict when it is old. */
const VERSIONED_WRITES = [
  "PUT /api/enquiries/{id}",
  "PUT /api/enquiries/{id}/status",
  "PUT /api/contact-queries/{id}/status",
  "PUT /api/courses/{id}",
  "PUT /api/schedules/{id}",
  "PUT /api/reviews/{id}",
  "PUT /api/users/{id}",
  "PUT /api/settings",
  "PUT /api/fee-plans/{id}",
];

// ---------------------------------------------------------------- live ids

const POOLS = [
  "courses",
  "schedules",
  "reviews",
  "enquiries",
  "contact-queries",
  "users",
  "fee-plans",
  "enrolled",
  "payments",
  "reversible",
  "invoices",
  "concessions",
] as const;
type Pool = (typeof POOLS)[number];
const pools = Object.fromEntries(POOLS.map((p) => [p, [] as string[]])) as Record<Pool, string[]>;

function poolOf(path: string): Pool | undefined {
  if (path.startsWith("/api/auth/users") || path.startsWith("/api/users")) return "users";
  // A student's fees, payments and concessions: enrolled students (made in beforeAll), with a fee account.
  if (/^\/api\/enquiries\/\{id\}\/(fees|payments|concessions)$/.test(path)) return "enrolled";
  // Payments to reverse: apart from those refunds are made on (a refunded payment is not reversed).
  if (path === "/api/payments/{id}/reversal") return "reversible";
  return POOLS.find((p) => path.startsWith(`/api/${p}`));
}

const protectedIds = () => new Set([tokens.adminId, tokens.editorId]);

let made = 0;
const SAMPLE: Record<Exclude<Pool, "schedules" | "enrolled" | "payments" | "reversible" | "invoices" | "concessions">, () => { path: string; body: Json }> = {
  "fee-plans": () => ({ path: "/api/fee-plans", body: { name: `Fuzz plan ${++made}`, instalments: [{ label: "All", percentBp: 10000 }] } }),
  courses: () => ({ path: "/api/courses", body: { title: `Fuzz course ${++made}`, category: "advanced", description: "Made for the fuzz run." } }),
  reviews: () => ({ path: "/api/reviews", body: { name: "Fuzz", position: "Tester", image: "/images/a.png", rating: 4, course: "SOC", review: "Fine." } }),
  enquiries: () => ({
    path: "/api/enquiries",
    body: { fullName: "Fuzz", email: "fuzz@example.com", phone: "9876543210", preferredCourse: "SOC Analyst Training Program", preferredMode: "online" },
  }),
  "contact-queries": () => ({ path: "/api/contact-queries", body: { name: "Fuzz", email: "fuzz@example.com", message: "Hello" } }),
  users: () => ({ path: "/api/auth/register", body: { name: "Fuzz User", email: `fuzz-${++made}-${Date.now()}@example.com`, password: "fuzz-password-1" } }),
};

/** A live id from the pool (one the fuzz run may change or delete), making a record when none is left. */
async function liveId(pool: Pool, n: number, forWrite: boolean): Promise<string> {
  const usable = () => pools[pool].filter((id) => !(forWrite && pool === "users" && protectedIds().has(id)));
  if (!usable().length) {
    const sample =
      pool === "schedules"
        ? {
            path: "/api/schedules",
            body: {
              course: await liveId("courses", 0, false),
              startDate: "2031-01-01",
              endDate: "2031-02-01",
              time: "7 PM",
              days: "Sat",
              mode: "online",
              location: "Online",
              totalSeats: 10,
            },
          }
        : pool === "enrolled" || pool === "payments" || pool === "reversible" || pool === "invoices" || pool === "concessions"
          ? await feeSample(pool)
          : SAMPLE[pool]();
    if (!sample.path) pools[pool].push((sample.body as { id: string }).id);
    else {
      const r = await api.post(sample.path, { token: tokens.admin, json: sample.body });
      if (r.status !== 201) throw new Error(`Could not make a ${pool} record: ${r.status} ${r.text}`);
      pools[pool].push(r.body.data.id);
    }
  }
  const ids = usable();
  return ids[n % ids.length];
}

/**
 * Fee records for the fee operations' ids: an enrolled student of a course with a fee (their fee account opens, the
 * first due is invoiced), a large payment on them (refunds fit in it), a pending concession.
 */
async function feeSample(pool: "enrolled" | "payments" | "reversible" | "invoices" | "concessions"): Promise<{ path: string; body: Json }> {
  const enquiry = await api.post("/api/enquiries", {
    json: {
      fullName: `Fuzz Student ${++made}`,
      email: `fuzz.fees.${made}@example.com`,
      phone: "9876543210",
      preferredCourse: FEE_COURSE,
      preferredMode: "online",
    },
  });
  const id = enquiry.body.data.id as string;
  const enrolled = await api.put(`/api/enquiries/${id}/status`, { token: tokens.admin, json: { status: "enrolled" } });
  if (enrolled.status !== 200) throw new Error(`Could not enrol: ${enrolled.status} ${enrolled.text}`);
  if (pool === "enrolled") return { path: "", body: { id } };
  if (pool === "invoices") return { path: "", body: { id: (await api.get(`/api/enquiries/${id}/fees`, { token: tokens.admin })).body.data.invoices[0].id } };
  if (pool === "concessions") return { path: `/api/enquiries/${id}/concessions`, body: { kind: "scholarship", amountPaise: 100_000, reason: "Fuzz" } };
  return { path: `/api/enquiries/${id}/payments`, body: { method: "cash", amountPaise: 900_000_000 } };
}
const FEE_COURSE = "Fuzz Fees Course";

async function fillPools() {
  await api.post("/api/courses", { token: tokens.admin, json: { title: FEE_COURSE, category: "beginner", description: "Fees for the fuzz run.", fee: 47200 } });
  // A plan for the course whose second half is due later: concessions have unbilled dues to lower.
  await api.post("/api/fee-plans", {
    token: tokens.admin,
    json: {
      name: "Fuzz halves",
      isDefault: true,
      courseId: (await api.get("/api/courses?limit=100", { token: tokens.admin })).body.data.find((c: { title: string }) => c.title === FEE_COURSE).id,
      instalments: [
        { label: "Now", percentBp: 5000 },
        { label: "Later", percentBp: 5000, dueDays: 60 },
      ],
    },
  });
  for (const pool of ["enrolled", "payments", "reversible", "invoices", "concessions"] as const) {
    for (let i = 0; i < 6; i++) {
      const sample = await feeSample(pool);
      if (!sample.path) pools[pool].push(sample.body.id as string);
      else pools[pool].push((await api.post(sample.path, { token: tokens.admin, json: sample.body })).body.data.id);
    }
  }
  for (const pool of ["courses", "schedules", "reviews", "enquiries", "contact-queries", "users", "fee-plans"] as const) {
    const path = pool === "users" ? "/api/users" : `/api/${pool}`;
    if (pool === "fee-plans") {
      pools[pool] = ((await api.get(path, { token: tokens.admin })).body.data as { id: string }[]).map((x) => x.id);
      continue;
    }
    const r = await api.get(`${path}?limit=100`, { token: tokens.admin });
    pools[pool] = (r.body.data as { id: string }[]).map((x) => x.id);
  }
}

// ---------------------------------------------------------------- requests

type Caller = "admin" | "editor" | "anon" | "bad";
type IdChoice = { kind: "live"; n: number } | { kind: "other"; value: string };
type FileChoice = "none" | "png" | "pdf" | "remove" | "bogus";
type Request = {
  caller: Caller;
  id?: IdChoice;
  query?: Record<string, string>;
  /** A JSON value, or raw text sent as application/json. */
  body?: unknown;
  raw?: string;
  multipart?: { fields: Record<string, unknown>; image: FileChoice; syllabusFile: FileChoice; indexed: boolean };
  /** For schedules: put the dates in order, as a client that knows the rules would. */
  orderly?: boolean;
};

const COURSE_REF = "@live-course";
const USER_REF = "@live-user";
const SCHEDULE_REF = "@live-schedule";

const idArb: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 8, arbitrary: fc.nat().map((n) => ({ kind: "live" as const, n })) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom("does-not-exist", "0", "00000000-0000-0000-0000-000000000000", "x".repeat(300), "a b", "ü", "😀", "%", "'; drop table users; --"),
        fc.string({ minLength: 1, maxLength: 40 }),
      )
      .filter((v) => v !== "." && v !== ".." && !/[\ud800-\udfff]/.test(v.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")))
      .map((value) => ({ kind: "other" as const, value })),
  },
);

const hintsFor =
  (o: Operation): Hint =>
  (name) => {
    if (o.path.startsWith("/api/schedules") && name === "course")
      return fc.oneof({ weight: 9, arbitrary: fc.constant(COURSE_REF) }, { weight: 1, arbitrary: fc.constantFrom("no-such-course", "x") });
    if (o.path.startsWith("/api/courses") && (name === "image" || name === "syllabusFile"))
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom("", null) }, { weight: 1, arbitrary: fc.constant("/media/images/not-this-course.webp") });
    // An enquiry's owner and batch: mostly live ones or cleared, sometimes unknown ids.
    if (o.key === "PUT /api/enquiries/{id}" && (name === "assigneeId" || name === "scheduleId")) {
      return fc.oneof(
        { weight: 5, arbitrary: fc.constant(name === "assigneeId" ? USER_REF : SCHEDULE_REF) },
        { weight: 3, arbitrary: fc.constantFrom(null, "") },
        { weight: 1, arbitrary: fc.constant("no-such-id") },
      );
    }
    // A new enquiry's course: mostly one of the catalogue's titles (in any case), sometimes words of its own.
    if (o.key === "POST /api/enquiries" && name === "preferredCourse") {
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom("SOC Analyst Training Program", "cloud security practitioner", "CYBERSECURITY FUNDAMENTALS") },
        { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 200 }) },
      );
    }
    if (o.key === "PUT /api/enquiries/{id}" && name === "followUpAt") {
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom("2031-03-04T10:30", "2031-03-04T05:00:00Z", "2031-03-04T10:30:00+05:30", null) },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
      );
    }
    // A fee plan: instalments that add up (percentages to 100 %, or amounts with the rest last), mostly; no course or
    // batch to look up, no early-bird date without its discount. Random ones are refused for documented reasons.
    if (o.path.startsWith("/api/fee-plans") && name === "instalments") {
      return fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom(
            [{ label: "All", percentBp: 10000 }],
            [
              { label: "Deposit", amountPaise: 500000 },
              { label: "Rest", dueDays: 30 },
            ],
          ),
        },
        { weight: 1, arbitrary: fc.constant([{ label: "Half", percentBp: 5000 }]) },
      );
    }
    if (o.path.startsWith("/api/fee-plans") && (name === "courseId" || name === "scheduleId" || name === "earlyBirdUntil")) return fc.constant(null);
    return undefined;
  };

function bodyArb(o: Operation): fc.Arbitrary<Record<string, unknown>> | undefined {
  const schema = contract.bodySchema(o);
  if (!schema) return undefined;
  const generated = valueArb(contract, schema, hintsFor(o)) as fc.Arbitrary<Record<string, unknown>>;
  if (o.key === "POST /api/auth/login")
    return fc.oneof({ weight: 2, arbitrary: generated }, { weight: 1, arbitrary: fc.constant({ email: ADMIN.email, password: ADMIN.password }) });
  return generated;
}

function multipartArb(o: Operation): fc.Arbitrary<Request["multipart"]> | undefined {
  const schema = contract.bodySchema(o, "multipart/form-data");
  if (!schema) return undefined;
  const resolved = contract.resolve(schema);
  const { image: _image, syllabusFile: _file, ...properties } = resolved.properties;
  const fields = valueArb(contract, { ...resolved, properties }, hintsFor(o)) as fc.Arbitrary<Record<string, unknown>>;
  const file = fc.constantFrom<FileChoice>("none", "none", "png", "pdf", "remove", "bogus");
  return fc.record({ fields, image: file, syllabusFile: file, indexed: fc.boolean() });
}

function validRequestArb(o: Operation): fc.Arbitrary<Request> {
  const caller = fc.constantFrom<Caller>("admin", "admin", "admin", "admin", "editor", "anon", "bad");
  const parts: Record<string, fc.Arbitrary<unknown>> = { caller, orderly: fc.boolean() };
  if (o.path.includes("{id}")) parts.id = idArb;
  if (contract.queryParams(o).length) parts.query = queryArb(contract, o);
  const json = bodyArb(o);
  const multipart = multipartArb(o);
  if (json && multipart) {
    return fc
      .record(parts)
      .chain((base) =>
        fc.oneof(
          { weight: 2, arbitrary: json.map((body) => ({ ...base, body }) as Request) },
          { weight: 1, arbitrary: multipart.map((m) => ({ ...base, multipart: m }) as Request) },
        ),
      );
  }
  if (json) parts.body = json;
  return fc.record(parts) as fc.Arbitrary<Request>;
}

function invalidRequestArb(o: Operation): fc.Arbitrary<Request> | undefined {
  const caller = fc.constantFrom<Caller>("admin", "admin", "admin", "editor");
  const id = o.path.includes("{id}") ? fc.nat().map((n) => ({ kind: "live" as const, n })) : fc.constant(undefined);
  const json = bodyArb(o);
  if (json) {
    const broken = fc.oneof(
      { weight: 9, arbitrary: invalidBodyArb(contract, o, json).map((body) => ({ body })) },
      { weight: 1, arbitrary: fc.constantFrom({ raw: '{"title": ' }, { raw: "not json" }) },
    );
    return fc.record({ caller, id, broken }).map(({ broken: b, ...rest }) => ({ ...rest, ...b }) as Request);
  }
  const query = invalidQueryArb(contract, o);
  if (query) return fc.record({ caller, id, query }) as fc.Arbitrary<Request>;
  return undefined;
}

let sessionMade = 0;
async function tokenFor(caller: Caller, o: Operation): Promise<string | undefined> {
  if (caller === "anon") return undefined;
  if (caller === "bad") return "not-a-valid-token";
  // Signing out ends the token sent: sign out a fresh one, never the run's own.
  if (o.key === "POST /api/auth/logout") {
    sessionMade++;
    if (caller === "admin") return api.login(ADMIN.email, ADMIN.password);
    return (await api.post("/api/auth/login", { json: { email: editorEmail, password: "editor-password-1" } })).body.token;
  }
  return caller === "admin" ? tokens.admin : tokens.editor;
}
let editorEmail = "";

type Sent = { status: number; contentType: string | null; text: string; json: Json; bytes: number; id?: string; bogusFile: boolean };

let requests = 0;
let previous = "";

async function send(o: Operation, req: Request): Promise<Sent> {
  const pool = poolOf(o.path);
  const writes = o.method === "PUT" || o.method === "DELETE";
  let id: string | undefined;
  if (req.id) id = req.id.kind === "live" ? await liveId(pool!, req.id.n, writes) : req.id.value;
  if (id !== undefined && writes && pool === "users" && protectedIds().has(id)) id = await liveId("users", 0, true);
  let url = o.path.replace("{id}", encodeURIComponent(id ?? ""));
  if (req.query && Object.keys(req.query).length) url += `?${new URLSearchParams(req.query)}`;

  const headers: Record<string, string> = {};
  const token = await tokenFor(req.caller, o);
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  let bytes = 0;
  let bogusFile = false;
  if (req.raw !== undefined) {
    headers["Content-Type"] = "application/json";
    body = req.raw;
  } else if (req.body !== undefined) {
    let value = req.body;
    if (value && typeof value === "object" && !Array.isArray(value)) value = await settle(o, { ...(value as Record<string, unknown>) }, req.orderly ?? false);
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(value);
    bytes = Buffer.byteLength(body);
  } else if (req.multipart) {
    const m = req.multipart;
    const problems = contract.checkBody(o, m.fields, "multipart/form-data");
    if (problems.length) throw new Error(`Generated an invalid multipart body for ${o.key}: ${problems.join("; ")}`);
    const form = new FormData();
    for (const [name, value] of Object.entries(m.fields)) {
      // A form has no null: a client leaves the field out (a course's fee: "Fee on request").
      if (value === null) continue;
      if (Array.isArray(value)) value.forEach((v, i) => form.append(m.indexed ? `${name}[${i}]` : name, String(v)));
      else form.append(name, String(value));
    }
    for (const field of ["image", "syllabusFile"] as const) {
      const choice = m[field];
      if (choice === "remove") form.append(field, "");
      else if (choice === "png") form.append(field, new Blob([new Uint8Array(await png())], { type: "image/png" }), "cover.png");
      else if (choice === "pdf") form.append(field, new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "syllabus.pdf");
      else if (choice === "bogus") {
        bogusFile = true;
        form.append(field, new Blob(["just some text"], { type: "text/plain" }), "notes.txt");
      }
    }
    // An image in the syllabus field (or a PDF in the image field) is a wrong file too.
    if ((m.image === "pdf" || m.syllabusFile === "png") && !bogusFile) bogusFile = true;
    body = form;
  }
  let res: Response;
  try {
    res = await fetch(`${server.url}${url}`, { method: o.method, headers, body, redirect: "manual" });
  } catch (error) {
    // A reset connection may come from the request before this one (a connection the server left unusable).
    throw new Error(`${o.key} ${url.slice(0, 200)}: ${String((error as Error).cause ?? error)}; the request before: ${previous}`);
  }
  previous = `${o.key} ${url.slice(0, 200)} → ${res.status} (${bytes} bytes sent)`;
  requests++;
  const text = await res.text();
  const contentType = res.headers.get("content-type");
  let json: Json;
  if ((contentType ?? "").includes("json") && text) json = JSON.parse(text);
  return { status: res.status, contentType, text, json, bytes, id, bogusFile };
}

/** The live parts of a valid body: a schedule names an existing course; an orderly client keeps the dates in order and sends no made-up version. */
async function settle(o: Operation, body: Record<string, unknown>, orderly: boolean): Promise<Record<string, unknown>> {
  if (body.course === COURSE_REF) body.course = await liveId("courses", 0, false);
  if (body.assigneeId === USER_REF) body.assigneeId = tokens.editorId;
  if (body.scheduleId === SCHEDULE_REF) body.scheduleId = await liveId("schedules", 0, false);
  if (orderly && o.path.startsWith("/api/schedules")) {
    if (typeof body.startDate === "string" && typeof body.endDate === "string" && body.endDate < body.startDate)
      [body.startDate, body.endDate] = [body.endDate, body.startDate];
  }
  if (orderly && o.key === "PUT /api/users/{id}" && typeof body.password === "string" && "confirmPassword" in body) body.confirmPassword = body.password;
  // An orderly client sends back only a version it read (a made-up one is a 409 edit_conflict, as documented).
  if (orderly && VERSIONED_WRITES.includes(o.key)) delete body.version;
  return body;
}

/** Keeps the pools in step with what the server now holds. */
function track(o: Operation, sent: Sent) {
  const pool = poolOf(o.path);
  if (!pool) return;
  // A note made under an enquiry is not an enquiry.
  if (sent.status === 201 && sent.json?.data?.id && !o.path.includes("{id}")) pools[pool].push(sent.json.data.id);
  if (o.method === "DELETE" && (sent.status === 204 || sent.status === 404) && sent.id) {
    pools[pool] = pools[pool].filter((x) => x !== sent.id);
    // A course takes its batches with it.
    if (pool === "courses") pools.schedules = [];
  }
}

// ---------------------------------------------------------------- checks

type Tally = { valid: number; invalid: number; ok: number; statuses: Record<number, number> };
const tally = new Map<string, Tally>();
const count = (o: Operation, kind: "valid" | "invalid", status: number) => {
  const t = tally.get(o.key) ?? { valid: 0, invalid: 0, ok: 0, statuses: {} };
  t[kind]++;
  if (kind === "valid" && status < 300) t.ok++;
  t.statuses[status] = (t.statuses[status] ?? 0) + 1;
  tally.set(o.key, t);
};

const describeRequest = (o: Operation, req: Request, sent: Sent) =>
  `${o.key} as ${req.caller}${sent.id !== undefined ? ` id=${sent.id.slice(0, 60)}` : ""} query=${JSON.stringify(req.query ?? {})} → ${sent.status} ${sent.text.slice(0, 300)}`;

function expectDocumented(o: Operation, req: Request, sent: Sent) {
  const where = describeRequest(o, req, sent);
  expect(sent.status, `5xx: ${where}`).toBeLessThan(500);
  expect(contract.checkResponse(o, sent.status, sent.contentType, sent.text), where).toEqual([]);
}

/** Why a request the document calls valid may be refused, if it is refused. */
function expectValidOutcome(o: Operation, req: Request, sent: Sent) {
  const where = describeRequest(o, req, sent);
  const staffOnly = o.op.security === undefined;
  const adminOnly = typeof o.op.description === "string" && o.op.description.startsWith("Admins only.");
  const login = o.key === "POST /api/auth/login";
  if (req.caller === "bad" && !login) return expect(sent.status, where).toBe(401);
  if (req.caller === "anon" && staffOnly) return expect(sent.status, where).toBe(401);
  if (req.caller === "editor" && adminOnly) return expect(sent.status, where).toBe(403);
  if (sent.status < 300) return;
  const reasons: boolean[] = [
    sent.status === 404 && o.path.includes("{id}"),
    sent.status === 401 && login,
    sent.status === 409 && (o.key === "POST /api/auth/register" || o.key === "PUT /api/users/{id}"),
    // Enrolled takes a seat of the enquiry's batch, which may be full.
    sent.status === 409 && (o.key === "PUT /api/enquiries/{id}" || o.key === "PUT /api/enquiries/{id}/status") && sent.json?.error?.code === "batch_full",
    // A version (or If-Match) older than the stored one: the write is refused, nothing overwritten.
    sent.status === 409 && VERSIONED_WRITES.includes(o.key) && sent.json?.error?.code === "edit_conflict",
    sent.status === 403 && o.key === "PUT /api/users/{id}" && req.caller === "editor",
    sent.status === 403 && ADMIN_DECIDES.includes(o.key) && req.caller === "editor",
    sent.status === 409 && FEE_CONFLICTS.includes(o.key),
    sent.status === 413 && sent.bytes > 1024 * 1024,
    sent.status === 415 && sent.bogusFile,
    sent.status === 400 && Object.keys(sent.json?.error?.fields ?? { body: "" }).every((f) => (BEYOND_SCHEMA[o.key] ?? []).includes(f)),
  ];
  expect(reasons.some(Boolean), `a valid request was refused: ${where}`).toBe(true);
}

// ---------------------------------------------------------------- the run

let started = 0;
beforeAll(async () => {
  started = performance.now();
  tokens = await api.staffTokens();
  editorEmail = (await api.get(`/api/users/${tokens.editorId}`, { token: tokens.admin })).body.data.email;
  contract = new Contract((await api.get("/api/openapi.json")).body);
  await fillPools();
});

// The document is fetched in beforeAll, after the tests are collected: the operations are listed here, and the
// first test checks the list is the document's. Reads first, then creates and changes, deletes last.
const ORDER = ["GET", "POST", "PUT", "DELETE"];
const OPERATIONS = [
  "GET /api/courses",
  "GET /api/courses/{id}",
  "GET /api/schedules",
  "GET /api/schedules/{id}",
  "GET /api/reviews",
  "GET /api/reviews/{id}",
  "GET /api/enquiries",
  "GET /api/enquiries/{id}",
  "GET /api/contact-queries",
  "GET /api/contact-queries/{id}",
  "GET /api/auth/me",
  "GET /api/auth/users/{id}",
  "GET /api/audit-log",
  "GET /api/users",
  "GET /api/users/{id}",
  "GET /api/enquiries/{id}/timeline",
  "GET /api/outbox",
  "GET /api/settings",
  "GET /api/contact-queries/{id}/timeline",
  "GET /api/fee-plans",
  "GET /api/fee-plans/{id}",
  "GET /api/enquiries/{id}/fees",
  "GET /api/dues",
  "GET /api/invoices",
  "GET /api/invoices/{id}",
  "GET /api/payments",
  "GET /api/payments/{id}",
  "GET /api/refunds",
  "POST /api/fee-plans",
  "POST /api/enquiries/{id}/payments",
  "POST /api/enquiries/{id}/concessions",
  "POST /api/invoices/{id}/credit-note",
  // Refunds before reversals: a reversed payment takes no refund.
  "POST /api/payments/{id}/refunds",
  "POST /api/payments/{id}/reversal",
  "PUT /api/fee-plans/{id}",
  "PUT /api/concessions/{id}",
  "DELETE /api/fee-plans/{id}",
  "POST /api/enquiries/{id}/notes",
  "POST /api/contact-queries/{id}/notes",
  "POST /api/courses",
  "POST /api/schedules",
  "POST /api/reviews",
  "POST /api/enquiries",
  "POST /api/contact-queries",
  "POST /api/auth/login",
  "POST /api/auth/register",
  "POST /api/auth/logout",
  "POST /api/people/erase",
  "PUT /api/courses/{id}",
  "PUT /api/schedules/{id}",
  "PUT /api/reviews/{id}",
  "PUT /api/reviews/{id}/approve",
  "PUT /api/enquiries/{id}",
  "PUT /api/enquiries/{id}/status",
  "PUT /api/contact-queries/{id}/status",
  "PUT /api/users/{id}",
  "PUT /api/settings",
  "DELETE /api/courses/{id}",
  "DELETE /api/schedules/{id}",
  "DELETE /api/reviews/{id}",
  "DELETE /api/enquiries/{id}",
  "DELETE /api/contact-queries/{id}",
  "DELETE /api/users/{id}",
].sort((a, b) => ORDER.indexOf(a.split(" ")[0]) - ORDER.indexOf(b.split(" ")[0]));

describe("every operation, with requests generated from the document", () => {
  it("the list of operations here is the document's", () => {
    expect(new Set(OPERATIONS)).toEqual(new Set(contract.operations().map((o) => o.key)));
  });

  OPERATIONS.forEach((key, index) => {
    it(`${key}: valid requests succeed or are refused for a documented reason; invalid ones get a 4xx`, async () => {
      const o = contract.operation(key);
      await fc.assert(
        fc.asyncProperty(validRequestArb(o), async (req) => {
          if (req.body !== undefined && req.body !== null && typeof req.body === "object") {
            const problems = contract.checkBody(o, req.body);
            if (problems.length) throw new Error(`Generated an invalid body for ${key}: ${problems.join("; ")} ${JSON.stringify(req.body).slice(0, 300)}`);
          }
          const sent = await send(o, req);
          count(o, "valid", sent.status);
          track(o, sent);
          expectDocumented(o, req, sent);
          expectValidOutcome(o, req, sent);
        }),
        { seed: SEED + index, numRuns: VALID_RUNS, endOnFailure: END_ON_FAILURE },
      );
      const invalid = invalidRequestArb(o);
      if (invalid) {
        await fc.assert(
          fc.asyncProperty(invalid, async (req) => {
            const sent = await send(o, req);
            count(o, "invalid", sent.status);
            track(o, sent);
            expectDocumented(o, req, sent);
            const where = describeRequest(o, req, sent);
            expect(sent.status, `an invalid request was not refused: ${where}`).toBeGreaterThanOrEqual(400);
            expect(sent.status, where).toBeLessThan(500);
            if (req.caller === "admin") expect([400, 404, 413], where).toContain(sent.status);
          }),
          { seed: SEED + 1000 + index, numRuns: INVALID_RUNS, endOnFailure: END_ON_FAILURE },
        );
      }
      expect(tally.get(key)?.ok ?? 0, `${key} never reached its success path: ${JSON.stringify(tally.get(key))}`).toBeGreaterThan(0);
    }, 240_000);
  });

  it('refuses in JSON, naming the field, every form reading the document refuses: "", a text for a list, null entries, too many entries', async () => {
    const missed: string[] = [];
    let tried = 0;
    for (const key of OPERATIONS) {
      const o = contract.operation(key);
      const json = bodyArb(o);
      if (!json) continue;
      // One valid body per operation (fixed seed), as a client that knows the rules beyond the schema sends it
      // (dates and seats in order, published now), then each reading in one field of it.
      const [sampled] = fc.sample(json, { seed: SEED, numRuns: 1 });
      const { state: _state, publishAt: _publishAt, ...base } = await settle(o, { ...sampled }, true);
      for (const { field, value } of formReadings(contract, o)) {
        const body = { ...base, [field]: value };
        if (!contract.checkBody(o, body).length) continue;
        const id = o.path.includes("{id}") ? ({ kind: "live", n: 0 } as const) : undefined;
        const sent = await send(o, { caller: "admin", id, body });
        tried++;
        expectDocumented(o, { caller: "admin", body }, sent);
        const fields = Object.keys(sent.json?.error?.fields ?? {});
        const named = fields.some((f) => f === field || f.startsWith(`${field}[`) || f.startsWith(`${field}.`));
        if (sent.status !== 400 || !named) missed.push(`${key} ${field}=${JSON.stringify(value)} → ${sent.status} ${sent.text.slice(0, 160)}`);
        track(o, sent);
      }
    }
    expect(tried).toBeGreaterThan(100);
    expect(missed).toEqual([]);
  }, 240_000);

  it("left the signed-in admin an admin who can sign in", async () => {
    const me = await api.get("/api/auth/me", { token: await api.login(ADMIN.email, ADMIN.password) });
    expect(me.body.data).toMatchObject({ id: tokens.adminId, role: "admin" });
  });
});

afterAll(() => {
  if (!tally.size) return;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const lines = [...tally].map(
    ([key, t]) =>
      `${key.padEnd(40)} valid ${String(t.valid).padStart(3)} (2xx ${String(t.ok).padStart(3)})  invalid ${String(t.invalid).padStart(3)}  ${JSON.stringify(t.statuses)}`,
  );
  console.log(`Contract fuzz: seed ${SEED}, ${requests} requests (plus ${sessionMade} sign-ins for sign-out) in ${seconds} s\n${lines.join("\n")}`);
});
