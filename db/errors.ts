/**
 * Which errors mean "the database is away for now" (503, try again) rather than a bug: shared by the
 * server's last-resort mapping (server/error-status.ts) and the JSON API, which answers its own errors.
 */
export type ErrorClass = { status: number; code: string; message: string };

export const DB_UNAVAILABLE: ErrorClass = {
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
const DB_DOWN_MESSAGES =
  /Pool is closed|Queue limit reached|has already been destroyed|Database not opened|connect ETIMEDOUT|Connection lost|Can't add new command when connection is in closed state/i;

/** An error, its causes, the errors it aggregates and any it wraps, without loops. */
export function errorChain(error: unknown): unknown[] {
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
  return errorChain(error).some((e) => {
    if (!e || typeof e !== "object") return false;
    const { code, fatal, message } = e as { code?: unknown; fatal?: unknown; message?: unknown };
    if (typeof code === "string" && (DB_DOWN_CODES.has(code) || code.startsWith("SQLITE_IOERR"))) return true;
    // mysql2 marks errors that broke the connection itself as fatal.
    if (fatal === true) return true;
    return typeof message === "string" && DB_DOWN_MESSAGES.test(message);
  });
}

/** A row with this key or unique value already exists (SQLite and MySQL/MariaDB word it differently). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number } | null;
  return e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY" || e?.code === "ER_DUP_ENTRY" || e?.errno === 1062;
}
