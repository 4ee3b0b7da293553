import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BadMultipartError, RequestTooLargeError } from "~/infra/uploads.server";
import { classifyErrors, isDbUnavailable } from "./error-status";

/** Which escaped errors become 4xx (the client's input) or 503 (the database is away) instead of a 500. */
const withCode = (message: string, props: Record<string, unknown>) => Object.assign(new Error(message), props);

describe("classifyErrors", () => {
  it("an unreachable database is a 503, however the driver words it", () => {
    const cases = [
      withCode("Connection lost: The server closed the connection.", { code: "PROTOCOL_CONNECTION_LOST", fatal: true }),
      withCode("connect ECONNREFUSED 127.0.0.1:3306", { code: "ECONNREFUSED" }),
      new AggregateError([withCode("connect ECONNREFUSED ::1:3306", { code: "ECONNREFUSED" })], "all attempts failed"),
      withCode("Too many connections", { code: "ER_CON_COUNT_ERROR", errno: 1040 }),
      withCode("database is locked", { code: "SQLITE_BUSY" }),
      withCode("disk I/O error", { code: "SQLITE_IOERR_WRITE" }),
      new Error("Pool is closed."),
      new Error("Queue limit reached."),
      new Error("driver has already been destroyed"),
      new Error("wrapped", { cause: withCode("read ECONNRESET", { code: "ECONNRESET" }) }),
    ];
    for (const error of cases) {
      expect(isDbUnavailable(error), error.message).toBe(true);
      expect(classifyErrors([error])?.status, error.message).toBe(503);
    }
  });

  it("a body the server cannot read is the client's mistake", () => {
    expect(classifyErrors([new TypeError('Content-Type was not one of "multipart/form-data" or "application/x-www-form-urlencoded".')])?.status).toBe(415);
    expect(classifyErrors([new TypeError("Failed to parse body as FormData.")])?.status).toBe(400);
    expect(classifyErrors([new SyntaxError("Unexpected token } in JSON at position 1")])?.status).toBe(400);
    expect(classifyErrors([new URIError("URI malformed")])?.status).toBe(400);
    expect(classifyErrors([new BadMultipartError()])?.status).toBe(400);
    expect(classifyErrors([new RequestTooLargeError()])).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(classifyErrors([z.object({ a: z.string() }).safeParse({}).error])?.status).toBe(400);
  });

  it("anything else stays a 500 (a bug is not hidden as bad input)", () => {
    expect(classifyErrors([new TypeError("Cannot read properties of undefined (reading 'id')")])).toBeNull();
    expect(classifyErrors([new Error("boom")])).toBeNull();
    expect(classifyErrors([withCode("Duplicate entry", { code: "ER_DUP_ENTRY", errno: 1062 })])).toBeNull();
    expect(classifyErrors([withCode("no such table: x", { code: "SQLITE_ERROR" })])).toBeNull();
    expect(classifyErrors([])).toBeNull();
  });

  it("a database outage wins over other errors of the same request", () => {
    expect(classifyErrors([new SyntaxError("x"), withCode("gone", { code: "PROTOCOL_CONNECTION_LOST" })])?.status).toBe(503);
  });
});
