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

/**
 * At least one character that shows: not white space (of any kind), a control character, a lone surrogate or a
 * noncharacter, nor one of the characters that draw nothing: Unicode's default-ignorable code points (zero-width
 * space and joiners U+200B–U+200F, soft hyphen U+00AD, word joiner and invisible operators U+2060–U+2064, BOM
 * U+FEFF, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, Mongolian vowel separator U+180E, combining
 * grapheme joiner U+034F, variation selectors, bidi controls, tags) and the blank braille pattern U+2800.
 * A text without one is blank, however long it is: a name of three zero-width spaces is no name. Those characters
 * are not removed from a text that does show something (a zero-width joiner in an emoji sequence).
 * Written as a pattern so the OpenAPI document carries it as a required text's `pattern`, with the u flag, as
 * JSON Schema reads patterns (a surrogate pair is one character, not two; \p{…} is a Unicode property).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const VISIBLE = /[^\s\u0000-\u001F\u007F-\u009F\uD800-\uDFFF\u2800\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;

/** Empty or blank text (nothing visible in it, see VISIBLE) counts as missing. */
export const blankToUndefined = (v: unknown) => (typeof v === "string" && !VISIBLE.test(v) ? undefined : v);

// C0 controls but tab, line feed and carriage return; DEL; C1 controls (U+0080–U+009F); and the 66 noncharacters
// (U+FDD0–U+FDEF and the last two code points of every plane, U+FFFE, U+FFFF, U+1FFFE … U+10FFFF). Pages would
// print them raw (invalid HTML: the Nu checker refuses both, invisible characters in a name) and they have no
// business in a form field.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNWANTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Noncharacter_Code_Point}]/gu;

// Half of a UTF-16 surrogate pair on its own (JSON can carry "\ud800"): no character at all. The databases store it
// as a replacement character or three, so a 200-character title came back longer than 200 (found by the contract fuzz test).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// Direction controls: the embeddings and overrides U+202A–202E and the isolates U+2066–2069. In a one-line value they
// make a name, subject or title show in another order than it was typed ("Ravi\u202Efdp.exe" reads "Ravi exe.pdf")
// in the lists, the CSV and e-mail subjects, and can reorder what a page prints after them; a name has no use for
// them (right-to-left scripts display right to left without them).
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * Text as it may be stored: lone surrogates, control characters and noncharacters removed; line breaks (CR, LF,
 * CRLF and Unicode's line and paragraph separators U+2028 and U+2029) kept as \n only in multi-line fields, turned
 * into a space in single-line ones (a name pasted with a line break stays one line), where direction controls are
 * removed too (multi-line text keeps them: staff screens isolate each value in <bdi>). Lone surrogates go first: a
 * control or noncharacter removed from between two of them must not join them into a character that was never sent.
 */
export function cleanText(value: string, multiline: boolean): string {
  const text = value
    .replace(LONE_SURROGATE, "")
    .replace(UNWANTED, "")
    .replace(/\r\n?|[\u2028\u2029]/g, "\n");
  return multiline ? text : text.replace(BIDI_CONTROLS, "").replace(/\n+/g, " ");
}

/** Text fields: controls out, then blank counts as missing. */
export const cleanThenBlank = (multiline: boolean) => (v: unknown) => blankToUndefined(typeof v === "string" ? cleanText(v, multiline) : v);

export type Lines = "single" | "multi";
/** Empty text counts as missing; spaces do not (passwords). */
export const emptyToUndefined = (v: unknown) => (v === "" ? undefined : v);

/** `schema` after `prepare` has rewritten the raw input: zod/mini's form of classic zod's z.preprocess. */
export function preprocess<T extends z.core.$ZodType>(prepare: (v: unknown) => unknown, schema: T) {
  return z.pipe(z.transform(prepare), schema);
}

/** A required text field: missing, empty or blank gives `message`. */
export function requiredText(message: string, max: number, label = "This field", lines: Lines = "single") {
  return preprocess(
    cleanThenBlank(lines === "multi"),
    z
      .string({ error: message })
      .check(z.trim(), z.minLength(1, message), z.maxLength(max, `${label} must be at most ${max} characters`), z.regex(VISIBLE, message)),
  );
}

/** An optional text field: missing, empty or blank becomes undefined. */
export function optionalText(max: number, label = "This field", lines: Lines = "single") {
  return preprocess(
    cleanThenBlank(lines === "multi"),
    z.optional(z.string({ error: `${label} must be text` }).check(z.trim(), z.maxLength(max, `${label} must be at most ${max} characters`))),
  );
}

/**
 * An e-mail address: cleaned like any one-line text (a direction control pasted with it is dropped), trimmed, at most
 * 254 characters, of zod's e-mail shape (the document states it as `format: email` and the same `pattern`), stored
 * in lower case.
 */
export function requiredEmail(requiredMessage = "Email is required", invalidMessage = "Valid email is required") {
  return preprocess(
    cleanThenBlank(false),
    z
      .string({ error: requiredMessage })
      .check(z.trim(), z.minLength(1, requiredMessage), z.maxLength(254, invalidMessage), z.email({ error: invalidMessage }), z.toLowerCase()),
  );
}

/** One of a fixed list; missing or anything else gives `message`. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return preprocess(blankToUndefined, z.enum(values, { error: message }));
}

const TRUE = new Set(["true", "on", "1", "yes"]);
const FALSE = new Set(["false", "off", "0", "no", ""]);
/** A checkbox or JSON value that `flag` reads as true; anything else means no (for flags that only ever ask for something). */
export const isTrueFlag = (v: unknown): boolean =>
  v === true || (typeof v === "number" && v !== 0) || (typeof v === "string" && TRUE.has(v.trim().toLowerCase()));
/** A checkbox or JSON boolean. An absent checkbox means `whenMissing` (a default, so the document shows it as optional). */
export function flag(whenMissing: boolean) {
  return z._default(
    preprocess(
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
    ),
    whenMissing,
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

/** A list of short texts; blank entries are dropped (a form always posts the empty last highlight). Missing is an empty list. */
export function textList(maxItems: number, maxLength: number, label: string) {
  return z._default(
    preprocess(
      (v) => {
        if (v === undefined || v === null || v === "") return [];
        const list = Array.isArray(v) ? v : [v];
        return list
          .map((item) => (typeof item === "string" ? cleanText(item, false).trim() : item))
          .filter((item) => item !== null && blankToUndefined(item) !== undefined);
      },
      z
        .array(
          z.string({ error: `${label} must be text` }).check(z.maxLength(maxLength, `Each ${label.toLowerCase()} must be at most ${maxLength} characters`)),
        )
        .check(z.maxLength(maxItems, `At most ${maxItems} ${label.toLowerCase()} entries`)),
    ),
    () => [],
  );
}

// A real calendar day as YYYY-MM-DD, as a pattern: months 01–12, each month's own last day, 29 February only in leap
// years (every 4th, but of the centuries only every 4th), years 0001–9999 (0000 is not a year to JSON Schema's
// `format: date`). The OpenAPI document carries it as the field's `pattern`, so the document says exactly which
// text the server takes: "2026-02-30" or "0000-00-00" match neither.
const MONTH_DAY = "(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))";
const dayPattern = (year: string, leapYear: string) => new RegExp(`^(?:${year}-${MONTH_DAY}|${leapYear}-02-29)$`);
export const DATE_PATTERN = /* @__PURE__ */ dayPattern(
  "(?:000[1-9]|00[1-9]\\d|0[1-9]\\d{2}|[1-9]\\d{3})",
  "(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)",
);
/** The same from 1970-01-01 on: the date filters' days. */
export const DATE_PATTERN_1970 = /* @__PURE__ */ dayPattern(
  "(?:19[7-9]\\d|[2-9]\\d{3})",
  "(?:19(?:7[26]|8[048]|9[26])|[2-9]\\d(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)",
);
/** YYYY-MM-DD that names a real day (not 2026-02-30), year 0001 to 9999. */
export const isCalendarDate = (v: string) => DATE_PATTERN.test(v);

export const DAY_MESSAGE = "Enter a date as YYYY-MM-DD";
const FILTER_DAY_DESCRIPTION = "a real day (YYYY-MM-DD) from 1970-01-01 on";

/** A filter's day on a screen: a real calendar day (not 2026-02-30) from 1970 on; blank means no filter. */
export const optionalDay = (description: string) =>
  preprocess(
    blankToUndefined,
    z.optional(z.string().check(z.regex(DATE_PATTERN_1970, DAY_MESSAGE), z.meta({ format: "date", description: `${description}; ${FILTER_DAY_DESCRIPTION}` }))),
  );

/**
 * A filter's day in an API query: taken as sent, a real calendar day from 1970 on. Unlike a screen's form, which
 * sends its empty fields, an API caller leaves a filter out: `from=` (empty or blank) is a 400, as the document's
 * pattern says.
 */
export const apiDay = (description: string) =>
  z.optional(z.string().check(z.regex(DATE_PATTERN_1970, DAY_MESSAGE), z.meta({ format: "date", description: `${description}; ${FILTER_DAY_DESCRIPTION}` })));

export function calendarDate(requiredMessage: string) {
  return preprocess(
    blankToUndefined,
    z.string({ error: requiredMessage }).check(
      z.regex(DATE_PATTERN, DAY_MESSAGE),
      z.meta({
        format: "date",
        description: "A calendar day as YYYY-MM-DD, year 0001 to 9999; it must exist (2026-02-30 is refused): the pattern says which",
      }),
    ),
  );
}
