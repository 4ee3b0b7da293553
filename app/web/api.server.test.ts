import { describe, expect, it } from "vitest";
import { forbidden, invalid, tooMany } from "~/services/service-error";
import { endpoint } from "./api.server";

/** The API answers its own errors (it never lets them reach the server's last-resort mapping). */
const call = (error: Error) =>
  endpoint({
    async GET() {
      throw error;
    },
  })({ request: new Request("http://localhost/api/courses"), params: {}, context: { cspNonce: "", clientIp: "127.0.0.1", requestId: "test" } });

describe("API errors", () => {
  it("a database that is busy or away is a 503 with Retry-After, not a 500", async () => {
    for (const error of [
      Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }),
      Object.assign(new Error("Connection lost: The server closed the connection."), { code: "PROTOCOL_CONNECTION_LOST", fatal: true }),
      new Error("query failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3306"), { code: "ECONNREFUSED" }) }),
    ]) {
      const res = await call(error);
      expect(res.status, error.message).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("5");
      expect(await res.json()).toEqual({
        error: { code: "service_unavailable", message: "The service is temporarily unavailable. Please try again in a moment." },
      });
    }
  });

  it("any other failure is a 500 in the error shape, without details", async () => {
    const res = await call(new Error("secret internals"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "server_error", message: "Something went wrong. Please try again." } });
    expect(text).not.toContain("secret");
  });

  it("a service's refusal keeps its status, code, field messages and Retry-After", async () => {
    const refused = await call(forbidden());
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: "forbidden", message: "Only an admin can do this" } });

    const bad = await call(invalid({ from: "Enter a date as YYYY-MM-DD" }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { code: "invalid_input", message: "Enter a date as YYYY-MM-DD", fields: { from: "Enter a date as YYYY-MM-DD" } },
    });

    const slow = await call(tooMany("Too many attempts. Try again later.", 42));
    expect(slow.status).toBe(429);
    expect(slow.headers.get("Retry-After")).toBe("42");
    expect((await slow.json()).error.code).toBe("rate_limited");
  });
});
