import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { createCookieSessionStorage } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { LOGIN_FAILED } from "~/schemas/login";
import { TOKEN_AUDIENCE, TOKEN_ISSUER, tokenKeyFor } from "~/web/token.server";
import { EMAIL_TAKEN, OWN_ACCOUNT_DELETE, PASSWORD_CHANGE_FAILED } from "~/schemas/user";
import { ADMIN, API_SECRET, apiClient, startApiServer } from "../helpers/api-server";

const server = startApiServer();
const api = apiClient(server);

let admin: string;
let adminId: string;
beforeAll(async () => {
  admin = await api.login(ADMIN.email, ADMIN.password);
  adminId = (await api.get("/api/auth/me", { token: admin })).body.data.id;
});

async function register(body: Record<string, unknown>, token = admin) {
  return api.post("/api/auth/register", { token, json: body });
}
const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const userCount = async () => (await api.get("/api/users", { token: admin })).body.total as number;

function signed(claims: Record<string, unknown>, opts: { secret?: string; rawKey?: boolean; exp?: number; aud?: string; iss?: string } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(adminId)
    .setJti(randomUUID())
    .setIssuer(opts.iss ?? TOKEN_ISSUER)
    .setAudience(opts.aud ?? TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
    .sign(opts.rawKey ? new TextEncoder().encode(opts.secret ?? API_SECRET) : tokenKeyFor(opts.secret ?? API_SECRET));
}

describe("POST /api/auth/logout", () => {
  it("ends the token it is called with, and only that one", async () => {
    const first = await api.login(ADMIN.email, ADMIN.password);
    const second = await api.login(ADMIN.email, ADMIN.password);
    const out = await api.post("/api/auth/logout", { token: first });
    expect(out.status).toBe(204);
    const after = await api.get("/api/auth/me", { token: first });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("invalid_token");
    expect((await api.get("/api/auth/me", { token: second })).status).toBe(200);
    // A used-up token cannot sign out again.
    expect((await api.post("/api/auth/logout", { token: first })).status).toBe(401);
  });
});

describe("POST /api/auth/login", () => {
  it("answers a token and the user without any secret", async () => {
    const r = await api.post("/api/auth/login", { json: { email: ADMIN.email, password: ADMIN.password } });
    expect(r.status).toBe(200);
    expect(r.body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(r.body.user).toEqual({ id: adminId, name: "Administrator", email: ADMIN.email, role: "admin" });
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  it("gives the same 401 for a wrong password and for an unknown e-mail", async () => {
    const wrong = await api.post("/api/auth/login", { json: { email: ADMIN.email, password: "not-the-password" } });
    const unknown = await api.post("/api/auth/login", { json: { email: "nobody@example.com", password: "not-the-password" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: { code: "invalid_credentials", message: LOGIN_FAILED } });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("names each missing field", async () => {
    const r = await api.post("/api/auth/login", { json: {} });
    expect(r.status).toBe(400);
    expect(r.body.error.fields).toEqual({ email: "Email is required", password: "Password is required" });
  });

  it("accepts a form-encoded body too", async () => {
    const body = new URLSearchParams({ email: ADMIN.email, password: ADMIN.password });
    const r = await api.post("/api/auth/login", { body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(200);
  });
});

describe("bearer tokens", () => {
  it("GET /api/auth/me answers the caller, and 401 without a token", async () => {
    const me = await api.get("/api/auth/me", { token: admin });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: adminId, email: ADMIN.email, role: "admin" });
    expect(me.body.data).not.toHaveProperty("passwordHash");
    const anon = await api.get("/api/auth/me");
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe("Bearer");
    expect(anon.body.error.code).toBe("unauthorized");
  });

  it("refuses expired, foreign, mis-addressed and unsigned tokens", async () => {
    const expired = await signed({ ver: 1 }, { exp: Math.floor(Date.now() / 1000) - 60 });
    const foreign = await signed({ ver: 1 }, { secret: "another-secret-0123456789-0123456789-0123" });
    // Signed with the cookie-signing secret itself rather than the key derived from it for tokens.
    const cookieKey = await signed({ ver: 1 }, { rawKey: true });
    const otherAudience = await signed({ ver: 1 }, { aud: "someone-else" });
    const otherIssuer = await signed({ ver: 1 }, { iss: "someone-else" });
    const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const unsigned = `${encode({ alg: "none", typ: "JWT" })}.${encode({ sub: adminId, ver: 1, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, exp: 9999999999 })}.`;
    for (const token of [expired, foreign, cookieKey, otherAudience, otherIssuer, unsigned, "garbage"]) {
      const r = await api.get("/api/auth/me", { token });
      expect(r.status, token).toBe(401);
      expect(r.body.error.code).toBe("invalid_token");
      expect(r.headers.get("www-authenticate")).toContain("invalid_token");
    }
    // The same claims, valid and in date, are accepted: the refusals above are about the token, not the test.
    expect((await api.get("/api/auth/me", { token: await signed({ ver: 1 }) })).status).toBe(200);
  });

  it("a malformed Authorization header is a 401 even on a public endpoint", async () => {
    const r = await api.get("/api/courses", { headers: { Authorization: "Basic abc" } });
    expect(r.status).toBe(401);
  });
});

describe("POST /api/auth/register", () => {
  it("lets an admin create an editor; unknown fields cannot set id, role defaults, hash or dates", async () => {
    const email = unique("new");
    const r = await register({
      name: "New Person",
      email: email.toUpperCase(),
      password: "long-enough-1",
      id: "chosen",
      passwordHash: "x",
      createdAt: "2000-01-01T00:00:00.000Z",
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ name: "New Person", email, role: "editor" });
    expect(r.body.data.id).not.toBe("chosen");
    expect(r.body.data.createdAt).not.toBe("2000-01-01T00:00:00.000Z");
    expect(Object.keys(r.body.data).sort()).toEqual([
      "createdAt",
      "dailyDigest",
      "email",
      "id",
      "name",
      "role",
      "takesEnquiries",
      "updatedAt",
      "updatedBy",
      "version",
    ]);
    expect((await api.login(email, "long-enough-1")).length).toBeGreaterThan(20);
  });

  it("gives each field's message, and 409 for a taken e-mail", async () => {
    const bad = await register({ name: "", email: "not-an-email", password: "short" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ name: "Name is required", email: "Valid email is required", password: "Password must be at least 8 characters" });
    const missing = await register({});
    expect(missing.body.error.fields).toMatchObject({ email: "Email is required", password: "Password is required" });
    const taken = await register({ name: "Again", email: ADMIN.email, password: "long-enough-1" });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toEqual({ code: "email_taken", message: EMAIL_TAKEN, fields: { email: EMAIL_TAKEN } });
  });

  it("is refused to editors (403) and anonymous callers (401) without creating anyone", async () => {
    const { editor } = await api.staffTokens();
    const before = await userCount();
    expect((await register({ name: "X", email: unique("x"), password: "long-enough-1", role: "admin" }, editor)).status).toBe(403);
    expect((await api.post("/api/auth/register", { json: { name: "X", email: unique("x"), password: "long-enough-1", role: "admin" } })).status).toBe(401);
    expect(await userCount()).toBe(before);
  });
});

describe("users", () => {
  it("lists users for admins only, paged, never with a hash", async () => {
    const { editor } = await api.staffTokens();
    const r = await api.get("/api/users?limit=2", { token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, limit: 2 });
    expect(r.body.data.length).toBeLessThanOrEqual(2);
    expect(r.body.pages).toBe(Math.ceil(r.body.total / 2));
    expect(r.text).not.toContain("passwordHash");
    expect((await api.get("/api/users", { token: editor })).status).toBe(403);
    expect((await api.get("/api/users")).status).toBe(401);
  });

  it("GET /api/auth/users/:id reads one user for admins", async () => {
    const { editor, editorId } = await api.staffTokens();
    const r = await api.get(`/api/auth/users/${editorId}`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: editorId, role: "editor" });
    expect((await api.get(`/api/auth/users/${editorId}`, { token: editor })).status).toBe(403);
    expect((await api.get(`/api/auth/users/${editorId}`)).status).toBe(401);
    expect((await api.get("/api/auth/users/no-such-id", { token: admin })).status).toBe(404);
  });

  it("an admin edits a user; no password keeps the current one; a missing role keeps the role", async () => {
    const email = unique("edit");
    const made = await register({ name: "Before", email, password: "first-password-1", role: "admin" });
    const id = made.body.data.id;
    // In JSON a password is left out to keep it ("" is no password of 8 characters, as the document says);
    // the back office's form sends its empty box, which keeps it there.
    const empty = await api.put(`/api/users/${id}`, { token: admin, json: { name: "After", email, password: "" } });
    expect([empty.status, empty.body.error?.fields]).toEqual([400, { password: "Must not be empty: leave the field out instead" }]);
    const r = await api.put(`/api/users/${id}`, { token: admin, json: { name: "After", email } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ name: "After", email, role: "admin" });
    await api.login(email, "first-password-1");
    const demoted = await api.put(`/api/users/${id}`, { token: admin, json: { name: "After", email, role: "editor", password: "second-password-2" } });
    expect(demoted.body.data.role).toBe("editor");
    await api.login(email, "second-password-2");
    const taken = await api.put(`/api/users/${id}`, { token: admin, json: { name: "After", email: ADMIN.email } });
    expect(taken.status).toBe(409);
    expect((await api.put("/api/users/no-such-id", { token: admin, json: { name: "A", email: unique("a") } })).status).toBe(404);
  });

  it("nobody sets their own role, and an admin needs the current password to set their own", async () => {
    const own = await api.put(`/api/users/${adminId}`, { token: admin, json: { name: "Administrator", email: ADMIN.email, role: "editor" } });
    expect(own.status).toBe(200);
    expect(own.body.data.role).toBe("admin");
    const pw = await api.put(`/api/users/${adminId}`, { token: admin, json: { name: "Administrator", email: ADMIN.email, password: "a-new-password-9" } });
    expect(pw.status).toBe(400);
    expect(pw.body.error.fields).toEqual({ currentPassword: "Current password is required" });
    await api.login(ADMIN.email, ADMIN.password);
  });

  it("an editor cannot edit others or promote themselves", async () => {
    const { editor, editorId } = await api.staffTokens();
    const self = await api.get(`/api/auth/users/${editorId}`, { token: admin });
    const promote = await api.put(`/api/users/${editorId}`, { token: editor, json: { name: "Boss", email: self.body.data.email, role: "admin" } });
    expect(promote.status).toBe(403);
    const other = await api.put(`/api/users/${adminId}`, { token: editor, json: { name: "Hacked", email: ADMIN.email } });
    expect(other.status).toBe(403);
    expect((await api.get(`/api/auth/users/${editorId}`, { token: admin })).body.data).toEqual(self.body.data);
    expect((await api.get(`/api/auth/users/${adminId}`, { token: admin })).body.data.name).toBe("Administrator");
  });

  it("deletes: never one's own account, editors never, unknown ids 404, and the deleted user's token stops working", async () => {
    const { editor, editorId } = await api.staffTokens();
    const self = await api.del(`/api/users/${adminId}`, { token: admin });
    expect(self.status).toBe(403);
    expect(self.body.error.message).toBe(OWN_ACCOUNT_DELETE);
    expect((await api.del(`/api/users/${adminId}`, { token: editor })).status).toBe(403);
    expect((await api.del(`/api/users/${editorId}`)).status).toBe(401);
    expect((await api.get("/api/auth/me", { token: admin })).status).toBe(200);
    const gone = await api.del(`/api/users/${editorId}`, { token: admin });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe("");
    expect((await api.get("/api/auth/me", { token: editor })).status).toBe(401);
    expect((await api.del(`/api/users/${editorId}`, { token: admin })).status).toBe(404);
  });
});

describe("changing one's own password", () => {
  it("checks the current password, then ends every older token and hands out a new one", async () => {
    const email = unique("pw");
    const { body } = await register({ name: "Pat", email, password: "old-password-1" });
    const id = body.data.id;
    const token = await api.login(email, "old-password-1");
    const other = await api.login(email, "old-password-1");

    const wrong = await api.put(`/api/users/${id}`, { token, json: { currentPassword: "not-it-at-all", password: "new-password-2" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual({
      code: "invalid_current_password",
      message: PASSWORD_CHANGE_FAILED,
      fields: { currentPassword: PASSWORD_CHANGE_FAILED },
    });
    expect((await api.get("/api/auth/me", { token })).status).toBe(200);

    const short = await api.put(`/api/users/${id}`, { token, json: { currentPassword: "old-password-1", password: "short" } });
    expect(short.body.error.fields).toEqual({ password: "Password must be at least 8 characters" });
    const mismatch = await api.put(`/api/users/${id}`, {
      token,
      json: { currentPassword: "old-password-1", password: "new-password-2", confirmPassword: "new-password-3" },
    });
    expect(mismatch.body.error.fields).toEqual({ confirmPassword: "New passwords do not match" });

    const ok = await api.put(`/api/users/${id}`, { token, json: { currentPassword: "old-password-1", password: "new-password-2", role: "admin" } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ id, role: "editor" });
    expect((await api.get("/api/auth/me", { token })).status).toBe(401);
    expect((await api.get("/api/auth/me", { token: other })).status).toBe(401);
    expect((await api.get("/api/auth/me", { token: ok.body.token })).status).toBe(200);
    expect((await api.post("/api/auth/login", { json: { email, password: "old-password-1" } })).status).toBe(401);
    await api.login(email, "new-password-2");
  });

  it("is only for one's own account", async () => {
    const { editor } = await api.staffTokens();
    const r = await api.put(`/api/users/${adminId}`, { token: editor, json: { currentPassword: ADMIN.password, password: "taken-over-123" } });
    expect(r.status).toBe(403);
    await api.login(ADMIN.email, ADMIN.password);
  });
});

describe("the back office's session cookie", () => {
  const storage = createCookieSessionStorage({ cookie: { name: "__session", httpOnly: true, sameSite: "lax", path: "/", secrets: [API_SECRET] } });
  async function cookieFor(userId: string, version = 1) {
    const session = await storage.getSession();
    const now = Date.now();
    session.set("sid", `cookie-test-${now}`);
    session.set("userId", userId);
    session.set("version", version);
    session.set("issuedAt", now);
    session.set("lastSeen", now);
    return (await storage.commitSession(session)).split(";")[0];
  }
  const review = { name: "Cookie Tester", position: "Analyst", image: "https://example.com/a.png", rating: 5, course: "SOC", review: "Good." };

  it("authorises reads, and writes only from the same origin", async () => {
    const cookie = await cookieFor(adminId);
    expect((await api.get("/api/auth/me", { headers: { Cookie: cookie } })).status).toBe(200);
    const count = async () => (await api.get("/api/reviews?limit=1", { token: admin })).body.total as number;
    const before = await count();
    const cross = await api.post("/api/reviews", { json: review, headers: { Cookie: cookie, Origin: "https://evil.example" } });
    expect(cross.status).toBe(403);
    const crossFetch = await api.post("/api/reviews", { json: review, headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" } });
    expect(crossFetch.status).toBe(403);
    expect(await count()).toBe(before);
    const same = await api.post("/api/reviews", { json: review, headers: { Cookie: cookie, Origin: server.url } });
    expect(same.status).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it("stops working after the user's password changes", async () => {
    const email = unique("cookie");
    const { body } = await register({ name: "Cookie", email, password: "old-password-1" });
    const cookie = await cookieFor(body.data.id);
    expect((await api.get("/api/auth/me", { headers: { Cookie: cookie } })).status).toBe(200);
    const token = await api.login(email, "old-password-1");
    expect((await api.put(`/api/users/${body.data.id}`, { token, json: { currentPassword: "old-password-1", password: "new-password-2" } })).status).toBe(200);
    expect((await api.get("/api/auth/me", { headers: { Cookie: cookie } })).status).toBe(401);
  });
});
