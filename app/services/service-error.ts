/**
 * The one error type of the service layer (app/services): a rule said no. Routes translate it: the admin
 * screens into a conform reply, a flash message or a status page; the JSON API into
 * `{ error: { code, message, fields } }` with the status below (app/web/api.server.ts).
 */
export type ServiceErrorKind =
  | "invalid" // 400: input breaks a rule; `fields` has the spec's message per field
  | "unauthorized" // 401: wrong credentials
  | "forbidden" // 403: not allowed for this user
  | "notFound" // 404
  | "conflict" // 409: e.g. the e-mail is taken
  | "tooLarge" // 413: a file over its limit
  | "unsupportedType" // 415: a file of a type not accepted
  | "tooMany" // 429: throttled; `retryAfter` seconds
  | "unavailable"; // 503: something the rule needs is away for now (e.g. the attachment store is full)

export const SERVICE_ERROR_STATUS: Record<ServiceErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  unsupportedType: 415,
  tooMany: 429,
  unavailable: 503,
};

export type FieldMessages = Record<string, string>;

export class ServiceError extends Error {
  override name = "ServiceError";
  /** A write refused because the record changed meanwhile (edit_conflict): the record as stored now, for the API's answer. */
  current?: unknown;
  constructor(
    public kind: ServiceErrorKind,
    message: string,
    public fields: FieldMessages = {},
    public retryAfter?: number,
    /** A short machine-readable code for the API (defaults to a name for the kind). */
    public code: string = DEFAULT_CODES[kind],
  ) {
    super(message);
  }

  get status(): number {
    return SERVICE_ERROR_STATUS[this.kind];
  }
}

const DEFAULT_CODES: Record<ServiceErrorKind, string> = {
  invalid: "invalid_input",
  unauthorized: "invalid_credentials",
  forbidden: "forbidden",
  notFound: "not_found",
  conflict: "conflict",
  tooLarge: "payload_too_large",
  unsupportedType: "unsupported_media_type",
  tooMany: "rate_limited",
  unavailable: "service_unavailable",
};

export const invalid = (fields: FieldMessages, message = Object.values(fields)[0] ?? "Invalid input") => new ServiceError("invalid", message, fields);
export const notFound = (what = "Record") => new ServiceError("notFound", `${what} not found`);
export const forbidden = (message = "Only an admin can do this", code?: string) => new ServiceError("forbidden", message, {}, undefined, code);
export const conflict = (message: string, fields: FieldMessages = {}, code?: string) => new ServiceError("conflict", message, fields, undefined, code);
export const tooMany = (message: string, retryAfter: number) => new ServiceError("tooMany", message, {}, retryAfter);

export function isServiceError(error: unknown, kind?: ServiceErrorKind): error is ServiceError {
  return error instanceof ServiceError && (kind === undefined || error.kind === kind);
}
