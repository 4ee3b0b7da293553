import { z } from "zod";

// Zod compiles object parsers with new Function() unless told not to; under the site's CSP (no 'unsafe-eval')
// the browser refuses that and logs a violation on every page with a form. Must run before any z.object().
z.config({ jitless: true });

/**
 * Field helpers shared by every schema. Each schema serves three callers: conform in the browser,
 * the route action (FormData, where conform turns empty inputs into undefined) and the JSON API
 * (where an empty input arrives as ""). The helpers treat both the same way.
 */

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** A required text field: missing, empty or blank gives `message`. */
export function requiredText(message: string, max: number, label = "This field") {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: message })
      .trim()
      .min(1, message)
      .max(max, `${label} must be at most ${max} characters`),
  );
}

/** An optional text field: missing, empty or blank becomes undefined. */
export function optionalText(max: number, label = "This field") {
  return z.preprocess(
    blankToUndefined,
    z.string({ error: `${label} must be text` }).trim().max(max, `${label} must be at most ${max} characters`).optional(),
  );
}

export function requiredEmail(requiredMessage = "Email is required", invalidMessage = "Valid email is required") {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: requiredMessage })
      .trim()
      .min(1, requiredMessage)
      .max(254, invalidMessage)
      .pipe(z.email({ error: invalidMessage }))
      .transform((v) => v.toLowerCase()),
  );
}

/** One of a fixed list; missing or anything else gives `message`. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.preprocess(blankToUndefined, z.enum(values, { error: message }));
}

const TRUE = new Set(["true", "on", "1", "yes"]);
const FALSE = new Set(["false", "off", "0", "no", ""]);
/** A checkbox or JSON boolean. An absent checkbox means `whenMissing`. */
export function flag(whenMissing: boolean) {
  return z.preprocess(
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
  return z.preprocess(
    (v) => {
      if (typeof v === "number") return Number.isFinite(v) ? Math.trunc(v) : 0;
      if (typeof v === "string") {
        const n = Number.parseInt(v, 10);
        return Number.isNaN(n) ? 0 : n;
      }
      if (v === undefined || v === null) return 0;
      return v;
    },
    z.number({ error: minMessage }).int().min(min, minMessage).max(max, `Must be at most ${max}`),
  );
}

/** A list of short texts; blank entries are dropped (a form always posts the empty last highlight). */
export function textList(maxItems: number, maxLength: number, label: string) {
  return z.preprocess(
    (v) => {
      if (v === undefined || v === null || v === "") return [];
      const list = Array.isArray(v) ? v : [v];
      return list.map((item) => (typeof item === "string" ? item.trim() : item)).filter((item) => item !== "" && item !== undefined && item !== null);
    },
    z
      .array(z.string({ error: `${label} must be text` }).max(maxLength, `Each ${label.toLowerCase()} must be at most ${maxLength} characters`))
      .max(maxItems, `At most ${maxItems} ${label.toLowerCase()} entries`),
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export function calendarDate(requiredMessage: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: requiredMessage })
      .trim()
      .refine((v) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
        message: "Enter a date as YYYY-MM-DD",
      }),
  );
}

/** An optional http(s) URL or a site path such as /images/a.png. */
export function optionalUrl(label: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${label} must be text` })
      .trim()
      .max(500, `${label} must be at most 500 characters`)
      .refine(isSafeUrl, { message: `${label} must be a valid URL` })
      .optional(),
  );
}

export function requiredUrl(requiredMessage: string, label: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: requiredMessage })
      .trim()
      .min(1, requiredMessage)
      .max(500, `${label} must be at most 500 characters`)
      .refine(isSafeUrl, { message: `${label} must be a valid URL` }),
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
