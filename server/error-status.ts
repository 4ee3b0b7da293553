import { sql } from "kysely";
import { db } from "~db/client.server";

/**
 * Maps an error that escaped a loader or action to the status the client deserves. Bad input is the
 * client's problem (4xx), an unreachable database is temporary (503), anything else stays a 500.
 */
export type ErrorClass = { status: number; code: string; message: string };

const DB_UNAVAILABLE: ErrorClass = {
  status: 503,
  code: "service_unavailable",
  message: "The service is temporarily unavailable. Please try again in a moment.",
};

// Connection-level failures from mysql2/the OS, and SQLite states that pass once the file is reachable again.
const DB_DOWN_CODES = new Set([
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR",
  "PROTOCOL_ENQUEUE_AFTER_QUIT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "ER_CON_COUNT_ERROR",
  "ER_SERVER_SHUTDOWN",
  "ER_TOO_MANY_USER_CONNECTIONS",
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "SQLITE_IOERR",
  "SQLITE_FULL",
  "SQLITE_CANTOPEN",
]);
const DB_DOWN_MESSAGES = /Pool is closed|has already been destroyed|Database not opened|connect ETIMEDOUT|Connection lost|Can't add new command when connection is in closed state/i;

// What undici's Request.formData()/json() and our own parsers throw for a body they cannot read.
const BODY_TYPE_MESSAGE = /^Content-Type was not one of/;
const BODY_PARSE_MESSAGE = /Failed to parse body as FormData|Body is unusable|Unexpected end of (form|multipart)|Malformed part header/i;

function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown) => {
    if (!e || seen.has(e) || out.length > 20) return;
    seen.add(e);
    out.push(e);
    if (typeof e === "object") {
      visit((e as { cause?: unknown }).cause);
      const inner = (e as { errors?: unknown }).errors;
      if (Array.isArray(inner)) inner.forEach(visit);
      // React Router wraps some errors in an ErrorResponse whose `error` is the original.
      visit((e as { error?: unknown }).error);
    }
  };
  visit(error);
  return out;
}

export function isDbUnavailable(error: unknown): boolean {
  return chain(error).some((e) => {
    if (!e || typeof e !== "object") return false;
    const { code, fatal, message } = e as { code?: unknown; fatal?: unknown; message?: unknown };
    if (typeof code === "string" && (DB_DOWN_CODES.has(code) || code.startsWith("SQLITE_IOERR"))) return true;
    // mysql2 marks errors that broke the connection itself as fatal.
    if (fatal === true) return true;
    return typeof message === "string" && DB_DOWN_MESSAGES.test(message);
  });
}

/** The 4xx an input error deserves, or null when the error is not about the request's input. */
export function inputErrorClass(error: unknown): ErrorClass | null {
  for (const e of chain(error)) {
    if (!(e instanceof Error)) continue;
    const status = (e as { status?: unknown; statusCode?: unknown }).status ?? (e as { statusCode?: unknown }).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      if (status === 413) return { status, code: "payload_too_large", message: "The request is too large." };
      if (status === 415) return { status, code: "unsupported_media_type", message: "The request body has an unsupported type." };
      return { status, code: "bad_request", message: "The request could not be read." };
    }
    if (e instanceof TypeError && BODY_TYPE_MESSAGE.test(e.message)) {
      return { status: 415, code: "unsupported_media_type", message: "The request body has an unsupported type." };
    }
    if ((e instanceof TypeError && BODY_PARSE_MESSAGE.test(e.message)) || e instanceof SyntaxError || e instanceof URIError) {
      return { status: 400, code: "bad_request", message: "The request could not be read." };
    }
    // zod errors escaping a route mean the input was not what the route expected.
    if (e.name === "ZodError") return { status: 400, code: "bad_request", message: "The request could not be read." };
  }
  return null;
}

/** Classifies the errors one request produced; null keeps the 500. */
export function classifyErrors(errors: unknown[]): ErrorClass | null {
  if (errors.some(isDbUnavailable)) return DB_UNAVAILABLE;
  for (const error of errors) {
    const input = inputErrorClass(error);
    if (input) return input;
  }
  return null;
}

export { DB_UNAVAILABLE };

/** True when the database answers a trivial query within the time limit. */
export async function databaseReachable(timeoutMs = 1500): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([
      sql`select 1`.execute(db()).then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
