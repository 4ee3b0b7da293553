import { parse, type Submission } from "@conform-to/react";
import * as z from "zod/mini";

/** A zod issue's path as a form field's name, the way conform names fields (`highlights[2]`, `a.b`); "" for the whole form. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, seg) => (typeof seg === "number" ? `${name}[${seg}]` : name ? `${name}.${String(seg)}` : String(seg)), "");
}

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
 * conform's reply for a form whose save a server-side rule refused: the values typed come back with the
 * rule's message on each field (and any form-level messages), as if the schema had reported them.
 */
export function replyWithErrors(payload: FormData, fields: Record<string, string>, opts: { formErrors?: string[]; hideFields?: string[] } = {}) {
  const submission = parse<Record<string, unknown>, string[]>(payload, {
    resolve: () => ({ error: Object.fromEntries(Object.entries(fields).map(([name, message]) => [name, [message]])) }),
  });
  return submission.reply({ formErrors: opts.formErrors, hideFields: opts.hideFields });
}
