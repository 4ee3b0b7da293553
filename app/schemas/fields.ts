import * as z from "zod/mini";

// Zod compiles object parsers with new Function() unless told not to; under the site's CSP (no 'unsafe-eval')
// the browser refuses that and logs a violation on every page with a form. Must run before any z.object().
z.config({ jitless: true });

/**
 * Field helpers shared by every schema. Each schema serves three callers: conform in the browser,
 * the route action (FormData, where an empty input arrives as "") and the JSON API (where it may be
 * "" or absent). The helpers treat both the same way, so no form-value coercion is needed.
 *
 * The schemas in app/schemas use zod/mini, not classic zod: they ship to the browser with the public
 * forms, and zod/mini's functional API tree-shakes to about a quarter of classic zod's size (DESIGN.md §6).
 * Server-only code (the OpenAPI document, env parsing) may use classic zod around them.
 */

/** Empty or blank text counts as missing. */
export const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
/** Empty text counts as missing; spaces do not (passwords). */
export const emptyToUndefined = (v: unknown) => (v === "" ? undefined : v);

/** `schema` after `prepare` has rewritten the raw input: zod/mini's form of classic zod's z.preprocess. */
export function preprocess<T extends z.core.$ZodType>(prepare: (v: unknown) => unknown, schema: T) {
  return z.pipe(z.transform(prepare), schema);
}

/** A required text field: missing, empty or blank gives `message`. */
export function requiredText(message: string, max: number, label = "This field") {
  return preprocess(
    blankToUndefined,
    z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.maxLength(max, `${label} must be at most ${max} characters`)),
  );
}

/** An optional text field: missing, empty or blank becomes undefined. */
export function optionalText(max: number, label = "This field") {
  return preprocess(
    blankToUndefined,
    z.optional(z.string({ error: `${label} must be text` }).check(z.trim(), z.maxLength(max, `${label} must be at most ${max} characters`))),
  );
}

export function requiredEmail(requiredMessage = "Email is required", invalidMessage = "Valid email is required") {
  return preprocess(
    blankToUndefined,
    z.pipe(
      z.string({ error: requiredMessage }).check(z.trim(), z.minLength(1, requiredMessage), z.maxLength(254, invalidMessage)),
      z.pipe(
        z.email({ error: invalidMessage }),
        z.transform((v) => v.toLowerCase()),
      ),
    ),
  );
}

/** One of a fixed list; missing or anything else gives `message`. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return preprocess(blankToUndefined, z.enum(values, { error: message }));
}

const TRUE = new Set(["true", "on", "1", "yes"]);
const FALSE = new Set(["false", "off", "0", "no", ""]);
/** A checkbox or JSON boolean. An absent checkbox means `whenMissing`. */
export function flag(whenMissing: boolean) {
  return preprocess(
    (v) => {
      if (v === undefined || v === null) return whenMissing;
      if (typeof v === "string") {
        const s = v.trim().toLowerCase();
        if (TRUE.has(s)) return true;
        if (FALSE.has(s)) return false;
      }
      if (typeof v === "number") return v !== 0;
      return v;
    },
    z.boolean({ error: "Must be true or false" }),
  );
}

/** Whole numbers as the spec's forms parse them: a non-numeric value becomes 0. */
export function wholeNumber(min: number, minMessage: string, max = 100000) {
  return preprocess(
    (v) => {
      if (typeof v === "number") return Number.isFinite(v) ? Math.trunc(v) : 0;
      if (typeof v === "string") {
        const n = Number.parseInt(v, 10);
        return Number.isNaN(n) ? 0 : n;
      }
      if (v === undefined || v === null) return 0;
      return v;
    },
    z.int({ error: minMessage }).check(z.minimum(min, minMessage), z.maximum(max, `Must be at most ${max}`)),
  );
}

/** A list of short texts; blank entries are dropped (a form always posts the empty last highlight). */
export function textList(maxItems: number, maxLength: number, label: string) {
  return preprocess(
    (v) => {
      if (v === undefined || v === null || v === "") return [];
      const list = Array.isArray(v) ? v : [v];
      return list.map((item) => (typeof item === "string" ? item.trim() : item)).filter((item) => item !== "" && item !== undefined && item !== null);
    },
    z
      .array(z.string({ error: `${label} must be text` }).check(z.maxLength(maxLength, `Each ${label.toLowerCase()} must be at most ${maxLength} characters`)))
      .check(z.maxLength(maxItems, `At most ${maxItems} ${label.toLowerCase()} entries`)),
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export function calendarDate(requiredMessage: string) {
  return preprocess(
    blankToUndefined,
    z.string({ error: requiredMessage }).check(
      z.trim(),
      z.refine((v) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
        message: "Enter a date as YYYY-MM-DD",
      }),
    ),
  );
}

/** An optional http(s) URL or a site path such as /images/a.png. */
export function optionalUrl(label: string) {
  return preprocess(
    blankToUndefined,
    z.optional(
      z
        .string({ error: `${label} must be text` })
        .check(z.trim(), z.maxLength(500, `${label} must be at most 500 characters`), z.refine(isSafeUrl, { message: `${label} must be a valid URL` })),
    ),
  );
}

export function requiredUrl(requiredMessage: string, label: string) {
  return preprocess(
    blankToUndefined,
    z
      .string({ error: requiredMessage })
      .check(
        z.trim(),
        z.minLength(1, requiredMessage),
        z.maxLength(500, `${label} must be at most 500 characters`),
        z.refine(isSafeUrl, { message: `${label} must be a valid URL` }),
      ),
  );
}

export function isSafeUrl(v: string): boolean {
  if (v.startsWith("/") && !v.startsWith("//")) return true;
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}
