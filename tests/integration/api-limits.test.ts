import { describe, expect, it } from "vitest";
import { RATE_LIMIT_MESSAGE } from "~/infra/rate-limit.server";
import { ADMIN, apiClient, startApiServer } from "../helpers/api-server";

// A server with throttling on and a small form budget, so the limits show within a few calls.
const server = startApiServer({ RATE_LIMIT: "on", FORM_RATE_LIMIT: "2", FORM_RATE_WINDOW: "600" });
const api = apiClient(server);

const enquiry = { fullName: "Limit", email: "l@example.com", phone: "9999999999", preferredCourse: "SOC Analyst Training Program", preferredMode: "online" };
const contact = { name: "Limit", email: "l@example.com", message: "Hi" };

describe("rate limits", () => {
  it("public form posts are limited per IP with 429 and Retry-After, and the refused one is not stored", async () => {
    const admin = await api.login(ADMIN.email, ADMIN.password);
    const total = async () => (await api.get("/api/enquiries?limit=1", { token: admin })).body.total as number;
    expect((await api.post("/api/enquiries", { json: enquiry })).status).toBe(201);
    expect((await api.post("/api/enquiries", { json: enquiry })).status).toBe(201);
    const before = await total();
    const third = await api.post("/api/enquiries", { json: enquiry });
    expect(third.status).toBe(429);
    expect(third.body.error).toEqual({ code: "rate_limited", message: RATE_LIMIT_MESSAGE });
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await total()).toBe(before);

    // Each form has its own budget.
    expect((await api.post("/api/contact-queries", { json: contact })).status).toBe(201);
    expect((await api.post("/api/contact-queries", { json: contact })).status).toBe(201);
    expect((await api.post("/api/contact-queries", { json: contact })).status).toBe(429);
  });

  it("repeated failed sign-ins for an account are throttled, with the same answer whether or not it exists", async () => {
    for (const email of ["editor-nobody@example.com", ADMIN.email]) {
      for (let i = 0; i < 5; i++) {
        expect((await api.post("/api/auth/login", { json: { email, password: `wrong-${i}` } })).status).toBe(401);
      }
      const blocked = await api.post("/api/auth/login", { json: { email, password: "wrong-again" } });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error.message).toBe(RATE_LIMIT_MESSAGE);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Even the right password waits out the block.
    expect((await api.post("/api/auth/login", { json: { email: ADMIN.email, password: ADMIN.password } })).status).toBe(429);
  });

  it("a burst of parallel guesses gets no more tries than the limit", async () => {
    const email = "burst-target@example.com";
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => api.post("/api/auth/login", { json: { email, password: `guess-${i}` } })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });
});
