import { describe, expect, it } from "vitest";
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
      expect(await res.json()).toEqual({ error: { code: "service_unavailable", message: "The service is temporarily unavailable. Please try again in a moment." } });
    }
  });

  it("any other failure is a 500 in the error shape, without details", async () => {
    const res = await call(new Error("secret internals"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "server_error", message: "Something went wrong. Please try again." } });
    expect(text).not.toContain("secret");
  });
});
