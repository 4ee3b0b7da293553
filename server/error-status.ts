import { sql } from "kysely";
import { db } from "~db/client.server";
import { DB_UNAVAILABLE, errorChain, isDbUnavailable, type ErrorClass } from "~db/errors";

/**
 * Maps an error that escaped a loader or action to the status the client deserves. Bad input is the
 * client's problem (4xx), an unreachable database is temporary (503), anything else stays a 500.
 */
export { DB_UNAVAILABLE, isDbUnavailable, type ErrorClass };

// What undici's Request.formData()/json() and our own parsers throw for a body they cannot read.
const BODY_TYPE_MESSAGE = /^Content-Type was not one of/;
const BODY_PARSE_MESSAGE = /Failed to parse body as FormData|Body is unusable|Unexpected end of (form|multipart)|Malformed part header/i;

/** The 4xx an input error deserves, or null when the error is not about the request's input. */
export function inputErrorClass(error: unknown): ErrorClass | null {
  for (const e of errorChain(error)) {
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

const unreachableListeners = new Set<() => void>();

/** Runs `listener` each time databaseReachable() finds the database away (the page cache stops trusting what it knows). */
export function onDatabaseUnreachable(listener: () => void): void {
  unreachableListeners.add(listener);
}

/** True when the database answers a trivial query within the time limit. */
export async function databaseReachable(timeoutMs = 1500): Promise<boolean> {
  const reachable = await answersWithin(timeoutMs);
  if (!reachable) for (const listener of unreachableListeners) listener();
  return reachable;
}

async function answersWithin(timeoutMs: number): Promise<boolean> {
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
