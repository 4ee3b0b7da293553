import { parse, type Submission, type SubmissionResult } from "@conform-to/react";
import * as z from "zod/mini";
import { cleanText } from "~/schemas/fields";
import { fieldName } from "~/util/field-name";

/**
 * A form post checked against one of the schemas in app/schemas, as conform's Submission: the same call runs in
 * the browser (useForm's onValidate) and in the route actions.
 *
 * This is conform's own `parse` with zod's `safeParse`, what @conform-to/zod's parseWithZod does minus its type
 * coercion. That coercion imports classic zod (about 13 KiB gzipped in the browser), and the schemas do not need
 * it: they read FormData's "" and a JSON body's missing value alike (app/schemas/fields.ts).
 */
export function parseWithSchema<S extends z.core.$ZodType>(payload: FormData | URLSearchParams, schema: S): Submission<z.input<S>, string[], z.output<S>> {
  return parse<z.output<S>, string[]>(payload, {
    resolve(value) {
      const result = z.safeParse(schema, value);
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) (error[fieldName(issue.path)] ??= []).push(issue.message);
      return { error };
    },
  }) as Submission<z.input<S>, string[], z.output<S>>;
}

/**
 * A form that comes back with a mistake shows what was typed, and without JavaScript that is the server's HTML: a
 * control character, a noncharacter or half a surrogate pair typed (or fuzzed) into a field would make the page
 * invalid HTML. The schema cleans the values it keeps; a reply the server sends back is cleaned the same way
 * (server code only: the browser never sends its echo anywhere, and the public forms' code stays small).
 */
export function cleanedReply(result: SubmissionResult<string[]>): SubmissionResult<string[]> {
  return result.initialValue ? { ...result, initialValue: cleanEcho(result.initialValue) as typeof result.initialValue } : result;
}

function cleanEcho(value: unknown): unknown {
  if (typeof value === "string") return cleanText(value, true);
  if (Array.isArray(value)) return value.map(cleanEcho);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanEcho(v)]));
  return value;
}

/**
 * conform's reply for a form whose save a server-side rule refused: the values typed come back with the
 * rule's message on each field (and any form-level messages), as if the schema had reported them.
 */
export function replyWithErrors(payload: FormData, fields: Record<string, string>, opts: { formErrors?: string[]; hideFields?: string[] } = {}) {
  const submission = parse<Record<string, unknown>, string[]>(payload, {
    resolve: () => ({ error: Object.fromEntries(Object.entries(fields).map(([name, message]) => [name, [message]])) }),
  });
  return cleanedReply(submission.reply({ formErrors: opts.formErrors, hideFields: opts.hideFields }));
}
