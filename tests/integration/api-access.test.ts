import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, apiClient, startApiServer } from "../helpers/api-server";

// Every route × {anonymous, editor, admin}, the error shape for bad requests, and the OpenAPI document.
const server = startApiServer();
const api = apiClient(server);

type Role = "anon" | "editor" | "admin";
let tokens: Record<Role, string | undefined>;
let ids: { course: string; approved: string; pending: string };

beforeAll(async () => {
  const { admin, editor } = await api.staffTokens();
  tokens = { anon: undefined, editor, admin };
  const reviews = (await api.get("/api/reviews?limit=100", { token: admin })).body.data as { id: string; approved: boolean }[];
  ids = {
    course: (await api.get("/api/courses")).body.data[0].id,
    approved: reviews.find((r) => r.approved)!.id,
    pending: reviews.find((r) => !r.approved)!.id,
  };
});

const adminGet = async (p: string) => (await api.get(p, { token: tokens.admin })).text;
const course = () => ({ title: "Matrix Course", category: "advanced", description: "For the access matrix." });
const batch = () => ({
  course: ids.course,
  startDate: "2032-01-01",
  endDate: "2032-02-01",
  time: "7 PM",
  days: "Sat",
  mode: "offline",
  location: "Campus",
  seats: 1,
  totalSeats: 2,
});
const review = () => ({ name: "Matrix", position: "Tester", image: "/images/a.png", rating: 4, course: "SOC", review: "Fine." });
const enquiry = () => ({
  fullName: "Matrix",
  email: "m@example.com",
  phone: "9999999999",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online",
});
const plan = () => ({ name: `Matrix plan ${++n}`, instalments: [{ label: "All", percentBp: 10000 }] });
/** An id no record has. */
const MISSING = "00000000-0000-7000-8000-000000000000";
const contact = () => ({ name: "Matrix", email: "m@example.com", message: "Hello" });
let n = 0;
const user = () => ({ name: "Matrix User", email: `matrix-${++n}-${Date.now()}@example.com`, password: "matrix-password-1" });

async function make(p: string, body: unknown): Promise<string> {
  const r = await api.post(p, { token: tokens.admin, json: body });
  if (r.status !== 201) throw new Error(`${p}: ${r.status} ${r.text}`);
  return r.body.data.id;
}

type Row = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  route: string;
  /** The path, made fresh per call when the call changes or removes its target. */
  path: () => string | Promise<string>;
  body?: () => unknown;
  expect: Record<Role, number>;
  /** What a refused call must leave unchanged (read by an admin). */
  state?: (p: string) => string;
  /** Fresh tokens for this row, when the call uses its token up (sign-out). */
  tokens?: () => Promise<Record<Role, string | undefined>>;
};
const open = { anon: 200, editor: 200, admin: 200 };
const staffRead = { anon: 401, editor: 200, admin: 200 };
const staffWrite = (ok: number) => ({ anon: 401, editor: ok, admin: ok });
const adminOnly = (ok: number) => ({ anon: 401, editor: 403, admin: ok });
const self = (p: string) => p.replace(/\/(approve|status)$/, "");

const ROWS: Row[] = [
  { method: "GET", route: "/api/courses", path: () => "/api/courses", expect: open },
  { method: "GET", route: "/api/courses/:id", path: () => `/api/courses/${ids.course}`, expect: open },
  { method: "POST", route: "/api/courses", path: () => "/api/courses", body: course, expect: staffWrite(201), state: () => "/api/courses?limit=100" },
  {
    method: "PUT",
    route: "/api/courses/:id",
    path: async () => `/api/courses/${await make("/api/courses", course())}`,
    body: () => ({ ...course(), title: "Changed" }),
    expect: staffWrite(200),
    state: self,
  },
  {
    method: "DELETE",
    route: "/api/courses/:id",
    path: async () => `/api/courses/${await make("/api/courses", course())}`,
    expect: staffWrite(204),
    state: self,
  },
  { method: "GET", route: "/api/schedules", path: () => "/api/schedules", expect: open },
  { method: "GET", route: "/api/schedules/:id", path: async () => `/api/schedules/${await make("/api/schedules", batch())}`, expect: open },
  { method: "POST", route: "/api/schedules", path: () => "/api/schedules", body: batch, expect: staffWrite(201), state: () => "/api/schedules?limit=100" },
  {
    method: "PUT",
    route: "/api/schedules/:id",
    path: async () => `/api/schedules/${await make("/api/schedules", batch())}`,
    body: () => ({ ...batch(), seats: 0 }),
    expect: staffWrite(200),
    state: self,
  },
  {
    method: "DELETE",
    route: "/api/schedules/:id",
    path: async () => `/api/schedules/${await make("/api/schedules", batch())}`,
    expect: staffWrite(204),
    state: self,
  },
  { method: "GET", route: "/api/reviews", path: () => "/api/reviews", expect: open },
  { method: "GET", route: "/api/reviews/:id", path: () => `/api/reviews/${ids.approved}`, expect: open },
  { method: "GET", route: "/api/reviews/:id", path: () => `/api/reviews/${ids.pending}`, expect: { anon: 404, editor: 200, admin: 200 } },
  { method: "POST", route: "/api/reviews", path: () => "/api/reviews", body: review, expect: staffWrite(201), state: () => "/api/reviews?limit=100" },
  {
    method: "PUT",
    route: "/api/reviews/:id",
    path: async () => `/api/reviews/${await make("/api/reviews", review())}`,
    body: () => ({ ...review(), rating: 1 }),
    expect: staffWrite(200),
    state: self,
  },
  {
    method: "PUT",
    route: "/api/reviews/:id/approve",
    path: async () => `/api/reviews/${await make("/api/reviews", review())}/approve`,
    expect: staffWrite(200),
    state: self,
  },
  {
    method: "DELETE",
    route: "/api/reviews/:id",
    path: async () => `/api/reviews/${await make("/api/reviews", review())}`,
    expect: staffWrite(204),
    state: self,
  },
  { method: "GET", route: "/api/enquiries", path: () => "/api/enquiries", expect: staffRead },
  { method: "GET", route: "/api/enquiries/:id", path: async () => `/api/enquiries/${await make("/api/enquiries", enquiry())}`, expect: staffRead },
  { method: "POST", route: "/api/enquiries", path: () => "/api/enquiries", body: enquiry, expect: { anon: 201, editor: 201, admin: 201 } },
  {
    method: "PUT",
    route: "/api/enquiries/:id",
    path: async () => `/api/enquiries/${await make("/api/enquiries", enquiry())}`,
    body: () => ({ ...enquiry(), fullName: "Changed" }),
    expect: staffWrite(200),
    state: self,
  },
  {
    method: "PUT",
    route: "/api/enquiries/:id/status",
    path: async () => `/api/enquiries/${await make("/api/enquiries", enquiry())}/status`,
    body: () => ({ status: "closed" }),
    expect: staffWrite(200),
    state: self,
  },
  {
    method: "DELETE",
    route: "/api/enquiries/:id",
    path: async () => `/api/enquiries/${await make("/api/enquiries", enquiry())}`,
    expect: staffWrite(204),
    state: self,
  },
  {
    method: "GET",
    route: "/api/enquiries/:id/timeline",
    path: async () => `/api/enquiries/${await make("/api/enquiries", enquiry())}/timeline`,
    expect: staffRead,
  },
  {
    method: "POST",
    route: "/api/enquiries/:id/notes",
    path: async () => `/api/enquiries/${await make("/api/enquiries", enquiry())}/notes`,
    body: () => ({ text: "A note" }),
    expect: staffWrite(201),
    state: (p) => p.replace(/notes$/, "timeline"),
  },
  { method: "POST", route: "/api/contact-queries", path: () => "/api/contact-queries", body: contact, expect: { anon: 201, editor: 201, admin: 201 } },
  {
    method: "GET",
    route: "/api/contact-queries/:id/timeline",
    path: async () => `/api/contact-queries/${await make("/api/contact-queries", contact())}/timeline`,
    expect: staffRead,
  },
  {
    method: "POST",
    route: "/api/contact-queries/:id/notes",
    path: async () => `/api/contact-queries/${await make("/api/contact-queries", contact())}/notes`,
    body: () => ({ text: "A note" }),
    expect: staffWrite(201),
    state: (p) => p.replace(/notes$/, "timeline"),
  },
  { method: "GET", route: "/api/contact-queries", path: () => "/api/contact-queries", expect: staffRead },
  {
    method: "GET",
    route: "/api/contact-queries/:id",
    path: async () => `/api/contact-queries/${await make("/api/contact-queries", contact())}`,
    expect: staffRead,
  },
  {
    method: "PUT",
    route: "/api/contact-queries/:id/status",
    path: async () => `/api/contact-queries/${await make("/api/contact-queries", contact())}/status`,
    body: () => ({ status: "closed" }),
    expect: staffWrite(200),
    state: self,
  },
  {
    method: "DELETE",
    route: "/api/contact-queries/:id",
    path: async () => `/api/contact-queries/${await make("/api/contact-queries", contact())}`,
    expect: staffWrite(204),
    state: self,
  },
  { method: "POST", route: "/api/auth/login", path: () => "/api/auth/login", body: () => ({ email: ADMIN.email, password: ADMIN.password }), expect: open },
  { method: "POST", route: "/api/auth/register", path: () => "/api/auth/register", body: user, expect: adminOnly(201), state: () => "/api/users?limit=100" },
  { method: "GET", route: "/api/auth/me", path: () => "/api/auth/me", expect: staffRead },
  {
    method: "POST",
    route: "/api/auth/logout",
    path: () => "/api/auth/logout",
    expect: staffWrite(204),
    tokens: async () => ({ anon: undefined, ...(await api.staffTokens()) }),
  },
  { method: "GET", route: "/api/auth/users/:id", path: async () => `/api/auth/users/${await make("/api/auth/register", user())}`, expect: adminOnly(200) },
  { method: "GET", route: "/api/users", path: () => "/api/users", expect: adminOnly(200) },
  { method: "GET", route: "/api/audit-log", path: () => "/api/audit-log", expect: adminOnly(200) },
  { method: "GET", route: "/api/outbox", path: () => "/api/outbox", expect: adminOnly(200) },
  { method: "GET", route: "/api/settings", path: () => "/api/settings", expect: adminOnly(200) },
  {
    method: "PUT",
    route: "/api/settings",
    path: () => "/api/settings",
    body: () => ({ privacyContactName: "Matrix Officer" }),
    expect: adminOnly(200),
    state: () => "/api/settings",
  },
  // Erasure on a person's request: any staff member; an address with no records erases nothing.
  {
    method: "POST",
    route: "/api/people/erase",
    path: () => "/api/people/erase",
    body: () => ({ email: "nobody-at-all@example.com" }),
    expect: staffWrite(200),
    state: () => "/api/audit-log?limit=100",
  },
  { method: "GET", route: "/api/users/:id", path: async () => `/api/users/${await make("/api/auth/register", user())}`, expect: adminOnly(200) },
  {
    method: "PUT",
    route: "/api/users/:id",
    path: async () => `/api/users/${await make("/api/auth/register", user())}`,
    body: () => ({ ...user(), role: "admin" }),
    expect: adminOnly(200),
    state: self,
  },
  {
    method: "DELETE",
    route: "/api/users/:id",
    path: async () => `/api/users/${await make("/api/auth/register", user())}`,
    expect: adminOnly(204),
    state: self,
  },
  { method: "GET", route: "/api/openapi.json", path: () => "/api/openapi.json", expect: open },
  // Fees and payments (issue 38): staff only; a credit note and a concession's decision are an admin's. A made-up
  // id shows the role check comes first: anonymous 401, an editor 403 where only admins may, else "not found".
  { method: "GET", route: "/api/fee-plans", path: () => "/api/fee-plans", expect: staffRead },
  {
    method: "POST",
    route: "/api/fee-plans",
    path: () => "/api/fee-plans",
    body: () => ({ name: `Matrix plan ${++n}`, instalments: [{ label: "All", percentBp: 10000 }] }),
    expect: staffWrite(201),
    state: () => "/api/fee-plans",
  },
  { method: "GET", route: "/api/fee-plans/:id", path: async () => `/api/fee-plans/${await make("/api/fee-plans", plan())}`, expect: staffRead },
  {
    method: "PUT",
    route: "/api/fee-plans/:id",
    path: async () => `/api/fee-plans/${await make("/api/fee-plans", plan())}`,
    body: () => plan(),
    expect: staffWrite(200),
    state: (p) => p,
  },
  {
    method: "DELETE",
    route: "/api/fee-plans/:id",
    path: async () => `/api/fee-plans/${await make("/api/fee-plans", plan())}`,
    expect: staffWrite(204),
    state: (p) => p,
  },
  { method: "GET", route: "/api/dues", path: () => "/api/dues", expect: staffRead },
  { method: "GET", route: "/api/invoices", path: () => "/api/invoices", expect: staffRead },
  { method: "GET", route: "/api/invoices/:id", path: () => `/api/invoices/${MISSING}`, expect: { anon: 401, editor: 404, admin: 404 } },
  {
    method: "POST",
    route: "/api/invoices/:id/credit-note",
    path: () => `/api/invoices/${MISSING}/credit-note`,
    body: () => ({ reason: "Matrix" }),
    expect: { anon: 401, editor: 403, admin: 404 },
    state: () => "/api/invoices?limit=100",
  },
  { method: "GET", route: "/api/payments", path: () => "/api/payments", expect: staffRead },
  { method: "GET", route: "/api/payments/:id", path: () => `/api/payments/${MISSING}`, expect: { anon: 401, editor: 404, admin: 404 } },
  {
    method: "POST",
    route: "/api/payments/:id/reversal",
    path: () => `/api/payments/${MISSING}/reversal`,
    body: () => ({ reason: "Matrix" }),
    expect: { anon: 401, editor: 404, admin: 404 },
    state: () => "/api/payments?limit=100",
  },
  {
    method: "POST",
    route: "/api/payments/:id/refunds",
    path: () => `/api/payments/${MISSING}/refunds`,
    body: () => ({ amountPaise: 100, reason: "Matrix" }),
    expect: { anon: 401, editor: 404, admin: 404 },
    state: () => "/api/refunds?limit=100",
  },
  { method: "GET", route: "/api/refunds", path: () => "/api/refunds", expect: staffRead },
  {
    method: "PUT",
    route: "/api/concessions/:id",
    path: () => `/api/concessions/${MISSING}`,
    body: () => ({ approve: true }),
    expect: { anon: 401, editor: 403, admin: 404 },
  },
  {
    method: "GET",
    route: "/api/enquiries/:id/fees",
    path: async () => `/api/enquiries/${await make("/api/enquiries", enquiry())}/fees`,
    expect: staffRead,
  },
  {
    method: "POST",
    route: "/api/enquiries/:id/payments",
    path: () => `/api/enquiries/${MISSING}/payments`,
    body: () => ({ method: "cash", amountPaise: 100000, receivedOn: "2026-11-01" }),
    expect: { anon: 401, editor: 404, admin: 404 },
    state: () => "/api/payments?limit=100",
  },
  {
    method: "POST",
    route: "/api/enquiries/:id/concessions",
    path: () => `/api/enquiries/${MISSING}/concessions`,
    body: () => ({ kind: "scholarship", amountPaise: 100000, reason: "Matrix" }),
    expect: { anon: 401, editor: 404, admin: 404 },
  },
  // Razorpay's webhook: no staff token; only Razorpay's signature on the body opens it.
  {
    method: "POST",
    route: "/api/razorpay/webhook",
    path: () => "/api/razorpay/webhook",
    body: () => ({ event: "payment.captured" }),
    expect: { anon: 400, editor: 400, admin: 400 },
  },
];

describe("who may call what", () => {
  for (const row of ROWS) {
    it(`${row.method} ${row.route} → anonymous ${row.expect.anon}, editor ${row.expect.editor}, admin ${row.expect.admin}`, async () => {
      const rowTokens = row.tokens ? await row.tokens() : tokens;
      for (const role of ["anon", "editor", "admin"] as const) {
        const p = await row.path();
        const before = row.state ? await adminGet(row.state(p)) : undefined;
        const r = await api.call(row.method, p, { token: rowTokens[role], json: row.body?.() });
        expect(r.status, `${role} ${row.method} ${p}: ${r.text}`).toBe(row.expect[role]);
        if (r.status >= 400) {
          expect(r.body.error).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String) }));
          if (row.state) expect(await adminGet(row.state(p)), `${role} ${row.method} ${p} changed something`).toBe(before);
        }
      }
    });
  }

  it("covers every API route module", () => {
    const files = fs.readdirSync(path.resolve(import.meta.dirname, "../../app/routes")).filter((f) => /^api\..+\.ts$/.test(f) && f !== "api.$.ts");
    const routes = files.map((f) => `/${f.replace(/\.ts$/, "").replace("[.]", "~").split(".").join("/").replace("~", ".").replace(/\$\w+/g, ":id")}`);
    expect(new Set(ROWS.map((r) => r.route))).toEqual(new Set(routes));
  });
});

describe("bad requests answer in the error shape, never 500", () => {
  it("malformed JSON and non-object JSON are 400", async () => {
    const broken = await api.post("/api/enquiries", { body: '{"fullName": ', headers: { "Content-Type": "application/json" } });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe("invalid_json");
    const list = await api.post("/api/contact-queries", { body: "[1,2]", headers: { "Content-Type": "application/json" } });
    expect(list.status).toBe(400);
    expect(list.body.error.message).toBe("The request body must be a JSON object");
  });

  it("a body in a type the API does not read is a 400 that names the type to send", async () => {
    const before = await adminGet("/api/contact-queries?limit=100");
    for (const type of ["text/plain", "application/xml"]) {
      const r = await api.post("/api/contact-queries", { body: "name=x", headers: { "Content-Type": type } });
      expect(r.status, type).toBe(400);
      expect(r.body.error).toEqual({ code: "unsupported_content_type", message: "Send the body as application/json" });
    }
    expect(await adminGet("/api/contact-queries?limit=100")).toBe(before);
    const course = await api.post("/api/courses", { token: tokens.admin, body: "title=x", headers: { "Content-Type": "text/plain" } });
    expect(course.status).toBe(400);
  });

  it("a JSON body over 1 MB is 413", async () => {
    const r = await api.post("/api/contact-queries", { json: { ...contact(), message: "x".repeat(1024 * 1024 + 10) } });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("payload_too_large");
  });

  it("wrong methods are 405 with Allow; unknown API paths are JSON 404s", async () => {
    const me = await api.post("/api/auth/me", { token: tokens.admin });
    expect(me.status).toBe(405);
    expect(me.headers.get("allow")).toBe("GET, HEAD");
    expect(me.body.error.code).toBe("method_not_allowed");
    const login = await api.get("/api/auth/login");
    expect(login.status).toBe(405);
    expect(login.headers.get("allow")).toBe("POST");
    const courses = await api.del("/api/courses", { token: tokens.admin });
    expect(courses.status).toBe(405);
    expect(courses.headers.get("allow")).toBe("GET, POST, HEAD");
    for (const p of ["/api/nothing-here", "/api/courses/x/y", "/api"]) {
      const r = await api.get(p);
      expect(r.status, p).toBe(404);
      expect(r.headers.get("content-type")).toContain("application/json");
      expect(r.body.error.code).toBe("not_found");
    }
  });

  it("HEAD works where GET does, and answers are JSON that no cache keeps", async () => {
    const head = await fetch(`${server.url}/api/courses`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const r = await api.get("/api/courses");
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 and describes every call of spec §7", async () => {
    const r = await api.get("/api/openapi.json");
    expect(r.status).toBe(200);
    const result = await new Validator().validate(r.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(r.body.openapi).toBe("3.1.0");
    const ops = Object.entries(r.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    // Razorpay's webhook is called by Razorpay in its own documented format (README, "Fees and payments"), not by an integrator.
    for (const row of ROWS.filter((r) => r.route !== "/api/openapi.json" && r.route !== "/api/razorpay/webhook")) {
      const op = `${row.method} ${row.route.replace(":id", "{id}")}`;
      expect(ops).toContain(op);
    }
    // The request rules come from the shared schemas, messages and limits included.
    const enquiryBody = r.body.paths["/api/enquiries"].post.requestBody.content["application/json"].schema;
    const resolved = enquiryBody.$ref ? r.body.components.schemas[enquiryBody.$ref.split("/").pop()] : enquiryBody;
    expect(resolved.properties.preferredMode.enum).toEqual(["online", "offline", "hybrid"]);
    expect(resolved.required).toEqual(expect.arrayContaining(["fullName", "email", "phone", "preferredCourse", "preferredMode"]));
    expect(resolved.required).not.toContain("whatsappNotifications");
  });
});
