import { expect, test } from "./fixtures";
import { E2E_BASE_URL } from "./env";
import { rawRequest, type RawResponse } from "./servers";

/**
 * The malformed-input corpus against every public POST endpoint of the built server: whatever arrives,
 * the answer is never a 5xx, it comes quickly, and the server keeps serving afterwards. API endpoints
 * also keep their JSON error shape.
 */
const ENDPOINTS = [
  "/",
  "/?index",
  "/enquiry",
  "/contact",
  "/admin/login",
  "/api/enquiries",
  "/api/contact-queries",
  "/api/auth/login",
  "/enquiry.data",
  "/contact.data",
];

const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";
const B = "----corpus";
const MULTIPART_TYPE = `multipart/form-data; boundary=${B}`;
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const manyKeys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",")}}`;

type Case = [label: string, contentType: string | null, body: string | Buffer];

const CORPUS: Case[] = [
  // JSON: broken, wrong shapes, wrong types, hostile keys, extreme values
  ["bad JSON", JSON_TYPE, "{bad"],
  ["truncated JSON", JSON_TYPE, '{"fullName":"A'],
  ["JSON array", JSON_TYPE, "[]"],
  ["JSON null", JSON_TYPE, "null"],
  ["JSON string", JSON_TYPE, '"text"'],
  ["JSON number", JSON_TYPE, "123"],
  ["empty JSON body", JSON_TYPE, ""],
  [
    "arrays for strings",
    JSON_TYPE,
    JSON.stringify({ fullName: ["a", "b"], email: ["x@y.z"], phone: [9876543210], name: ["n"], message: ["m"], password: ["p"] }),
  ],
  ["objects for strings", JSON_TYPE, JSON.stringify({ fullName: { a: 1 }, email: { $gt: "" }, phone: {}, password: { $ne: null } })],
  [
    "numbers and booleans for strings",
    JSON_TYPE,
    JSON.stringify({ fullName: 1, email: true, phone: 9876543210, preferredCourse: 0, preferredMode: false, name: 5, message: 7, password: 0 }),
  ],
  [
    "huge numbers",
    JSON_TYPE,
    '{"fullName":"A","email":"a@b.co","phone":1e309,"preferredCourse":123456789012345678901234567890,"preferredMode":"online","whatsappNotifications":-1e309}',
  ],
  ["nulls", JSON_TYPE, JSON.stringify({ fullName: null, email: null, phone: null, password: null, name: null, message: null })],
  [
    "__proto__ keys",
    JSON_TYPE,
    '{"__proto__":{"isAdmin":true,"role":"admin","status":"enrolled"},"fullName":"A","email":"a@b.co","phone":"9876543210","preferredCourse":"X","preferredMode":"online"}',
  ],
  ["constructor.prototype keys", JSON_TYPE, '{"constructor":{"prototype":{"polluted":true}},"email":"a@b.co","password":"x"}'],
  [
    "status and id smuggled in",
    JSON_TYPE,
    JSON.stringify({
      id: "../../x",
      _id: { $oid: 1 },
      status: "enrolled",
      createdAt: "2000-01-01",
      filePaths: ["../../etc/passwd"],
      fullName: "A",
      email: "a@b.co",
      phone: "9876543210",
      preferredCourse: "X",
      preferredMode: "online",
    }),
  ],
  ["deeply nested arrays", JSON_TYPE, deep(5000)],
  ["deeply nested field", JSON_TYPE, `{"fullName":${deep(3000)}}`],
  ["fifty thousand keys", JSON_TYPE, manyKeys(50_000)],
  [
    "very long strings",
    JSON_TYPE,
    JSON.stringify({
      fullName: "a".repeat(200_000),
      email: `${"a".repeat(100_000)}@b.co`,
      phone: "9".repeat(100_000),
      name: "n".repeat(100_000),
      message: "m".repeat(300_000),
      password: "p".repeat(100_000),
    }),
  ],
  ["lone surrogates and NUL", JSON_TYPE, '{"fullName":"\\ud800\\u0000","email":"a\\u0000@b.co","phone":"\\udfff","name":"\\u0000","message":"\\ud83d"}'],
  ["duplicate keys", JSON_TYPE, '{"email":"a@b.co","email":["x"],"password":"a","password":{}}'],
  ["JSON with a BOM", JSON_TYPE, "\ufeff{}"],
  ["JSON under an odd charset", "application/json; charset=utf-7", '{"email":"+ADw-script+AD4-"}'],
  ["vendor JSON type", "application/vnd.api+json", "{bad"],
  // URL-encoded: bad escapes, repeats, bracket syntax, hostile names, extremes
  ["bad percent-encoding", FORM_TYPE, "fullName=%E0%A4%A&email=%&phone=%%%&intent=enquiry"],
  ["invalid UTF-8 bytes", FORM_TYPE, "fullName=%FF%FE%FD&email=%C0%AF&intent=contact&name=%ED%A0%80"],
  ["repeated fields", FORM_TYPE, "fullName=a&fullName=b&email=a@b.co&email=c@d.ee&intent=enquiry&intent=contact"],
  ["bracket arrays", FORM_TYPE, "fullName[]=a&fullName[]=b&email[$ne]=x&password[]=y&intent[]=contact"],
  ["__proto__ fields", FORM_TYPE, "__proto__[admin]=1&constructor[prototype][x]=1&__proto__=x&intent=contact&name=a&email=a@b.co&message=hi"],
  ["empty names and values", FORM_TYPE, "=&&&=x&intent=&email="],
  ["a hundred thousand empty pairs", FORM_TYPE, "&".repeat(100_000)],
  ["field near the body limit", FORM_TYPE, `intent=contact&name=a&email=a@b.co&message=${"m".repeat(900_000)}`],
  ["NUL and control characters", FORM_TYPE, "intent=contact&name=%00%01%1B&email=a%00@b.co&message=%0D%0A%0D%0ASet-Cookie:x=y"],
  ["unknown intent", FORM_TYPE, "intent=delete-everything&id=1"],
  ["form under an unknown charset", `${FORM_TYPE}; charset=ibm037`, "intent=contact&name=a"],
  // Multipart: broken framing, missing parts, odd names
  ["multipart without boundary", "multipart/form-data", `--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--${B}--\r\n`],
  ["multipart with empty boundary", "multipart/form-data; boundary=", "--\r\n\r\n"],
  ["multipart with the wrong boundary", MULTIPART_TYPE, `--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--other--\r\n`],
  ["truncated multipart", MULTIPART_TYPE, `--${B}\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nAsha`],
  ["multipart garbage", MULTIPART_TYPE, "\u0000\u0001garbage\r\n\r\n--"],
  ["multipart part without a name", MULTIPART_TYPE, `--${B}\r\nContent-Disposition: form-data\r\n\r\nb\r\n--${B}--\r\n`],
  [
    "multipart file with a traversal name",
    MULTIPART_TYPE,
    `--${B}\r\nContent-Disposition: form-data; name="filePaths"; filename="../../../etc/passwd"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 x\r\n--${B}--\r\n`,
  ],
  ["multipart with a huge part header", MULTIPART_TYPE, `--${B}\r\nContent-Disposition: form-data; name="${"a".repeat(100_000)}"\r\n\r\nb\r\n--${B}--\r\n`],
  ["multipart/mixed", `multipart/mixed; boundary=${B}`, `--${B}\r\n\r\nb\r\n--${B}--\r\n`],
  // Bodies of types no endpoint takes
  ["text/plain", "text/plain", "hello"],
  ["XML with an external entity", "application/xml", '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'],
  ["no content type", null, "fullName=a"],
  ["binary octet stream", "application/octet-stream", Buffer.from([0, 1, 2, 255, 254, 253])],
];

const ODD_URLS = [
  "/courses/%E0%A4%A",
  "/%",
  "/%00",
  "/courses/..%2f..%2fetc%2fpasswd",
  "/courses/%2e%2e/%2e%2e/app.db",
  "/api/courses/%00",
  "/api/courses/'%20OR%201=1--",
  `/api/courses/${"a".repeat(5000)}`,
  "/api/courses/__proto__",
  "/api/courses/constructor",
  "/api/enquiries/1e309",
  "/api/reviews/-1",
  "/api/schedules/%E0%A4%A",
  "/media/images/..%2f..%2fapp.db",
  "/media/syllabus/%2e%2e%2fapp.db",
  "/media/images/%E0%A4%A.webp",
  "/reviews?course[]=x&course[]=y",
  "/schedules?mode=%FF",
  "/courses?category=__proto__",
  "/courses?syllabus=%00",
  "/enquiry?course=%E0%A4%A&date=9999-99-99",
  "/api/courses?page=-1&limit=1e309",
  "/api/courses?page=NaN&limit=[]",
  "/api/reviews?page[]=1&course[$ne]=x",
  "/api/schedules?mode[]=online",
  "/sitemap.xml?x=%",
  "//",
  "/./../..",
  "/api/..%2Fadmin",
  "/assets/%E0%A4%A.js",
  "/assets/..%2f..%2fpackage.json",
  `/?${Array.from({ length: 5000 }, (_, i) => `p${i}=${i}`).join("&")}`,
];

function expectSane(res: RawResponse, what: string) {
  expect(res.status, `${what} answered ${res.status}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.ms, `${what} took ${res.ms} ms`).toBeLessThan(10_000);
  expect(res.body, `${what} leaked a stack trace`).not.toMatch(/\bat [\w.<>]+ \(\/|node_modules\//);
}

test.describe("malformed input never gets a 5xx", () => {
  for (const endpoint of ENDPOINTS) {
    test(`POST ${endpoint}`, async () => {
      test.setTimeout(120_000);
      for (const [label, type, body] of CORPUS) {
        const headers: Record<string, string> = type ? { "Content-Type": type } : {};
        const res = await rawRequest(E2E_BASE_URL, "POST", endpoint, headers, body);
        expectSane(res, `POST ${endpoint} with ${label}`);
        if (endpoint.startsWith("/api/") && res.status >= 400 && res.status !== 404) {
          expect(res.headers["content-type"], `${label}`).toMatch(/application\/json/);
          expect(JSON.parse(res.body).error?.message, `${label}: ${res.body.slice(0, 200)}`).toEqual(expect.any(String));
        }
      }
    });
  }

  test("other methods, odd headers and broken credentials", async () => {
    for (const endpoint of ENDPOINTS) {
      for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
        expectSane(await rawRequest(E2E_BASE_URL, method, endpoint, { "Content-Type": JSON_TYPE }, "{}"), `${method} ${endpoint}`);
      }
    }
    const odd: Record<string, string>[] = [
      { Cookie: "__session=garbage" },
      { Cookie: "__session=%E0%A4%A; __session=x" },
      { Cookie: `__session=${"a".repeat(4000)}` },
      { Authorization: "Bearer x.y.z" },
      { Authorization: "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0." },
      { Authorization: `Bearer ${"a".repeat(8000)}` },
      { Authorization: "Basic YWRtaW46YWRtaW4=" },
      { "X-Forwarded-For": "not-an-ip, ::ffff:999.1.1.1" },
      { "X-Forwarded-Host": "evil.example:99999" },
      { Accept: "application/json;q=abc" },
    ];
    for (const headers of odd) {
      for (const target of ["/", "/admin/courses", "/api/auth/me", "/api/enquiries"]) {
        expectSane(await rawRequest(E2E_BASE_URL, "GET", target, headers), `GET ${target} with ${JSON.stringify(headers).slice(0, 80)}`);
      }
    }
  });

  test("odd URLs and ids", async () => {
    for (const target of ODD_URLS) {
      const res = await rawRequest(E2E_BASE_URL, "GET", target);
      expectSane(res, `GET ${target.slice(0, 80)}`);
      expect(res.body).not.toContain("SQLite format");
    }
  });

  test("the server still answers normally afterwards", async () => {
    const health = await rawRequest(E2E_BASE_URL, "GET", "/healthz");
    expect(health.status).toBe(200);
    const page = await rawRequest(E2E_BASE_URL, "GET", "/");
    expect(page.status).toBe(200);
  });
});

test.describe("body size limits", () => {
  const big = (n: number) => Buffer.alloc(n, 0x61);

  test("a JSON or form body over 1 MB gets 413, declared or not", async () => {
    for (const endpoint of ["/api/enquiries", "/contact", "/admin/login"]) {
      const declared = await rawRequest(E2E_BASE_URL, "POST", endpoint, { "Content-Type": JSON_TYPE }, big(1024 * 1024 + 1));
      expect(declared.status, endpoint).toBe(413);
      const chunked = await rawRequest(E2E_BASE_URL, "POST", endpoint, { "Content-Type": FORM_TYPE, "Transfer-Encoding": "chunked" }, big(2 * 1024 * 1024));
      expect(chunked.status, endpoint).toBe(413);
    }
    const api = await rawRequest(E2E_BASE_URL, "POST", "/api/contact-queries", { "Content-Type": JSON_TYPE }, big(3 * 1024 * 1024));
    expect(JSON.parse(api.body).error.code).toBe("payload_too_large");
  });

  test("a multipart body over 25 MB gets 413 before it is read", async () => {
    const res = await rawRequest(
      E2E_BASE_URL,
      "POST",
      "/enquiry",
      { "Content-Type": MULTIPART_TYPE, "Content-Length": String(26 * 1024 * 1024) },
      Buffer.alloc(0),
    );
    expect(res.status).toBe(413);
    expect(res.ms).toBeLessThan(2000);
  });

  test("a multipart body over 1 MB to a page that takes no files gets 413 before it is read", async () => {
    for (const endpoint of ["/contact", "/", "/admin/login", "/api/enquiries"]) {
      const res = await rawRequest(
        E2E_BASE_URL,
        "POST",
        endpoint,
        { "Content-Type": MULTIPART_TYPE, "Content-Length": String(2 * 1024 * 1024) },
        Buffer.alloc(0),
      );
      expect(res.status, endpoint).toBe(413);
      expect(res.ms, endpoint).toBeLessThan(2000);
    }
  });

  test("a body just under the limit is still read", async () => {
    const res = await rawRequest(
      E2E_BASE_URL,
      "POST",
      "/api/contact-queries",
      { "Content-Type": JSON_TYPE },
      JSON.stringify({ name: "a", email: "a@b.co", message: "m".repeat(1000 * 1000) }),
    );
    expect(res.status).toBeLessThan(500);
    expect(res.status).not.toBe(413);
  });
});
